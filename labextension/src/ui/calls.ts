/**
 * Calls: the call list (a tool card's recent calls, the server panel's history), what a call
 * returned (its outcome), and everything about one call (its detail).
 *
 * The list is a grid whose header cells and row cells share columns by name (`data-col`): each
 * cell sits under its header however the row is filled (a task badge stays inside the name cell). In
 * a narrow box (the sidebar's width) the header goes and each row folds onto three lines.
 */
import { h, heading, muted, str, uriCode } from './dom';
import { badge, button, progressBar, statusBadge } from './controls';
import { blocks, pre } from './content';
import { SEPARATOR } from './format';
import { ICallDetail, ICallRow, IOutcome } from './shapes';
import { jsonTree, repeats, structured, table } from './values';

export const CALL_COLUMNS: ReadonlyArray<[string, string]> = [
  ['time', 'time'],
  ['status', 'status'],
  ['client', 'client'],
  ['name', 'name'],
  ['arguments', 'arguments'],
  ['duration', 'duration']
];

export interface ICallListOptions {
  /** The selected call's id (its row is highlighted). */
  selected?: string | null;
  /** Rows become buttons: a click (or Enter) picks the call. */
  onSelect?: (id: string) => void;
  /** What an empty list says. */
  empty?: string;
}

export function callList(rows: ICallRow[], options: ICallListOptions = {}): HTMLElement {
  if (rows.length === 0) {
    return h('div', 'jmcp-calls-empty', muted(options.empty ?? 'No calls yet.'));
  }
  const list = h('div', 'jmcp-calls');
  list.setAttribute('role', 'table');
  const header = h('div', 'jmcp-call jmcp-calls-head');
  header.setAttribute('role', 'row');
  for (const [col, label] of CALL_COLUMNS) {
    const cell = h('span', 'jmcp-cell', label);
    cell.dataset.col = col;
    cell.setAttribute('role', 'columnheader');
    header.append(cell);
  }
  list.append(header, ...rows.map(row => callRow(row, options)));
  return list;
}

function cell(col: string, ...children: Array<Node | string>): HTMLElement {
  const node = h('span', 'jmcp-cell', ...children);
  node.dataset.col = col;
  node.setAttribute('role', 'cell');
  return node;
}

function callRow(row: ICallRow, options: ICallListOptions): HTMLElement {
  const node = h('div', row.id === options.selected ? 'jmcp-call jmcp-selected' : 'jmcp-call');
  node.setAttribute('role', 'row');
  node.dataset.call = row.id;
  if (options.onSelect) {
    const pick = options.onSelect;
    node.tabIndex = 0;
    node.classList.add('jmcp-pickable');
    node.title = 'Show this call';
    node.setAttribute('aria-selected', String(row.id === options.selected));
    node.addEventListener('click', () => pick(row.id));
    node.addEventListener('keydown', event => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        pick(row.id);
      }
    });
  }
  const client = cell('client', row.client);
  client.title = row.client;
  node.append(
    cell('time', row.time),
    cell('status', statusBadge(row.status)),
    client,
    nameCell(row),
    argumentsCell(row),
    cell('duration', row.duration)
  );
  return node;
}

/** The name called (or URI read): a read has no arguments, so its URI also takes their column. */
function nameCell(row: ICallRow): HTMLElement {
  const name = cell('name');
  name.title = row.tool;
  if (row.kind !== 'tool') {
    name.append(h('span', 'jmcp-kind', row.kind), ' ');
  }
  name.append(row.kind === 'resource' ? uriCode(row.tool, 'jmcp-call-name') : h('code', 'jmcp-call-name', row.tool));
  if (row.task) {
    name.append(' ', badge('task', 'task', `the call became a task: the client polls it as ${row.task}`));
  }
  if (!row.arguments && !row.progress_text && !row.error) {
    name.classList.add('jmcp-span');
  }
  return name;
}

function argumentsCell(row: ICallRow): HTMLElement {
  const args = cell('arguments');
  args.title = row.arguments;
  args.append(h('div', 'jmcp-ellipsis', row.arguments));
  if (row.progress !== null || row.progress_text) {
    const line = h('div', 'jmcp-progress-line');
    if (row.progress !== null) {
      line.append(progressBar(row.progress));
    }
    line.append(h('span', 'jmcp-muted jmcp-ellipsis', row.progress_text));
    args.append(line);
  } else if (row.error) {
    args.append(h('div', 'jmcp-error jmcp-ellipsis', row.error));
  }
  if (!row.arguments && !row.progress_text && !row.error) {
    args.classList.add('jmcp-spanned');
  }
  return args;
}

/** What a call returned: its error first, then the structured result (a table or a tree), then content. */
export function outcome(result: IOutcome): HTMLElement {
  const node = h('div', 'jmcp-outcome');
  if (result.is_error) {
    const textOf = result.content
      .filter(block => block['type'] === 'text')
      .map(block => str(block['text']))
      .join(' ');
    node.append(heading('Error'), pre((result.error || textOf).trim() || '(no message)', 'jmcp-error-text'));
  }
  if (result.structured !== null && result.structured !== undefined) {
    node.append(heading('Structured result'), structured(result.structured));
  }
  // The JSON text block that goes with structuredContent says the same again.
  const shown = result.content.filter(block => result.structured === null || !repeats(block, result.structured));
  if (shown.length > 0 && !result.is_error) {
    node.append(heading('Content'), blocks(shown));
  }
  return node;
}

export interface IDetailOptions {
  onKeep?: () => void;
}

/** Everything about one call: who, when, arguments, progress or result, preview, traceback, output, logs. */
export function callDetail(detail: ICallDetail, options: IDetailOptions = {}): HTMLElement {
  const row = detail.row;
  const node = h('div', 'jmcp-detail');
  node.dataset.call = row.id;
  const facts = [row.time, row.duration, row.client, detail.protocol ? `protocol ${detail.protocol}` : ''];
  const head = h(
    'div',
    'jmcp-detail-head',
    muted(`#${row.number}`),
    h('code', 'jmcp-name', row.tool),
    statusBadge(row.status),
    row.task ? badge('task', 'task', `the client polls it as task ${row.task}`) : null,
    muted(facts.filter(Boolean).join(SEPARATOR))
  );
  node.append(head);
  if (row.task) {
    node.append(muted(`task ${row.task} · call ${row.id}`, 'jmcp-detail-ids'));
  }
  if (detail.late) {
    node.append(h('div', 'jmcp-warn', detail.late));
  }
  if (detail.decision) {
    node.append(h('div', 'jmcp-decision', detail.decision));
  }
  node.append(heading('Arguments'), jsonTree(detail.arguments));
  node.append(...progressOrOutcome(detail));
  if (detail.preview) {
    node.append(
      heading('Sent as a preview'),
      h('div', 'jmcp-preview-note', detail.preview.note),
      h('details', 'jmcp-sent', h('summary', '', 'What the client got'), blocks(detail.preview.content))
    );
  }
  if (detail.traceback) {
    node.append(
      h('details', 'jmcp-traceback', h('summary', '', 'Traceback'), pre(detail.traceback, 'jmcp-error-text'))
    );
  }
  if (detail.stdout) {
    node.append(heading('stdout'), pre(detail.stdout));
  }
  if (detail.stderr) {
    node.append(heading('stderr'), pre(detail.stderr, 'jmcp-stderr'));
  }
  if (detail.logs.length > 0) {
    const rows = detail.logs.map(log => [log.time, log.level, log.logger, log.message]);
    node.append(heading('Log messages'), table(['time', 'level', 'logger', 'message'], rows, 'jmcp-logs'));
  }
  node.append(...keepLine(detail, options));
  return node;
}

function progressOrOutcome(detail: ICallDetail): HTMLElement[] {
  const row = detail.row;
  if (row.status === 'waiting') {
    return [heading('Waiting'), h('div', '', detail.waiting)];
  }
  if (row.status === 'running') {
    if (!row.progress_text && row.progress === null) {
      return [heading('Running'), muted('waiting for the result…')];
    }
    const bar = row.progress !== null ? progressBar(row.progress) : null;
    return [heading('Progress'), h('div', 'jmcp-progress-line', bar ?? '', h('span', '', row.progress_text))];
  }
  return detail.outcome ? [outcome(detail.outcome)] : [];
}

function keepLine(detail: ICallDetail, options: IDetailOptions): HTMLElement[] {
  if (detail.keep === 'no') {
    return detail.keep_note ? [h('div', 'jmcp-keep', muted(detail.keep_note))] : [];
  }
  const kept = detail.keep === 'kept';
  const keep = button(
    kept ? 'Kept as test' : 'Keep as test',
    'default',
    () => options.onKeep?.(),
    'Replay this call as a test of the exported server'
  );
  keep.disabled = kept || !options.onKeep;
  return [h('div', 'jmcp-keep', keep, detail.keep_note ? muted(detail.keep_note) : null)];
}
