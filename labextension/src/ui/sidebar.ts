/**
 * The compact views of a notebook that serves tools, drawn from the REST API's shapes (`types.ts`):
 * the JupyterLab sidebar's sections and the status bar's line.
 */
import { badge, button } from './controls';
import { h, muted, uriCode } from './dom';
import { countsText, plural, SEPARATOR, usesText } from './format';
import { IClientEntry, IPromptEntry, IResourceEntry, IServerEntry, IToolEntry } from '../types';

/** "2 tools · 4 resources · 1 client · 8 calls" (kinds with none left out). */
export function serverFacts(server: IServerEntry): string {
  const facts = countsText({
    tools: server.tools.length,
    resources: server.resources.length,
    prompts: server.prompts.length,
    clients: uniqueClients(server.clients).length,
    calls: server.calls
  });
  return server.live ? facts : `${facts}${SEPARATOR}not answering`;
}

/** Which carrier takes this server's requests: its loopback port, or the kernel's own messaging. */
export function carrierLine(server: IServerEntry): HTMLElement {
  const kernel = server.transport === 'kernel';
  const line = muted(kernel ? 'via the kernel channel' : 'via loopback HTTP', 'jp-MCP-server-carrier');
  line.title = kernel
    ? "Requests travel over the kernel's own messaging (a gateway's kernel, or JupyterMCP.transport = 'kernel')"
    : "Requests travel to the kernel's port on this machine";
  return line;
}

/** Whether the pause switch means anything: it refuses tool calls (reads and prompts go on). */
export function pausable(server: IServerEntry): boolean {
  return server.tools.length > 0 || server.paused;
}

/** The pause switch as a button whose label says what a click does. */
export function pauseButton(paused: boolean, toggle: () => void): HTMLButtonElement {
  const node = button(
    paused ? 'Resume tools' : 'Pause all tools',
    paused ? 'accept' : 'default',
    toggle,
    paused ? 'Serve client calls again' : 'Refuse every client call of a tool and cancel the running ones'
  );
  node.setAttribute('aria-pressed', String(paused));
  return node;
}

/** One client per name and version however many sessions it has open, oldest first. */
export function uniqueClients(clients: ReadonlyArray<IClientEntry>): IClientEntry[] {
  const seen = new Map<string, IClientEntry>();
  for (const client of [...clients].sort((a, b) => a.since - b.since)) {
    const key = `${client.name}\u0000${client.version}`;
    if (!seen.has(key)) {
      seen.set(key, client);
    }
  }
  return [...seen.values()];
}

function item(
  label: string,
  enabled: boolean,
  facts: string,
  title: string | null,
  description: string | null
): HTMLElement {
  const node = h('li', enabled ? 'jmcp-item' : 'jmcp-item jmcp-off');
  const line = h('div', 'jmcp-item-line', uriCode(label, 'jmcp-item-name'));
  if (!enabled) {
    line.append(badge('disabled', 'disabled'));
  }
  line.append(muted(facts, 'jmcp-item-facts'));
  node.append(line);
  if (title) {
    node.append(h('div', 'jmcp-item-title', title));
  }
  if (description) {
    node.append(h('div', 'jmcp-item-description', description));
  }
  return node;
}

export function toolItem(tool: IToolEntry): HTMLElement {
  const facts = [plural(tool.calls, 'call'), tool.errors ? plural(tool.errors, 'error') : '']
    .filter(Boolean)
    .join(SEPARATOR);
  const node = item(tool.name, tool.enabled, facts, tool.title, tool.description);
  node.dataset.kind = 'tool';
  return node;
}

export function resourceItem(resource: IResourceEntry): HTMLElement {
  const facts = [resource.template ? 'template' : '', resource.mime_type ?? '', usesText(resource.calls, 'resource')];
  const node = item(
    resource.uri,
    resource.enabled,
    facts.filter(Boolean).join(SEPARATOR),
    resource.title,
    resource.description
  );
  node.dataset.kind = 'resource';
  return node;
}

export function promptItem(prompt: IPromptEntry): HTMLElement {
  const args = prompt.arguments.length > 0 ? `(${prompt.arguments.join(', ')})` : '';
  const node = item(
    `${prompt.name}${args}`,
    prompt.enabled,
    usesText(prompt.calls, 'prompt'),
    prompt.title,
    prompt.description
  );
  node.dataset.kind = 'prompt';
  return node;
}

/** A titled list (Tools, Resources, Prompts, Clients). */
export function group(title: string, className: string, items: HTMLElement[]): HTMLElement {
  return h('div', `jmcp-group ${className}`, h('div', 'jmcp-group-title', title), h('ul', 'jmcp-list', ...items));
}

/** A connected client with its read-only box (one per client, in connection order). */
export function clientItem(client: IClientEntry, limited: boolean, onLimit: (readOnly: boolean) => void): HTMLElement {
  const name = client.name || 'unnamed client';
  const node = h('li', limited ? 'jmcp-item jmcp-client jmcp-limited' : 'jmcp-item jmcp-client');
  const line = h('div', 'jmcp-item-line', h('span', 'jmcp-client-name', `${name} ${client.version}`.trim()));
  if (client.name) {
    const box = h('input', 'jmcp-checkbox');
    box.type = 'checkbox';
    box.checked = limited;
    box.setAttribute('aria-label', `${client.name}: read-only tools only`);
    box.addEventListener('change', () => onLimit(box.checked));
    const label = h('label', 'jmcp-check jmcp-read-only', box, 'read-only');
    label.title = `Let ${client.name} call only the tools marked read-only`;
    line.append(label);
  }
  node.append(line);
  return node;
}

/** The status bar's words for a notebook: "MCP: 2 tools · 4 resources · 1 client", then what waits. */
export function statusText(
  server: IServerEntry | undefined,
  waitingElsewhere: { pending: number; questions: number }
): string {
  const parts: string[] = [];
  if (server) {
    parts.push(
      countsText({
        tools: server.tools.filter(t => t.enabled).length,
        resources: server.resources.filter(r => r.enabled).length,
        prompts: server.prompts.filter(p => p.enabled).length,
        clients: uniqueClients(server.clients).length
      })
    );
  }
  const pending = (server?.pending.length ?? 0) + waitingElsewhere.pending;
  const questions = (server?.questions.length ?? 0) + waitingElsewhere.questions;
  if (pending > 0) {
    parts.push(`${pending} waiting for approval`);
  }
  if (questions > 0) {
    parts.push(`${plural(questions, 'question')} for you`);
  }
  if (server?.paused) {
    parts.push('paused');
  }
  return `MCP: ${parts.join(SEPARATOR)}`;
}
