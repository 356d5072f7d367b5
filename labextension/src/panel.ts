import { Clipboard } from '@jupyterlab/apputils';
import { PathExt } from '@jupyterlab/coreutils';
import { Widget } from '@lumino/widgets';

import { agentsSection, kernelServers, NotebookToolsModel, notebookToolsServer } from './agents';
import { IMCPServers } from './tokens';
import { unionSection } from './union';
import { ClientKind, IConfigReply, IServerEntry, IToolEntry } from './types';
import {
  ApprovalControl,
  button,
  carrierLine,
  clientItem,
  Controls,
  group,
  h,
  pausable,
  pauseButton,
  promptItem,
  QuestionControl,
  resourceItem,
  serverFacts,
  toolItem,
  uniqueClients,
  waitingBox
} from './ui';

const CLIENTS: ReadonlyArray<[ClientKind, string, string]> = [
  ['claude', 'Claude', 'Claude Desktop: runs `jupyter-mcp connect --url …` by absolute path, the token in its env'],
  ['vscode', 'VS Code', 'VS Code: an HTTP server entry with the Jupyter token header'],
  ['cursor', 'Cursor', 'Cursor: an HTTP server entry with the Jupyter token header'],
  ['inspector', 'Inspector', 'MCP Inspector: a command line that lists the tools']
];

/**
 * The "MCP Tools" sidebar: every notebook that serves tools, with its waiting calls and questions, its
 * tools, resources, prompts and clients, and config buttons; drawn with the component set (`./ui`).
 */
export class ToolsPanel extends Widget {
  /** `openApp`: show a tool's MCP App (the "App" button beside each enabled tool). */
  constructor(
    private readonly _servers: IMCPServers,
    private readonly _openApp?: (server: IServerEntry, tool: IToolEntry) => unknown,
    private readonly _agents?: NotebookToolsModel
  ) {
    super();
    this.addClass('jp-MCP-panel');
    this.addClass('jmcp');
    this.title.caption = 'MCP Tools';
    this._servers.changed.connect(this._render, this);
    this._agents?.changed.connect(this._render, this);
    this._render();
  }

  /** A section another feature draws and updates (Connected apps), kept after the notebooks. */
  addSection(section: HTMLElement): void {
    this._sections.push(section);
    this.node.append(section);
  }

  dispose(): void {
    this._servers.changed.disconnect(this._render, this);
    this._agents?.changed.disconnect(this._render, this);
    super.dispose();
  }

  private _render(): void {
    const servers = kernelServers(this._servers);
    const agents = this._agents?.state ?? null;
    // The poll answers every second: redraw only what changed (a selection or a hover survives).
    const drawn = JSON.stringify([this._servers.servers, this._servers.error, this._servers.union, agents]);
    if (drawn === this._drawn) {
      return;
    }
    this._drawn = drawn;
    const body = h('div', 'jp-MCP-body', this._header());
    if (agents !== null && this._agents !== undefined) {
      const own = notebookToolsServer(this._servers);
      body.append(agentsSection(agents, this._agents, own ? this._waiting(own) : null));
    }
    if (this._servers.error !== null) {
      body.append(h('p', 'jmcp-error', `Could not list tool servers: ${this._servers.error}`));
    } else if (servers.length === 0) {
      body.append(h('p', 'jmcp-muted', 'No notebook serves tools yet: run a %%mcp_tool cell.'));
    }
    const focused = document.activeElement;
    const union = this._servers.union;
    if (union !== null && servers.length > 0) {
      // "All notebooks" first: one config for every notebook's tools.
      const copy = this._copyButtons(kind => this._servers.unionConfig(kind));
      const limit = (client: string, readOnly: boolean): void => void this._servers.limitEverywhere(client, readOnly);
      body.append(unionSection(union, limit, copy));
    }
    body.append(...servers.map(server => this._server(server)));
    this.node.replaceChildren(body, ...this._sections);
    if (focused instanceof HTMLElement && body.contains(focused)) {
      focused.focus(); // a reason or an answer being typed survives the once-a-second refresh
    }
  }

  private _header(): HTMLElement {
    const refresh = button('Refresh', 'default', () => void this._servers.refresh(), 'Ask the kernels again now');
    return h('div', 'jp-MCP-header', h('h2', 'jp-MCP-heading', 'MCP Tools'), refresh);
  }

  private _server(server: IServerEntry): HTMLElement {
    const section = h('section', 'jp-MCP-server');
    section.dataset.kernelId = server.kernel_id;
    const path = server.notebook_path;
    const title = h('div', 'jp-MCP-server-title', path ? PathExt.basename(path) : `kernel ${server.kernel_id}`);
    title.title = path ?? server.kernel_id;
    section.append(title, h('div', 'jp-MCP-server-facts jmcp-muted', serverFacts(server)), carrierLine(server));
    if (pausable(server)) {
      const pause = pauseButton(server.paused, () => void this._servers.setPaused(server, !server.paused));
      const row = h('div', server.paused ? 'jp-MCP-pause jp-mod-paused' : 'jp-MCP-pause');
      if (server.paused) {
        row.append(h('span', 'jp-MCP-paused jmcp-error', 'Paused: client calls are refused'));
      }
      row.append(pause);
      section.append(row);
    }
    section.append(this._waiting(server) ?? '');
    if (server.tools.length > 0) {
      section.append(
        group(
          'Tools',
          'jp-MCP-tools',
          server.tools.map(tool => this._tool(server, tool))
        )
      );
    }
    if (server.resources.length > 0) {
      section.append(group('Resources', 'jp-MCP-resources', server.resources.map(resourceItem)));
    }
    if (server.prompts.length > 0) {
      section.append(group('Prompts', 'jp-MCP-prompts', server.prompts.map(promptItem)));
    }
    const clients = uniqueClients(server.clients);
    if (clients.length > 0) {
      const items = clients.map(client =>
        clientItem(
          client,
          server.read_only_clients.includes(client.name),
          readOnly => void this._servers.limitClient(server, client.name, readOnly)
        )
      );
      section.append(group('Clients', 'jp-MCP-clients', items));
    }
    section.append(this._copyButtons(kind => this._servers.config(kind, server)));
    return section;
  }

  private _tool(server: IServerEntry, tool: IToolEntry): HTMLElement {
    const node = toolItem(tool);
    const open = this._openApp;
    if (open && tool.enabled) {
      const app = button('App', 'default', () => void open(server, tool), `Call ${tool.name} and see its MCP App`);
      app.dataset.app = tool.name;
      node.querySelector('.jmcp-item-line')?.append(app);
    }
    return node;
  }

  /** The server's waiting calls and questions; a control still waiting keeps what is typed in it. */
  private _waiting(server: IServerEntry): HTMLElement | null {
    const approvals = this._controls(server).approvals.update(server.pending.map(p => p.id));
    const questions = this._controls(server).questions.update(server.questions.map(q => q.id));
    return waitingBox(approvals, questions);
  }

  private _controls(server: IServerEntry): IServerControls {
    let controls = this._byKernel.get(server.kernel_id);
    if (!controls) {
      const find = (): IServerEntry => this._servers.servers.find(s => s.kernel_id === server.kernel_id) ?? server;
      controls = {
        approvals: new Controls(id => {
          const pending = find().pending.find(p => p.id === id)!;
          return new ApprovalControl(pending, {
            allow: minutes => this._servers.answer(find(), pending, { decision: 'allow', minutes }),
            deny: reason => this._servers.answer(find(), pending, { decision: 'deny', ...(reason ? { reason } : {}) })
          });
        }),
        questions: new Controls(id => {
          const question = find().questions.find(q => q.id === id)!;
          return new QuestionControl(question, {
            answer: content => this._servers.reply(find(), question, { action: 'accept', content }),
            decline: () => this._servers.reply(find(), question, { action: 'decline' })
          });
        })
      };
      this._byKernel.set(server.kernel_id, controls);
    }
    return controls;
  }

  private _copyButtons(config: (kind: ClientKind) => Promise<IConfigReply>): HTMLElement {
    const row = h('div', 'jp-MCP-copy', h('span', 'jp-MCP-copy-label jmcp-muted', 'Copy config:'));
    for (const [kind, label, caption] of CLIENTS) {
      const copy = button(
        label,
        'default',
        node => void this._copy(config(kind), node),
        `Copy the config for ${caption}`
      );
      copy.dataset.client = kind;
      row.append(copy);
    }
    return row;
  }

  private async _copy(config: Promise<IConfigReply>, source: HTMLButtonElement): Promise<void> {
    const label = source.textContent ?? '';
    try {
      Clipboard.copyToSystem(configText(await config));
      source.textContent = 'Copied';
    } catch (reason) {
      source.textContent = 'Failed';
      console.error('jupyter-mcp: could not build the client config', reason);
    }
    window.setTimeout(() => (source.textContent = label), 1500);
  }

  private _byKernel = new Map<string, IServerControls>();
  private _drawn = '';
  private readonly _sections: HTMLElement[] = [];
}

interface IServerControls {
  approvals: Controls<ApprovalControl>;
  questions: Controls<QuestionControl>;
}

function configText(reply: IConfigReply): string {
  const command = reply.config['command'];
  return reply.client === 'inspector' && typeof command === 'string' ? command : JSON.stringify(reply.config, null, 2);
}
