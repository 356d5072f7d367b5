/**
 * The "MCP Apps" view: pick a server (a notebook that serves tools, or any MCP server address the user
 * adds), pick one of its tools that has an app, fill in its arguments and call it: its app opens below,
 * as a chat client would show it. Plain DOM on the component set (`../ui`); `host.ts` does the hosting.
 */
import { Client, Tool } from '@modelcontextprotocol/client';

import { button, fill, h, heading, muted, SchemaForm } from '../ui';
import { AppFrame, appTools, connect, IServerAddress, pageContext } from './host';

export interface IAppsViewOptions {
  /** The servers to offer (JupyterLab's notebooks), asked again whenever the picker is drawn. */
  servers(): IServerAddress[];
  /** How to reach an address the user typed (same-origin addresses get JupyterLab's credentials). */
  address(url: string, token: string): IServerAddress;
}

export class AppsView {
  constructor(private readonly _options: IAppsViewOptions) {
    this.node = h('div', 'jmcp jp-MCP-apps');
    this._url.placeholder = 'https://…/mcp (another MCP server)';
    this._url.setAttribute('aria-label', 'MCP server address');
    this._token.placeholder = 'bearer token (optional)';
    this._token.type = 'password';
    this._token.setAttribute('aria-label', 'bearer token');
    this._picker.setAttribute('aria-label', 'MCP server');
    this._picker.addEventListener('change', () => void this._pick(this._picker.value));
    const add = button('Add', 'default', () => void this._add(), 'Connect to this MCP server and list its apps');
    const head = h('div', 'jp-MCP-apps-head', h('h2', 'jp-MCP-heading', 'MCP Apps'), this._picker);
    const adding = h('div', 'jp-MCP-apps-add', this._url, this._token, add);
    this.node.append(head, adding, this._status, this._tools, this._call, this._stage);
    this.refresh();
  }

  readonly node: HTMLDivElement;

  /** The app on show, if any (the tests read what it told the model). */
  get app(): AppFrame | null {
    return this._app;
  }

  /** Redraw the server picker (JupyterLab's list of notebooks changed). */
  refresh(): void {
    const servers = [...this._options.servers(), ...this._added];
    const drawn = JSON.stringify(servers.map(s => [s.label, s.url]));
    if (drawn === this._drawn) {
      return;
    }
    this._drawn = drawn;
    const current = this._server?.url ?? '';
    this._picker.replaceChildren(new Option('Choose a server…', ''));
    for (const server of servers) {
      this._picker.append(new Option(server.label, server.url, false, server.url === current));
    }
  }

  /** Show `url`'s apps, and `tool`'s call form if given (what the sidebar's "App" buttons do). */
  async show(url: string, tool?: string): Promise<void> {
    this.refresh();
    this._picker.value = url;
    await this._pick(url, tool);
  }

  /** The page's theme changed. */
  restyle(): void {
    this._app?.restyle();
  }

  dispose(): void {
    void this._app?.close();
    void this._client?.close();
  }

  private async _add(): Promise<void> {
    const url = this._url.value.trim();
    if (!url) {
      return;
    }
    this._added = [...this._added.filter(s => s.url !== url), this._options.address(url, this._token.value.trim())];
    this.refresh();
    await this.show(url);
  }

  private async _pick(url: string, tool?: string): Promise<void> {
    const server = [...this._options.servers(), ...this._added].find(s => s.url === url) ?? null;
    await this._closeApp();
    fill(this._tools);
    fill(this._call);
    void this._client?.close();
    this._client = null;
    this._server = server;
    if (!server) {
      fill(this._status);
      return;
    }
    fill(this._status, muted(`Connecting to ${server.label}…`));
    try {
      const client = await connect(server);
      const tools = appTools((await client.listTools()).tools);
      if (this._server !== server) {
        void client.close();
        return;
      }
      this._client = client;
      fill(
        this._status,
        muted(tools.length ? `${tools.length} tool(s) with an app` : 'No tool of this server has an app.')
      );
      fill(this._tools, ...tools.map(t => this._toolButton(t)));
      const wanted = tools.find(t => t.name === tool);
      if (wanted) {
        this._form(wanted);
      } else if (tool) {
        fill(this._call, muted(`${tool} has no MCP App here (app=False, or the notebook's apps setting is off).`));
      }
    } catch (error) {
      fill(this._status, h('div', 'jmcp-error', `Could not list ${server.label}'s tools: ${String(error)}`));
    }
  }

  private _toolButton(tool: Tool): HTMLElement {
    const node = button(tool.title ? `${tool.name} · ${tool.title}` : tool.name, 'default', () => this._form(tool));
    node.dataset.tool = tool.name;
    return node;
  }

  private _form(tool: Tool): void {
    const form = new SchemaForm(tool.inputSchema, { empty: 'No parameters.' });
    const call = button(
      'Call',
      'accept',
      () => {
        const values = form.read();
        if (values) {
          void this._open(tool, values);
        }
      },
      'Call the tool and show its app, as a chat client would'
    );
    const about = tool.description ? h('div', 'jmcp-description', tool.description) : null;
    fill(this._call, heading(tool.name), about, form.node, h('div', 'jmcp-actions', call), form.error);
    void this._closeApp();
  }

  private async _open(tool: Tool, args: { [name: string]: unknown }): Promise<void> {
    const client = this._client;
    if (!client) {
      return;
    }
    await this._closeApp();
    const app = new AppFrame(client, tool, pageContext);
    this._app = app;
    fill(this._stage, app.frame);
    try {
      await app.open();
      await app.run(args);
    } catch (error) {
      this._stage.append(h('div', 'jmcp-error', `The app could not run: ${String(error)}`));
    }
  }

  private async _closeApp(): Promise<void> {
    const app = this._app;
    this._app = null;
    fill(this._stage);
    await app?.close();
  }

  private _picker = h('select', 'jmcp-input jp-MCP-apps-picker');
  private _url = h('input', 'jmcp-input jp-MCP-apps-url');
  private _token = h('input', 'jmcp-input jp-MCP-apps-token');
  private _status = h('div', 'jp-MCP-apps-status');
  private _tools = h('div', 'jp-MCP-apps-tools');
  private _call = h('div', 'jp-MCP-apps-call');
  private _stage = h('div', 'jp-MCP-apps-stage');
  private _added: IServerAddress[] = [];
  private _server: IServerAddress | null = null;
  private _client: Client | null = null;
  private _app: AppFrame | null = null;
  private _drawn = '';
}
