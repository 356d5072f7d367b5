import { Poll } from '@lumino/polling';
import { ISignal, Signal } from '@lumino/signaling';

import { requestAPI } from './request';
import { IMCPServers } from './tokens';
import { IAgentEntry, INotebookToolsReply, IServerEntry, NotebookToolsConfirm, NotebookToolsMode } from './types';
import { button, group, h, muted, plural, SEPARATOR } from './ui';

const INTERVAL_MS = 1000;
const MODES: ReadonlyArray<[NotebookToolsMode, string]> = [
  ['off', 'nothing'],
  ['read', 'read'],
  ['edit', 'read, edit'],
  ['run', 'read, edit, run']
];
const CONFIRMS: ReadonlyArray<[NotebookToolsConfirm, string]> = [
  ['edits_and_runs', 'edits and runs'],
  ['runs', 'runs only'],
  ['never', 'never']
];

/** The notebook tools' settings and the agents at work (`/api/mcp/notebook-tools`), polled. */
export class NotebookToolsModel {
  constructor() {
    this._poll = new Poll({
      factory: () => this._fetch(),
      frequency: { interval: INTERVAL_MS, backoff: true, max: 60 * 1000 },
      standby: 'when-hidden',
      name: 'jupyter-mcp:notebook-tools'
    });
  }

  get state(): INotebookToolsReply | null {
    return this._state;
  }

  get changed(): ISignal<NotebookToolsModel, void> {
    return this._changed;
  }

  /** Switch what agents may do, or which of their calls wait for approval. */
  async set(change: { mode?: NotebookToolsMode; confirm?: NotebookToolsConfirm }): Promise<void> {
    this._accept(
      await requestAPI<INotebookToolsReply>('notebook-tools', {}, { method: 'POST', body: JSON.stringify(change) })
    );
  }

  /** Take back an agent's last edit of a notebook (and only its own). */
  async undo(agent: IAgentEntry): Promise<void> {
    const body = JSON.stringify({ agent: agent.name, notebook: agent.notebook_path });
    this._accept(await requestAPI<INotebookToolsReply>('notebook-tools/undo', {}, { method: 'POST', body }));
  }

  dispose(): void {
    this._poll.dispose();
  }

  private async _fetch(): Promise<void> {
    this._accept(await requestAPI<INotebookToolsReply>('notebook-tools'));
  }

  private _accept(state: INotebookToolsReply): void {
    if (JSON.stringify(state) !== JSON.stringify(this._state)) {
      this._state = state;
      this._changed.emit();
    }
  }

  private _poll: Poll;
  private _state: INotebookToolsReply | null = null;
  private _changed = new Signal<NotebookToolsModel, void>(this);
}

/** The notebook tools' own entry among the servers (its waiting calls), if they are on. */
export function notebookToolsServer(servers: IMCPServers): IServerEntry | undefined {
  return servers.servers.find(server => server.transport === 'server');
}

/** The kernels' tool servers (the notebooks' own tools), without the notebook tools' entry. */
export function kernelServers(servers: IMCPServers): IServerEntry[] {
  return servers.servers.filter(server => server.transport !== 'server');
}

/**
 * "Agents in notebooks": what MCP clients of `<base_url>/mcp` may do in the notebooks (two switches),
 * their calls waiting for approval (`waiting`: the panel's controls, with the edit's diff or the run's
 * code), and each agent at work in a notebook with its "Undo last edit". Drawn with the component set.
 */
export function agentsSection(
  state: INotebookToolsReply,
  model: NotebookToolsModel,
  waiting: HTMLElement | null
): HTMLElement {
  const section = h('section', 'jp-MCP-agents');
  section.setAttribute('aria-label', 'Agents in notebooks: what MCP clients may do in your notebooks');
  const working = new Set(state.agents.map(agent => agent.name)).size;
  const facts = [plural(working, 'agent'), plural(new Set(state.agents.map(a => a.notebook_path)).size, 'notebook')];
  section.append(
    h('div', 'jp-MCP-agents-title', 'Agents in notebooks'),
    h('div', 'jp-MCP-agents-facts jmcp-muted', facts.join(SEPARATOR)),
    switches(state, model)
  );
  if (!state.collaboration && state.mode !== 'off' && state.mode !== 'read') {
    section.append(
      h(
        'div',
        'jp-MCP-agents-warning',
        'Real-time collaboration is off: agents can read notebooks but not edit or run them (install jupyter-collaboration).'
      )
    );
  }
  if (waiting !== null) {
    section.append(waiting);
  }
  if (state.agents.length > 0) {
    section.append(
      group(
        'At work',
        'jp-MCP-agents-list',
        state.agents.map(agent => agentItem(agent, model))
      )
    );
  } else if (state.mode !== 'off') {
    section.append(muted('No agent has worked in a notebook yet.', 'jp-MCP-agents-none'));
  }
  return section;
}

function switches(state: INotebookToolsReply, model: NotebookToolsModel): HTMLElement {
  const mode = choice('Agents may', MODES, state.mode, value => void model.set({ mode: value }));
  const confirm = choice('Ask me before', CONFIRMS, state.confirm, value => void model.set({ confirm: value }));
  return h('div', 'jp-MCP-agents-switches', ...mode, ...confirm);
}

function choice<T extends string>(
  label: string,
  options: ReadonlyArray<[T, string]>,
  current: T,
  change: (value: T) => void
): HTMLElement[] {
  const select = h('select', 'jp-MCP-agents-select');
  for (const [value, text] of options) {
    const option = h('option', '', text);
    option.value = value;
    option.selected = value === current;
    select.append(option);
  }
  const id = `jp-MCP-agents-${label.replace(/\W+/g, '-').toLowerCase()}`;
  select.id = id;
  select.addEventListener('change', () => change(select.value as T));
  const caption = h('label', 'jp-MCP-agents-label', label);
  caption.htmlFor = id;
  return [caption, select];
}

function agentItem(agent: IAgentEntry, model: NotebookToolsModel): HTMLElement {
  const undo = button(
    'Undo last edit',
    'default',
    node => {
      node.disabled = true;
      void model.undo(agent).catch(() => (node.disabled = false));
    },
    `Take back ${agent.name}'s last change to ${agent.notebook_path} (your own edits stay)`
  );
  undo.disabled = agent.edits === 0;
  const line = h(
    'div',
    'jmcp-item-line',
    h('span', 'jp-MCP-agent-name', agent.name),
    muted(`in ${agent.notebook_path}`),
    muted(plural(agent.edits, 'edit')),
    undo
  );
  const item = h('li', 'jmcp-item jp-MCP-agent', line);
  item.dataset.agent = agent.name;
  item.dataset.notebook = agent.notebook_path;
  return item;
}
