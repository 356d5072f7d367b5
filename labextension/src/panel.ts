import { Clipboard } from '@jupyterlab/apputils';
import { PathExt } from '@jupyterlab/coreutils';
import { Widget } from '@lumino/widgets';

import { ALLOW_FOR_MINUTES, pendingText } from './approvals';
import { QuestionForm, questionText } from './questions';
import { IMCPServers, IQuestionReply } from './tokens';
import {
  ClientKind,
  IClientEntry,
  IConfigReply,
  IPendingEntry,
  IPromptEntry,
  IQuestionEntry,
  IResourceEntry,
  IServerEntry,
  IToolEntry
} from './types';

const CLIENTS: ReadonlyArray<[ClientKind, string, string]> = [
  ['claude', 'Claude', 'Claude Desktop: runs `jupyter-mcp connect --url …` by absolute path, the token in its env'],
  ['vscode', 'VS Code', 'VS Code: an HTTP server entry with the Jupyter token header'],
  ['cursor', 'Cursor', 'Cursor: an HTTP server entry with the Jupyter token header'],
  ['inspector', 'Inspector', 'MCP Inspector: a command line that lists the tools']
];

/**
 * The "MCP Tools" sidebar: every notebook that serves tools, its tools, resources, prompts, clients and
 * config buttons.
 */
export class ToolsPanel extends Widget {
  constructor(private readonly _servers: IMCPServers) {
    super();
    this.addClass('jp-MCP-panel');
    this.title.caption = 'MCP Tools';
    this._servers.changed.connect(this._render, this);
    this._render();
  }

  dispose(): void {
    this._servers.changed.disconnect(this._render, this);
    super.dispose();
  }

  private _render(): void {
    const body = element('div', 'jp-MCP-body');
    body.append(this._header());
    const servers = this._servers.servers;
    if (this._servers.error !== null) {
      body.append(element('p', 'jp-MCP-error', `Could not list tool servers: ${this._servers.error}`));
    } else if (servers.length === 0) {
      body.append(element('p', 'jp-MCP-empty', 'No notebook serves tools yet: run a %%mcp_tool cell.'));
    }
    const focused = document.activeElement;
    for (const server of servers) {
      body.append(this._server(server));
    }
    this.node.replaceChildren(body);
    if ((focused instanceof HTMLInputElement || focused instanceof HTMLSelectElement) && body.contains(focused)) {
      focused.focus(); // a reason or an answer being typed survives the once-a-second refresh
    }
    forget(
      this._reasons,
      servers.flatMap(server => server.pending.map(pending => pending.id))
    );
    forget(
      this._forms,
      servers.flatMap(server => server.questions.map(question => question.id))
    );
  }

  private _header(): HTMLElement {
    const header = element('div', 'jp-MCP-header');
    header.append(element('h2', 'jp-MCP-heading', 'MCP Tools'));
    const refresh = button('Refresh', 'jp-MCP-refresh');
    refresh.addEventListener('click', () => void this._servers.refresh());
    header.append(refresh);
    return header;
  }

  private _server(server: IServerEntry): HTMLElement {
    const section = element('section', 'jp-MCP-server');
    section.dataset.kernelId = server.kernel_id;
    const path = server.notebook_path;
    const title = element('div', 'jp-MCP-server-title', path ? PathExt.basename(path) : `kernel ${server.kernel_id}`);
    title.title = path ?? server.kernel_id;
    section.append(title);
    const facts = [
      plural(server.tools.length, 'tool'),
      ...(server.resources.length > 0 ? [plural(server.resources.length, 'resource')] : []),
      ...(server.prompts.length > 0 ? [plural(server.prompts.length, 'prompt')] : []),
      plural(server.clients.length, 'client'),
      plural(server.calls, 'call')
    ].join(' · ');
    section.append(element('div', 'jp-MCP-server-facts', server.live ? facts : `${facts} · not answering`));
    section.append(carrier(server));
    section.append(this._pauseSwitch(server));
    if (server.pending.length > 0) {
      section.append(this._pendingList(server));
    }
    if (server.questions.length > 0) {
      section.append(this._questionList(server));
    }
    const tools = element('ul', 'jp-MCP-tools');
    for (const tool of server.tools) {
      tools.append(toolItem(tool));
    }
    section.append(tools);
    if (server.resources.length > 0) {
      section.append(group('Resources', 'jp-MCP-resources', server.resources.map(resourceItem)));
    }
    if (server.prompts.length > 0) {
      section.append(group('Prompts', 'jp-MCP-prompts', server.prompts.map(promptItem)));
    }
    if (server.clients.length > 0) {
      section.append(this._clientList(server));
    }
    section.append(this._copyButtons(server));
    return section;
  }

  private _pauseSwitch(server: IServerEntry): HTMLElement {
    const row = element('div', server.paused ? 'jp-MCP-pause jp-mod-paused' : 'jp-MCP-pause');
    if (server.paused) {
      row.append(element('span', 'jp-MCP-paused', 'Paused: client calls are refused'));
    }
    const toggle = button(server.paused ? 'Resume tools' : 'Pause all tools', 'jp-MCP-pause-button');
    toggle.title = server.paused ? 'Serve client calls again' : 'Refuse every client call and cancel running ones';
    toggle.addEventListener('click', () => void this._servers.setPaused(server, !server.paused));
    row.append(toggle);
    return row;
  }

  private _pendingList(server: IServerEntry): HTMLElement {
    const box = element('div', 'jp-MCP-group jp-MCP-pending');
    box.append(element('div', 'jp-MCP-group-title', 'Waiting for your approval'));
    for (const pending of server.pending) {
      box.append(this._pendingItem(server, pending));
    }
    return box;
  }

  private _pendingItem(server: IServerEntry, pending: IPendingEntry): HTMLElement {
    const item = element('div', 'jp-MCP-pending-item');
    item.dataset.callId = pending.id;
    item.append(element('div', 'jp-MCP-pending-text', pendingText(pending)));
    const reason = this._reasons.get(pending.id) ?? element('input', 'jp-MCP-pending-reason');
    reason.placeholder = 'reason (the client sees it)';
    this._reasons.set(pending.id, reason);
    const answer = (decision: 'allow' | 'deny', minutes?: number): void => {
      const given = decision === 'deny' && reason.value ? { reason: reason.value } : {};
      void this._servers.answer(server, pending, { decision, minutes, ...given });
    };
    const allow = button('Allow', 'jp-MCP-allow');
    allow.addEventListener('click', () => answer('allow'));
    const allowFor = button(`Allow ${ALLOW_FOR_MINUTES} min`, 'jp-MCP-allow-for');
    allowFor.title = `Also run this client's next calls for ${ALLOW_FOR_MINUTES} minutes without asking`;
    allowFor.addEventListener('click', () => answer('allow', ALLOW_FOR_MINUTES));
    const deny = button('Deny', 'jp-MCP-deny');
    deny.addEventListener('click', () => answer('deny'));
    const row = element('div', 'jp-MCP-pending-actions');
    row.append(allow, allowFor, deny, reason);
    item.append(row);
    return item;
  }

  private _reasons = new Map<string, HTMLInputElement>();

  private _questionList(server: IServerEntry): HTMLElement {
    const box = element('div', 'jp-MCP-group jp-MCP-pending jp-MCP-questions');
    box.append(element('div', 'jp-MCP-group-title', 'Questions for you'));
    for (const question of server.questions) {
      box.append(this._questionItem(server, question));
    }
    return box;
  }

  private _questionItem(server: IServerEntry, question: IQuestionEntry): HTMLElement {
    const item = element('div', 'jp-MCP-question');
    item.dataset.callId = question.id;
    item.setAttribute('role', 'group');
    item.setAttribute('aria-label', questionText(question));
    item.append(element('div', 'jp-MCP-question-text', questionText(question)));
    const form = this._forms.get(question.id) ?? new QuestionForm(question.schema);
    this._forms.set(question.id, form); // what is typed (and a complaint) survives the once-a-second refresh
    const send = button('Send', 'jp-MCP-send');
    send.title = 'Send these values back to the waiting tool';
    send.addEventListener('click', () => {
      try {
        this._reply(server, question, { action: 'accept', content: form.values() }, form);
      } catch (reason) {
        form.error.textContent = reason instanceof Error ? reason.message : String(reason);
      }
    });
    const decline = button('Decline', 'jp-MCP-decline');
    decline.title = 'Tell the tool you would rather not answer';
    decline.addEventListener('click', () => this._reply(server, question, { action: 'decline' }, form));
    const row = element('div', 'jp-MCP-pending-actions');
    row.append(send, decline);
    item.append(form.node, row, form.error);
    return item;
  }

  private _reply(server: IServerEntry, question: IQuestionEntry, reply: IQuestionReply, form: QuestionForm): void {
    this._servers.reply(server, question, reply).catch(reason => {
      form.error.textContent = reason instanceof Error ? reason.message : String(reason);
    });
  }

  private _forms = new Map<string, QuestionForm>();

  private _clientList(server: IServerEntry): HTMLElement {
    const list = element('div', 'jp-MCP-clients');
    list.append(element('span', 'jp-MCP-clients-label', 'Connected:'));
    for (const client of server.clients) {
      list.append(this._clientItem(server, client));
    }
    return list;
  }

  private _clientItem(server: IServerEntry, client: IClientEntry): HTMLElement {
    const name = client.name || 'unnamed client';
    const item = element('span', 'jp-MCP-client-entry');
    item.append(element('span', 'jp-MCP-client', `${name} ${client.version}`.trim()));
    if (client.name) {
      const limited = server.read_only_clients.includes(client.name);
      const label = element('label', limited ? 'jp-MCP-read-only jp-mod-limited' : 'jp-MCP-read-only');
      const box = element('input', 'jp-MCP-read-only-box');
      box.type = 'checkbox';
      box.checked = limited;
      box.setAttribute('aria-label', `${client.name}: read-only tools only`);
      label.title = `Let ${client.name} call only the tools marked read-only`;
      box.addEventListener('change', () => void this._servers.limitClient(server, client.name, box.checked));
      label.append(box, document.createTextNode('read-only'));
      item.append(label);
    }
    return item;
  }

  private _copyButtons(server: IServerEntry): HTMLElement {
    const row = element('div', 'jp-MCP-copy');
    row.append(element('span', 'jp-MCP-copy-label', 'Copy config:'));
    for (const [kind, label, caption] of CLIENTS) {
      const copy = button(label, 'jp-MCP-copy-button');
      copy.dataset.client = kind;
      copy.title = `Copy the config for ${caption}`;
      copy.addEventListener('click', () => void this._copy(kind, server, copy));
      row.append(copy);
    }
    return row;
  }

  private async _copy(kind: ClientKind, server: IServerEntry, source: HTMLButtonElement): Promise<void> {
    const label = source.textContent ?? '';
    try {
      Clipboard.copyToSystem(configText(await this._servers.config(kind, server)));
      source.textContent = 'Copied';
    } catch (reason) {
      source.textContent = 'Failed';
      console.error('jupyter-mcp: could not build the client config', reason);
    }
    window.setTimeout(() => (source.textContent = label), 1500);
  }
}

function configText(reply: IConfigReply): string {
  const command = reply.config['command'];
  return reply.client === 'inspector' && typeof command === 'string' ? command : JSON.stringify(reply.config, null, 2);
}

function toolItem(tool: IToolEntry): HTMLElement {
  return componentItem(tool.name, tool.enabled, [plural(tool.calls, 'call')], tool.title, tool.description);
}

function group(title: string, className: string, items: HTMLElement[]): HTMLElement {
  const box = element('div', `jp-MCP-group ${className}`);
  box.append(element('div', 'jp-MCP-group-title', title));
  const list = element('ul', 'jp-MCP-tools');
  list.append(...items);
  box.append(list);
  return box;
}

function resourceItem(resource: IResourceEntry): HTMLElement {
  const facts = [resource.template ? 'template' : '', resource.mime_type ?? '', plural(resource.calls, 'read')];
  return componentItem(resource.uri, resource.enabled, facts, resource.title, resource.description);
}

function promptItem(prompt: IPromptEntry): HTMLElement {
  const args = prompt.arguments.length > 0 ? `(${prompt.arguments.join(', ')})` : '';
  const facts = [plural(prompt.calls, 'get')];
  return componentItem(`${prompt.name}${args}`, prompt.enabled, facts, prompt.title, prompt.description);
}

function componentItem(
  label: string,
  enabled: boolean,
  facts: string[],
  title: string | null,
  description: string | null
): HTMLElement {
  const item = element('li', enabled ? 'jp-MCP-tool' : 'jp-MCP-tool jp-mod-disabled');
  const line = element('div', 'jp-MCP-tool-line');
  line.append(element('code', 'jp-MCP-tool-name', label));
  if (!enabled) {
    line.append(element('span', 'jp-MCP-badge', 'disabled'));
  }
  line.append(element('span', 'jp-MCP-tool-calls', facts.filter(fact => fact !== '').join(' · ')));
  item.append(line);
  if (title) {
    item.append(element('div', 'jp-MCP-tool-title', title));
  }
  if (description) {
    item.append(element('div', 'jp-MCP-tool-description', description));
  }
  return item;
}

/** Which carrier takes this server's requests: its loopback port, or the kernel's own messaging. */
function carrier(server: IServerEntry): HTMLElement {
  const kernel = server.transport === 'kernel';
  const line = element('div', 'jp-MCP-server-carrier', kernel ? 'via the kernel channel' : 'via loopback HTTP');
  line.title = kernel
    ? "Requests travel over the kernel's own messaging (a gateway's kernel, or JupyterMCP.transport = 'kernel')"
    : "Requests travel to the kernel's port on this machine";
  return line;
}

/** Drop the entries of `kept` whose key is no longer `live`. */
function forget<T>(kept: Map<string, T>, live: string[]): void {
  const current = new Set(live);
  for (const id of kept.keys()) {
    if (!current.has(id)) {
      kept.delete(id);
    }
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function button(text: string, className: string): HTMLButtonElement {
  const node = element('button', `jp-Button jp-mod-styled jp-mod-small ${className}`, text);
  node.type = 'button';
  return node;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}
