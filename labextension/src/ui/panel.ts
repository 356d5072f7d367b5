/**
 * The server panel (`%mcp`, `server.panel()`): the server's address and counts with the pause
 * switch, waiting approvals and questions, the connection (endpoint, token, clients, client configs),
 * the tools, resources and prompts with their counters, and the call history with a call's detail.
 */
import { ApprovalControl, Controls, QuestionControl, waitingBox } from './approvals';
import { callDetail, callList } from './calls';
import { button, copyButton } from './controls';
import { fill, h, heading, muted, richText, uriCode } from './dom';
import { keepDots } from './format';
import { ICallDetail, IClientRow, IComponentRow, IConnection, IHeader, IHistory, IPanelState } from './shapes';

export interface IPanelHandlers {
  pause(paused: boolean): void;
  enable(kind: string, key: string, enabled: boolean): void;
  limit(client: string, readOnly: boolean): void;
  reveal(revealed: boolean): void;
  pickClient(client: string): void;
  filter(change: { kind?: string; tool?: string; status?: string }): void;
  more(): void;
  clear(): void;
  select(id: string | null): void;
  keep(id: string): void;
  allow(id: string, minutes?: number): void;
  deny(id: string, reason: string): void;
  answer(id: string, values: { [key: string]: unknown }): void;
  decline(id: string): void;
}

const KINDS: ReadonlyArray<[string, string, string]> = [
  ['tool', 'Tools', 'No tools yet: mark a function with %%mcp_tool.'],
  ['resource', 'Resources', 'No resources yet: %%mcp_resource URI serves a function, a cell or a variable.'],
  ['prompt', 'Prompts', 'No prompts yet: mark a function with %%mcp_prompt.']
];

function section(title: string, body: HTMLElement, open = true): HTMLDetailsElement {
  const node = h('details', 'jmcp-section', h('summary', 'jmcp-section-title', title), body);
  node.open = open;
  return node;
}

export class PanelView {
  constructor(private readonly _handlers: IPanelHandlers) {
    this.node = h('div', 'jmcp jmcp-panel');
    this._sections = {
      connection: section('Connection', this._connection),
      tool: section('Tools', this._tables.tool),
      resource: section('Resources', this._tables.resource),
      prompt: section('Prompts', this._tables.prompt),
      history: section('Call history', this._history)
    };
    this.node.append(this._header, this._waiting, ...Object.values(this._sections));
    this._approvals = new Controls(id => {
      const pending = this._state!.pending.find(p => p.id === id)!;
      return new ApprovalControl(pending, {
        allow: minutes => this._handlers.allow(id, minutes),
        deny: reason => this._handlers.deny(id, reason)
      });
    });
    this._questions = new Controls(id => {
      const question = this._state!.questions.find(q => q.id === id)!;
      return new QuestionControl(question, {
        answer: values => this._handlers.answer(id, values),
        decline: () => this._handlers.decline(id)
      });
    });
  }

  readonly node: HTMLDivElement;

  update(state: IPanelState): void {
    this._state = state;
    this._redraw('header', state.header, () => fill(this._header, ...this._headerParts(state.header)));
    this._redraw('waiting', [state.pending, state.questions], () => {
      const box = waitingBox(
        this._approvals.update(state.pending.map(p => p.id)),
        this._questions.update(state.questions.map(q => q.id))
      );
      fill(this._waiting, box);
    });
    this._redraw('connection', [state.connection, state.clients], () =>
      fill(this._connection, ...this._connectionParts(state.connection, state.clients))
    );
    for (const [kind, title, empty] of KINDS) {
      const rows = state.components[kind] ?? [];
      this._redraw(kind, rows, () => {
        this._sections[kind].querySelector('summary')!.textContent = `${title} (${rows.length})`;
        fill(this._tables[kind], rows.length > 0 ? componentsTable(kind, rows, this._handlers) : muted(empty));
      });
    }
    this._redraw('history', [state.history, state.detail], () => this._drawHistory(state.history, state.detail));
  }

  private _redraw(part: string, data: unknown, draw: () => void): void {
    const key = JSON.stringify(data);
    if (this._drawn.get(part) !== key) {
      this._drawn.set(part, key);
      draw();
    }
  }

  private _headerParts(header: IHeader): Node[] {
    const dot = h('span', header.url || header.channel ? 'jmcp-dot jmcp-dot-on' : 'jmcp-dot');
    const where = header.url
      ? h('span', '', 'running at ', uriCode(header.url, 'jmcp-url'))
      : header.channel
        ? h('span', '', "running over the kernel's channel")
        : muted('not running');
    const title = h('div', 'jmcp-panel-title', dot, h('b', '', 'MCP server'), ' ', where);
    if (header.paused) {
      title.append(' ', h('span', 'jmcp-badge jmcp-badge-paused', 'paused'));
    }
    const line = h(
      'div',
      'jmcp-panel-head',
      h('div', 'jmcp-panel-facts', title, muted(keepDots(header.counts), 'jmcp-counts'))
    );
    if (header.pausable || header.paused) {
      const pause = button(
        header.paused ? 'Resume tools' : 'Pause all tools',
        header.paused ? 'accept' : 'default',
        () => this._handlers.pause(!header.paused),
        header.paused ? 'Serve client calls again' : 'Refuse every client call and cancel the running ones'
      );
      pause.setAttribute('aria-pressed', String(header.paused));
      line.append(pause);
    }
    const parts: Node[] = [line];
    if (header.paused) {
      parts.push(h('div', 'jmcp-paused-note', 'Paused: client calls of tools are refused until you resume.'));
    }
    return parts;
  }

  private _connectionParts(connection: IConnection, clients: IClientRow[]): Node[] {
    if (!connection.url) {
      return [muted('Not serving: run %mcp start (or define a tool).')];
    }
    const reveal = button(
      connection.revealed ? 'Hide' : 'Reveal',
      'default',
      () => this._handlers.reveal(!connection.revealed),
      'Show the token and the copy buttons'
    );
    const token = connection.channel
      ? muted("the Jupyter server's token")
      : h('span', 'jmcp-token', h('code', '', connection.token ?? '••••••••••••'), reveal);
    if (connection.token) {
      token.append(copyButton(() => connection.token ?? ''));
    }
    // Plain elements, not <dl>: a host page's own definition-list styles must not reach in.
    const endpoint = h(
      'div',
      'jmcp-endpoint',
      h('span', 'jmcp-endpoint-label', 'endpoint'),
      h(
        'div',
        'jmcp-endpoint-value',
        uriCode(connection.url, 'jmcp-url'),
        copyButton(() => connection.url ?? '')
      ),
      h('span', 'jmcp-endpoint-label', 'token'),
      h('div', 'jmcp-endpoint-value', token)
    );
    const channel = connection.channel ? [h('div', 'jmcp-where', richText(connection.channel, 'jmcp-muted'))] : [];
    return [
      endpoint,
      ...channel,
      heading('Clients'),
      clientsTable(clients, this._handlers),
      ...this._configParts(connection)
    ];
  }

  private _configParts(connection: IConnection): Node[] {
    const picker = h('div', 'jmcp-segmented');
    picker.setAttribute('role', 'radiogroup');
    picker.setAttribute('aria-label', 'client');
    for (const [label, kind] of connection.choices) {
      const choice = button(label, kind === connection.client ? 'accept' : 'default', () =>
        this._handlers.pickClient(kind)
      );
      choice.setAttribute('role', 'radio');
      choice.setAttribute('aria-checked', String(kind === connection.client));
      picker.append(choice);
    }
    const config = h('pre', 'jmcp-pre jmcp-config', connection.config);
    const action =
      connection.copy !== null
        ? copyButton(
            () => connection.copy ?? '',
            () => config
          )
        : muted('Reveal the token to copy');
    return [
      heading('Client configuration'),
      picker,
      h('div', 'jmcp-where', richText(connection.where, 'jmcp-muted')),
      config,
      h('div', 'jmcp-actions', action)
    ];
  }

  private _drawHistory(history: IHistory, detail: ICallDetail | null): void {
    this._sections.history.querySelector('summary')!.textContent =
      `Call history (${history.total.toLocaleString('en-US')})`;
    const bar = h('div', 'jmcp-toolbar');
    const pick = (
      label: string,
      value: string,
      options: Array<[string, string]>,
      change: (value: string) => void
    ): HTMLElement => {
      const select = h('select', 'jmcp-input');
      select.setAttribute('aria-label', label);
      options.forEach(([text, v]) => select.append(new Option(text, v, false, v === value)));
      select.addEventListener('change', () => change(select.value));
      return h('label', 'jmcp-filter', h('span', 'jmcp-muted', label), select);
    };
    bar.append(
      pick(
        'kind',
        history.kind,
        [
          ['all kinds', ''],
          ['tools', 'tool'],
          ['resources', 'resource'],
          ['prompts', 'prompt']
        ],
        kind => this._handlers.filter({ kind })
      ),
      pick('name', history.tool, [['all names', ''], ...history.names.map((n): [string, string] => [n, n])], tool =>
        this._handlers.filter({ tool })
      ),
      pick(
        'status',
        history.status,
        [['any status', ''], ...history.statuses.map((s): [string, string] => [s, s])],
        status => this._handlers.filter({ status })
      ),
      button('Clear', 'default', () => this._handlers.clear(), 'Forget the finished calls'),
      muted(history.shown, 'jmcp-shown-count')
    );
    const list = callList(history.rows, {
      selected: history.selected,
      onSelect: id => this._handlers.select(id === history.selected ? null : id),
      empty: 'No calls yet.'
    });
    const parts: Node[] = [bar, list];
    if (history.more) {
      parts.push(
        h(
          'div',
          'jmcp-actions',
          button('Show more', 'default', () => this._handlers.more(), 'List more calls')
        )
      );
    }
    if (detail) {
      const id = detail.row.id;
      parts.push(callDetail(detail, { onKeep: () => this._handlers.keep(id) }));
    }
    fill(this._history, ...parts);
  }

  private _state: IPanelState | null = null;
  private _drawn = new Map<string, string>();
  private _header = h('div', 'jmcp-header');
  private _waiting = h('div', 'jmcp-waiting-slot');
  private _connection = h('div', 'jmcp-connection');
  private _history = h('div', 'jmcp-history');
  private _tables: { [kind: string]: HTMLElement } = { tool: h('div'), resource: h('div'), prompt: h('div') };
  private _sections: { [name: string]: HTMLDetailsElement };
  private _approvals: Controls<ApprovalControl>;
  private _questions: Controls<QuestionControl>;
}

const TABLE_HEAD: { [kind: string]: [string, string, string] } = {
  tool: ['tool', '', 'calls'],
  resource: ['resource', 'MIME type', 'reads'],
  prompt: ['prompt', 'arguments', 'uses']
};

/** The panel's table of tools (resources, prompts): counters and a "served" box per row. */
export function componentsTable(
  kind: string,
  rows: IComponentRow[],
  handlers: Pick<IPanelHandlers, 'enable'>
): HTMLElement {
  const [name, detail, calls] = TABLE_HEAD[kind];
  const columns: Array<[string, string]> = [
    [name, ''],
    ...(kind === 'tool' ? [] : ([[detail, 'jmcp-col-wide']] as Array<[string, string]>)),
    [calls, 'jmcp-num'],
    ['errors', 'jmcp-num'],
    ...(kind === 'tool' ? ([['refused', 'jmcp-num jmcp-col-wide']] as Array<[string, string]>) : []),
    ['running', 'jmcp-num jmcp-col-wide'],
    ['mean', 'jmcp-num jmcp-col-wide'],
    ['served', 'jmcp-center']
  ];
  const head = h('tr', '', ...columns.map(([label, cls]) => h('th', cls, label)));
  const body = rows.map(row => {
    const served = h('input', 'jmcp-checkbox');
    served.type = 'checkbox';
    served.checked = row.enabled;
    served.setAttribute('aria-label', `serve ${row.key}`);
    served.addEventListener('change', () => handlers.enable(kind, row.key, served.checked));
    const cells: Array<[Node | string, string]> = [
      [uriCode(row.key, 'jmcp-key'), 'jmcp-key-cell'],
      ...(kind === 'tool' ? [] : ([[row.detail, 'jmcp-muted jmcp-col-wide']] as Array<[string, string]>)),
      [String(row.calls), 'jmcp-num'],
      [String(row.errors), row.errors ? 'jmcp-num jmcp-error' : 'jmcp-num'],
      ...(kind === 'tool' ? ([[String(row.refused), 'jmcp-num jmcp-col-wide']] as Array<[string, string]>) : []),
      [row.running ? String(row.running) : '', 'jmcp-num jmcp-col-wide'],
      [row.mean_duration, 'jmcp-num jmcp-col-wide'],
      [served, 'jmcp-center']
    ];
    const tr = h('tr', row.enabled ? '' : 'jmcp-off', ...cells.map(([content, cls]) => h('td', cls, content)));
    tr.dataset.key = row.key;
    return tr;
  });
  const table = h('table', 'jmcp-table jmcp-components', h('thead', '', head), h('tbody', '', ...body));
  return h('div', 'jmcp-scroll', table);
}

/** Connected clients, one row per client (several sessions of one client are one row), each with its read-only box. */
export function clientsTable(rows: IClientRow[], handlers: Pick<IPanelHandlers, 'limit'>): HTMLElement {
  if (rows.length === 0) {
    return muted('No clients connected yet.');
  }
  const head = h(
    'tr',
    '',
    ...[
      ['client', ''],
      ['version', 'jmcp-col-wide'],
      ['protocol', 'jmcp-col-wide'],
      ['connection', 'jmcp-col-wide'],
      ['since', ''],
      ['read-only', 'jmcp-center']
    ].map(([label, cls]) => h('th', cls, label))
  );
  const body = rows.map(row => {
    const limit = h('input', 'jmcp-checkbox');
    limit.type = 'checkbox';
    limit.checked = row.read_only;
    limit.disabled = !row.name;
    limit.setAttribute('aria-label', `${row.name}: read-only tools only`);
    limit.title = `Let ${row.name} call only the tools marked read-only`;
    limit.addEventListener('change', () => handlers.limit(row.name, limit.checked));
    const name = row.sessions > 1 ? `${row.name} (${row.sessions} sessions)` : row.name || 'unnamed client';
    return h(
      'tr',
      row.read_only ? 'jmcp-limited' : '',
      h('td', '', name),
      h('td', 'jmcp-col-wide', row.version),
      h('td', 'jmcp-col-wide', row.era),
      h('td', 'jmcp-col-wide', row.kind),
      h('td', '', row.since),
      h('td', 'jmcp-center', limit)
    );
  });
  return h('div', 'jmcp-scroll', h('table', 'jmcp-table jmcp-clients', h('thead', '', head), h('tbody', '', ...body)));
}
