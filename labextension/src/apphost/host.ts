/**
 * JupyterLab as an MCP Apps host: a tool's `ui://` app in a sandboxed frame, joined to the MCP server
 * by the official `AppBridge` (`@modelcontextprotocol/ext-apps/app-bridge`), which answers the app's
 * `ui/initialize` and forwards its `tools/call` and `resources/read` through an MCP client.
 *
 * Plain DOM and no JupyterLab imports (the page's look comes in as a host context), so the same host
 * runs wherever a page can reach the server. The frame is `sandbox="allow-scripts"` with the document
 * as `srcdoc`: an opaque origin, never the page's, under the spec's default Content-Security-Policy
 * (written into the document's head) widened only by what the app's resource declares.
 */
import {
  AppBridge,
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
  McpUiHostContext,
  McpUiResourceCsp,
  PostMessageTransport
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { CallToolResult, Client, StreamableHTTPClientTransport, Tool } from '@modelcontextprotocol/client';

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
const HOST_INFO = { name: 'JupyterLab', version: '4' };

/** An MCP server the page can reach: its address, and how to fetch from it (JupyterLab's credentials). */
export interface IServerAddress {
  /** What the picker says. */
  label: string;
  url: string;
  fetch?: (input: string | URL, init?: RequestInit) => Promise<Response>;
  headers?: { [name: string]: string };
}

/** A client that declares it renders MCP Apps, connected to `server` (either protocol era). */
export async function connect(server: IServerAddress): Promise<Client> {
  const client = new Client(HOST_INFO, {
    capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } },
    versionNegotiation: { mode: 'auto' }
  });
  const transport = new StreamableHTTPClientTransport(new URL(server.url, window.location.href), {
    fetch: server.fetch,
    requestInit: server.headers ? { headers: server.headers } : undefined
  });
  await client.connect(transport);
  return client;
}

/** The tools a person can open an app for: a `ui://` app, and visible to the model (not app-only). */
export function appTools(tools: Tool[]): Tool[] {
  return tools.filter(tool => uiUri(tool) !== undefined && !isToolVisibilityAppOnly(tool));
}

function uiUri(tool: Tool): string | undefined {
  try {
    return getToolUiResourceUri(tool);
  } catch {
    return undefined; // a resourceUri that is not ui://: no app
  }
}

/** The spec's default policy, and what a resource's `_meta.ui.csp` adds. */
export function contentSecurityPolicy(csp: McpUiResourceCsp | undefined): string {
  const resources = (csp?.resourceDomains ?? []).join(' ');
  const connect = (csp?.connectDomains ?? []).join(' ') || "'none'";
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${connect}`,
    `frame-src ${(csp?.frameDomains ?? []).join(' ') || "'none'"}`,
    "object-src 'none'",
    `base-uri ${(csp?.baseUriDomains ?? []).join(' ') || "'self'"}`
  ]
    .map(part => part.trim())
    .join('; ');
}

/** One tool's app in a frame: `open()` it, then `run(arguments)` calls the tool and shows the call. */
export class AppFrame {
  constructor(
    private readonly _client: Client,
    private readonly _tool: Tool,
    private readonly _context: () => McpUiHostContext
  ) {
    this.frame = document.createElement('iframe');
    this.frame.className = 'jp-MCP-app-frame';
    this.frame.setAttribute('sandbox', 'allow-scripts');
    this.frame.title = `MCP App of ${_tool.name}`;
  }

  /** The frame the app runs in (put it in the page before `open()`). */
  readonly frame: HTMLIFrameElement;

  /** What the app told the model it shows (`ui/update-model-context`), newest last. */
  readonly modelContext: string[] = [];

  /** Read the app's document, start it, and wait until it has initialized. */
  async open(): Promise<void> {
    const uri = uiUri(this._tool);
    if (!uri) {
      throw new Error(`${this._tool.name} has no MCP App`);
    }
    const read = await this._client.readResource({ uri });
    const contents = read.contents[0];
    if (!contents || !('text' in contents) || contents.mimeType !== APP_MIME_TYPE) {
      throw new Error(`${uri} is not an MCP App document (${contents?.mimeType ?? 'nothing'})`);
    }
    const meta = (contents._meta ?? {}) as { ui?: { csp?: McpUiResourceCsp; prefersBorder?: boolean } };
    this.frame.classList.toggle('jp-mod-bordered', meta.ui?.prefersBorder !== false);
    const policy = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(meta.ui?.csp)}">`;
    const bridge = new AppBridge(
      this._client,
      HOST_INFO,
      { serverTools: {}, serverResources: {}, logging: {}, updateModelContext: { text: {} } },
      { hostContext: { ...this._context(), toolInfo: { tool: this._tool } } }
    );
    bridge.onsizechange = ({ height }) => {
      if (height) {
        this.frame.style.height = `${height}px`;
      }
    };
    bridge.onupdatemodelcontext = params => {
      const text = (params.content ?? []).map(block => ('text' in block ? String(block.text) : '')).join(' ');
      this.modelContext.push(text);
      return Promise.resolve({});
    };
    const initialized = new Promise<void>(resolve => (bridge.oninitialized = () => resolve()));
    // The bridge listens before the document loads: the app's first message is its ui/initialize.
    await bridge.connect(new PostMessageTransport(this.frame.contentWindow!, this.frame.contentWindow!));
    this.frame.srcdoc = contents.text.replace(/<head[^>]*>/i, match => `${match}${policy}`);
    this._bridge = bridge;
    await initialized;
  }

  /** Call the tool with `args` as a host does for its model: the app sees the input, then the result. */
  async run(args: { [name: string]: unknown }): Promise<CallToolResult> {
    const bridge = this._required();
    await bridge.sendToolInput({ arguments: args });
    try {
      const result = await this._client.callTool({ name: this._tool.name, arguments: args });
      await bridge.sendToolResult(result);
      return result;
    } catch (error) {
      await bridge.sendToolCancelled({ reason: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** The page's look changed (JupyterLab's theme): tell the app. */
  restyle(): void {
    this._bridge?.setHostContext({ ...this._context(), toolInfo: { tool: this._tool } });
  }

  async close(): Promise<void> {
    const bridge = this._bridge;
    this._bridge = null;
    if (bridge) {
      await Promise.race([
        bridge.teardownResource({ reason: 'closed' }).catch(() => undefined),
        new Promise(resolve => window.setTimeout(resolve, 500))
      ]);
      await bridge.close().catch(() => undefined);
    }
    this.frame.remove();
  }

  private _required(): AppBridge {
    if (!this._bridge) {
      throw new Error('open() the app first');
    }
    return this._bridge;
  }

  private _bridge: AppBridge | null = null;
}

/** The page's look as a host context: its theme and the spec's style variables from its --jp-* tokens. */
export function pageContext(): McpUiHostContext {
  const style = getComputedStyle(document.body);
  const token = (name: string): string => style.getPropertyValue(name).trim();
  const light = document.body.dataset.jpThemeLight !== 'false';
  const pairs: Array<[string, string]> = [
    ['--color-background-primary', '--jp-layout-color1'],
    ['--color-background-secondary', '--jp-layout-color2'],
    ['--color-text-primary', '--jp-ui-font-color1'],
    ['--color-text-secondary', '--jp-ui-font-color2'],
    ['--color-border-primary', '--jp-border-color1'],
    ['--color-border-secondary', '--jp-border-color2'],
    ['--font-sans', '--jp-ui-font-family'],
    ['--font-mono', '--jp-code-font-family']
  ];
  const variables: { [key: string]: string } = {};
  for (const [key, source] of pairs) {
    const value = token(source);
    if (value) {
      variables[key] = value;
    }
  }
  return {
    theme: light ? 'light' : 'dark',
    styles: { variables: variables as NonNullable<McpUiHostContext['styles']>['variables'] },
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    platform: 'web',
    locale: navigator.language
  };
}
