// An MCP Apps host page for the browser tests, built on the official pieces: `AppBridge` from
// @modelcontextprotocol/ext-apps (what hosts such as the MCP Inspector use) and the MCP TypeScript
// client it forwards the app's requests through. Bundled by esbuild at test time (tests/browser/apphost.py);
// served at the MCP server's own origin, so the client reaches /mcp without CORS.
//
// window.host.open({...})  connect, list the tools, read the tool's ui:// app and start it in a sandboxed
//                          frame (allow-scripts only: an opaque origin), under the spec's default CSP
// window.host.call(args)   tool-input, then the call through the client, then tool-result
// window.host.input(args) / result(result) / cancel(reason)   the same notifications, for a call made elsewhere
// window.host.theme(theme) host-context-changed with the theme and its style variables
import { AppBridge, getToolUiResourceUri, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const UI = 'io.modelcontextprotocol/ui';
const APP_MIME = 'text/html;profile=mcp-app';
const CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; object-src 'none'; base-uri 'self'";

/** Style variables of the spec's theming section, as a chat host passes them (light-dark pairs). */
const VARIABLES = {
  '--color-background-primary': 'light-dark(#ffffff, #171717)',
  '--color-background-secondary': 'light-dark(#f5f5f5, #262626)',
  '--color-text-primary': 'light-dark(#171717, #fafafa)',
  '--color-text-secondary': 'light-dark(#525252, #a3a3a3)',
  '--color-border-primary': 'light-dark(#d4d4d4, #525252)',
  '--color-border-secondary': 'light-dark(#e5e5e5, #404040)',
  '--font-sans': "'DejaVu Sans', sans-serif",
  '--font-mono': "'DejaVu Sans Mono', monospace"
};

const state = { bridge: null, client: null, tool: null, modelContext: [], sizes: [], log: [] };

function context(theme) {
  return { theme, styles: { variables: VARIABLES }, displayMode: 'inline', platform: 'web', locale: 'en-US' };
}

async function open({ url, token, mode, tool, theme }) {
  const client = new Client(
    { name: 'apphost-test', version: '1.0.0' },
    { capabilities: { extensions: { [UI]: { mimeTypes: [APP_MIME] } } }, versionNegotiation: { mode } }
  );
  const headers = { Authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  const listed = (await client.listTools()).tools;
  const found = listed.find(t => t.name === tool);
  if (!found) {
    throw new Error(`no tool ${tool}: ${listed.map(t => t.name).join(', ')}`);
  }
  const uri = getToolUiResourceUri(found);
  const read = await client.readResource({ uri });
  const contents = read.contents[0];
  if (contents.mimeType !== APP_MIME) {
    throw new Error(`${uri} is ${contents.mimeType}`);
  }
  const frame = document.createElement('iframe');
  frame.id = 'app';
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.cssText = 'width: 100%; border: 1px solid #8888; border-radius: 8px; height: 200px; display: block;';
  const html = contents.text.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${CSP}">`);
  document.getElementById('chat').append(frame);
  const bridge = new AppBridge(
    client,
    { name: 'apphost-test', version: '1.0.0' },
    { serverTools: {}, serverResources: {}, logging: {}, updateModelContext: { text: {} } },
    { hostContext: { ...context(theme), toolInfo: { tool: found } } }
  );
  bridge.onsizechange = ({ height }) => {
    state.sizes.push(height);
    if (height) {
      frame.style.height = `${height}px`;
    }
  };
  bridge.onupdatemodelcontext = async params => {
    state.modelContext.push(params);
    return {};
  };
  bridge.onloggingmessage = params => state.log.push(params);
  const initialized = new Promise(resolve => (bridge.oninitialized = resolve));
  // Connected first, then loaded (as ext-apps' own hosts do): the app's first message is ui/initialize.
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html;
  await initialized;
  Object.assign(state, { bridge, client, tool: found, resourceMeta: contents._meta ?? null });
  return { uri, bytes: contents.text.length, resourceMeta: contents._meta ?? null };
}

async function call(args) {
  await state.bridge.sendToolInput({ arguments: args });
  const result = await state.client.callTool({ name: state.tool.name, arguments: args });
  await state.bridge.sendToolResult(result);
  return result;
}

window.host = {
  state,
  open,
  call,
  input: args => state.bridge.sendToolInput({ arguments: args }),
  result: result => state.bridge.sendToolResult(result),
  cancel: reason => state.bridge.sendToolCancelled({ reason }),
  theme: theme => {
    document.documentElement.style.colorScheme = theme;
    return state.bridge.setHostContext({ ...context(theme), toolInfo: { tool: state.tool } });
  }
};
