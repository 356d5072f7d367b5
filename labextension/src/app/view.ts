/**
 * What the app draws: the tool's card as the notebook shows it, for one call seen from the chat.
 * The tool's name, title and hints; the call with its arguments; its live status (progress, a wait
 * for the notebook user's approval, a task); what it returned (error, structured result as a table
 * or a tree, images, markdown, HTML in a sandboxed frame); a preview's full value on demand; a form
 * to run it again with edited arguments; and what the tool takes and returns. Drawn with the
 * component set (`../ui`), so the same call looks the same in the notebook and in the chat.
 */
import {
  badge,
  button,
  callCode,
  fill,
  h,
  heading,
  IComponent,
  muted,
  outcome,
  outputSummary,
  parametersTable,
  progressBar,
  pyRepr,
  resourceContents,
  Schema,
  SchemaForm,
  statusBadge,
  structured
} from '../ui';
import { drawRefusedImages } from './images';
import { isObject, JsonObject } from './protocol';

type Block = { [key: string]: unknown };

/** The tool's `tools/list` entry (what the document embeds, or the host's `toolInfo.tool`). */
export interface ITool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Schema;
  outputSchema?: Schema;
  annotations?: { [hint: string]: unknown };
  _meta?: { [key: string]: unknown };
}

/** A `tools/call` result (MCP's JSON). */
export interface ICallResult {
  content?: Block[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** A call's live status (the `jupyter_mcp_app_status` tool's `call`). */
export interface ILiveStatus {
  id: string;
  status: string;
  progress: number | null;
  text: string;
  task: string;
  elapsed: number;
}

/** A full value, read back whole: its MIME type and its text (base64 for binary). */
export interface IFullValue {
  mimeType: string;
  encoding: 'text' | 'base64';
  data: string;
}

export interface IAppHandlers {
  /** Run the tool again with these arguments (a real call, through the host). */
  run(args: JsonObject): void;
  /** Fetch the full value behind a preview's `result://` link. */
  loadFull(uri: string): void;
}

const TAGS_META_KEY = 'jupyter-mcp/tags';

export class AppView {
  constructor(
    private _tool: ITool,
    private readonly _handlers: IAppHandlers
  ) {
    this.node = h('div', 'jmcp jmcp-card jmcp-app');
    this._again = h('details', 'jmcp-section jmcp-again', h('summary', 'jmcp-section-title', 'Run again'));
    this._aboutBox = h('details', 'jmcp-section jmcp-about-tool', h('summary', 'jmcp-section-title', 'About'));
    this.node.append(this._head, this._call, this._status, this._result, this._full, this._again, this._aboutBox);
    this.setTool(_tool);
    this.setWaiting();
  }

  readonly node: HTMLDivElement;

  get tool(): ITool {
    return this._tool;
  }

  setTool(tool: ITool): void {
    this._tool = tool;
    fill(this._head, ...this._header(tool));
    fill(this._aboutBox, this._aboutBox.firstChild, ...this._about(tool));
    this._drawForm();
  }

  /** Before the host sends the arguments. */
  setWaiting(): void {
    fill(this._call, muted('Waiting for the call…'));
  }

  /** The call's arguments (`tool-input`, or a re-run's). */
  setArguments(args: JsonObject): void {
    this._args = args;
    const text = `${this._tool.name}(${Object.entries(args)
      .map(([key, value]) => `${key}=${pyRepr(value)}`)
      .join(', ')})`;
    fill(this._call, heading('Call'), callCode(text));
    this._drawForm();
  }

  /** How the call goes while the result is not in. */
  setStatus(live: ILiveStatus | null, fallback = 'running'): void {
    if (this._done) {
      return;
    }
    const status = live?.status ?? fallback;
    const line = h('div', 'jmcp-try-status jmcp-app-status', statusBadge(status));
    if (live && live.progress !== null) {
      line.append(progressBar(live.progress));
    }
    const words = live?.text || (status === 'running' ? 'waiting for the result…' : '');
    if (words) {
      // The space is for reading it out (a flex line lays out no white space).
      line.append(' ', h('span', status === 'waiting' ? 'jmcp-waiting-text' : 'jmcp-muted', words));
    }
    if (live?.task) {
      line.append(badge('task', 'task', `the call became a task: the client polls it as ${live.task}`));
    }
    fill(this._status, line);
  }

  /** The call's result (`tool-result`, or a re-run's answer). */
  setResult(result: ICallResult, note = ''): void {
    this._done = true;
    const content = Array.isArray(result.content) ? result.content.filter(isObject) : [];
    const error = result.isError === true;
    const line = h('div', 'jmcp-try-status jmcp-app-status', statusBadge(error ? 'error' : 'ok'));
    if (note) {
      line.append(muted(note));
    }
    fill(this._status, line);
    const value = result.structuredContent === undefined ? null : result.structuredContent;
    fill(this._result, outcome({ is_error: error, error: '', structured: value, content }));
    drawRefusedImages(this._result);
    const link = content.find(
      block => block['type'] === 'resource_link' && String(block['uri']).startsWith('result://')
    );
    fill(this._full);
    if (link) {
      const uri = String(link['uri']);
      const load = button(
        'Show the full value',
        'default',
        () => this._handlers.loadFull(uri),
        `Read ${uri} in chunks`
      );
      fill(
        this._full,
        h('div', 'jmcp-preview-note', muted('This is a preview: the full value is kept for a while.')),
        h('div', 'jmcp-actions', load)
      );
    }
  }

  /** The host says the call was cancelled. */
  setCancelled(reason: string): void {
    this._done = true;
    fill(this._status, h('div', 'jmcp-try-status', statusBadge('cancelled'), muted(reason ? ` ${reason}` : '')));
  }

  /** A re-run started: its arguments, and a status until it answers. */
  setRerun(args: JsonObject): void {
    this._done = false;
    this.setArguments(args);
    fill(this._result);
    fill(this._full);
    this.setStatus(null);
  }

  setFullLoading(read: number, total: number): void {
    const fraction = total > 0 ? read / total : 0;
    fill(
      this._full,
      h(
        'div',
        'jmcp-progress-line',
        progressBar(fraction),
        muted(`reading the full value… ${Math.round(fraction * 100)}%`)
      )
    );
  }

  setFull(value: IFullValue): void {
    fill(this._full, heading('Full value'), fullValue(value));
    drawRefusedImages(this._full);
  }

  setFullFailed(message: string): void {
    fill(this._full, h('div', 'jmcp-error', message));
  }

  /** Say what went wrong talking to the host (the call itself failing is a result). */
  setProblem(message: string): void {
    fill(this._status, h('div', 'jmcp-error', message));
  }

  /** Whether the host can run tools (else no re-run form). */
  setCanRun(can: boolean): void {
    this._canRun = can;
    this._drawForm();
  }

  private _header(tool: ITool): Node[] {
    const names = h('div', 'jmcp-card-names', h('code', 'jmcp-name', tool.name));
    const title = tool.title ?? (typeof tool.annotations?.['title'] === 'string' ? tool.annotations['title'] : '');
    if (title) {
      names.append(h('span', 'jmcp-title', title));
    }
    const head = h('div', 'jmcp-card-head', names, h('div', 'jmcp-badges', ...hintBadges(tool)));
    return [head, tool.description ? h('div', 'jmcp-description', tool.description) : null].filter(
      (node): node is HTMLDivElement => node !== null
    );
  }

  private _about(tool: ITool): Node[] {
    const parts: Node[] = [];
    const component = asComponent(tool);
    if (component.input_schema) {
      parts.push(parametersTable(component));
    }
    const returns = outputSummary(component.output_schema);
    if (returns) {
      parts.push(h('div', 'jmcp-returns', 'Returns ', h('code', '', returns)));
    }
    return parts;
  }

  private _drawForm(): void {
    this._again.hidden = !this._canRun;
    const form = new SchemaForm(this._tool.inputSchema ?? null, { empty: 'No parameters.', values: this._args });
    const run = button(
      'Run again',
      'accept',
      () => {
        const values = form.read();
        if (values) {
          this._handlers.run(values);
        }
      },
      'Call the tool again with these arguments (a new call, in the notebook’s history)'
    );
    fill(this._again, this._again.firstChild, form.node, h('div', 'jmcp-actions', run), form.error);
  }

  private _args: JsonObject = {};
  private _done = false;
  private _canRun = false;
  private _head = h('div', 'jmcp-head');
  private _call = h('div', 'jmcp-app-call');
  private _status = h('div', 'jmcp-app-status-slot');
  private _result = h('div', 'jmcp-app-result');
  private _full = h('div', 'jmcp-app-full');
  private _again: HTMLDetailsElement;
  private _aboutBox: HTMLDetailsElement;
}

/** The badges a card shows for the hints a tool declares, and its tags. */
function hintBadges(tool: ITool): HTMLElement[] {
  const hints = tool.annotations ?? {};
  const badges: HTMLElement[] = [];
  if (hints['readOnlyHint'] === true) {
    badges.push(badge('read-only', 'readonly', 'readOnlyHint: changes nothing'));
  }
  if (hints['destructiveHint'] === true) {
    badges.push(badge('destructive', 'destructive', 'destructiveHint: changes cannot be undone'));
  }
  if (hints['idempotentHint'] === true) {
    badges.push(badge('idempotent', 'idempotent', 'idempotentHint: repeating a call changes nothing more'));
  }
  if (typeof hints['openWorldHint'] === 'boolean') {
    const world = hints['openWorldHint'] ? 'open-world' : 'closed-world';
    badges.push(badge(world, 'world', 'openWorldHint: talks to external systems or not'));
  }
  const tags = tool._meta?.[TAGS_META_KEY];
  if (Array.isArray(tags)) {
    badges.push(...tags.map(tag => badge(`#${String(tag)}`, 'tag', 'tag')));
  }
  return badges;
}

/** The tool as the component set's card data (its parameter table and "Returns" line). */
function asComponent(tool: ITool): IComponent {
  return {
    kind: 'tool',
    name: tool.name,
    title: tool.title ?? '',
    key: tool.name,
    status: 'live',
    status_text: 'live',
    badges: [],
    facts: '',
    description: tool.description ?? '',
    input_schema: tool.inputSchema && isObject(tool.inputSchema['properties']) ? tool.inputSchema : null,
    output_schema: tool.outputSchema ?? null,
    show_schemas: false,
    completions: [],
    try_label: ''
  };
}

function fullValue(value: IFullValue): HTMLElement {
  if (value.encoding === 'base64') {
    return resourceContents({ mimeType: value.mimeType, blob: value.data });
  }
  if (value.mimeType === 'application/json') {
    try {
      return structured(JSON.parse(value.data));
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return resourceContents({ mimeType: value.mimeType, text: value.data });
}
