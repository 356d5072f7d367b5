/**
 * Structured values: records (a list of flat objects, a DataFrame's records) as a table, anything
 * else as a JSON tree that folds with no script (`<details>`).
 */
import { h, isObject, str } from './dom';
import { plural } from './format';

/** Items shown per JSON array/object level; the rest are counted, not drawn. */
export const MAX_ITEMS = 100;
export const MAX_TABLE_ROWS = 200;

type Row = { [key: string]: unknown };

/**
 * Rows to show as a table: a list of flat objects (bare, as `{"result": [...]}`, or a DataFrame's
 * `{"columns": ..., "records": [...]}`); `null` for anything else.
 */
export function records(value: unknown): Row[] | null {
  if (isObject(value)) {
    const keys = Object.keys(value).sort().join(',');
    if (keys === 'result') {
      value = value['result'];
    } else if (keys === 'columns,records') {
      value = value['records'];
    }
  }
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_TABLE_ROWS) {
    return null;
  }
  const flat = value.every(row => isObject(row) && Object.values(row).every(v => !isObject(v) && !Array.isArray(v)));
  return flat ? (value as Row[]) : null;
}

function cellText(value: unknown): string {
  return value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** A table of `header` and `rows` of text, scrolling sideways when wider than its box. */
export function table(header: string[], rows: string[][], className = ''): HTMLElement {
  const head = h('tr', '', ...header.map(cell => h('th', '', cell)));
  const body = rows.map(row => h('tr', '', ...row.map(cell => h('td', '', cell))));
  const node = h('table', `jmcp-table ${className}`.trim(), h('thead', '', head), h('tbody', '', ...body));
  return h('div', 'jmcp-scroll', node);
}

export function recordsTable(rows: Row[]): HTMLElement {
  const columns = [...new Set(rows.flatMap(row => Object.keys(row)))];
  return table(
    columns,
    rows.map(row => columns.map(column => cellText(row[column]))),
    'jmcp-records'
  );
}

/** `value` as nested `<details>`; levels below `openDepth` start closed. */
export function jsonTree(value: unknown, openDepth = 2): HTMLElement {
  return h('div', 'jmcp-json', node(value, null, 0, openDepth));
}

function node(value: unknown, key: string | null, depth: number, openDepth: number): HTMLElement {
  const label = key === null ? null : h('span', 'jmcp-json-key', `${JSON.stringify(key)}: `);
  const entries: Array<[string | null, unknown]> | null = isObject(value)
    ? Object.entries(value)
    : Array.isArray(value)
      ? value.map(item => [null, item])
      : null;
  if (entries === null || entries.length === 0) {
    return h('div', 'jmcp-json-leaf', label, scalar(value));
  }
  const size = isObject(value) ? plural(entries.length, 'key') : plural(entries.length, 'item');
  const [open, close] = isObject(value) ? ['{', '}'] : ['[', ']'];
  const details = h('details');
  details.open = depth < openDepth;
  details.append(h('summary', '', label, `${open} `, h('span', 'jmcp-muted', size), ` ${close}`));
  const list = h('ul');
  for (const [childKey, child] of entries.slice(0, MAX_ITEMS)) {
    list.append(h('li', '', node(child, childKey, depth + 1, openDepth)));
  }
  if (entries.length > MAX_ITEMS) {
    list.append(h('li', 'jmcp-muted', `… ${entries.length - MAX_ITEMS} more`));
  }
  details.append(list);
  return details;
}

function scalar(value: unknown): HTMLElement {
  if (typeof value === 'string') {
    return h('span', 'jmcp-json-string', JSON.stringify(value));
  }
  if (typeof value === 'number') {
    return h('span', 'jmcp-json-number', JSON.stringify(value));
  }
  if (isObject(value) || Array.isArray(value)) {
    return h('span', 'jmcp-muted', isObject(value) ? '{}' : '[]');
  }
  return h('span', 'jmcp-json-literal', JSON.stringify(value ?? null));
}

/** A table when `value` is a list of records (its JSON one click away), else a JSON tree. */
export function structured(value: unknown): HTMLElement {
  const rows = records(value);
  if (rows === null) {
    return jsonTree(value, 3);
  }
  const json = h('details', 'jmcp-json-raw', h('summary', '', 'JSON'), jsonTree(value, 3));
  return h('div', 'jmcp-structured', recordsTable(rows), json);
}

/** Whether a text block is just `structured` (or its wrapped `result`) as JSON. */
export function repeats(block: { [key: string]: unknown }, structuredValue: unknown): boolean {
  if (block['type'] !== 'text') {
    return false;
  }
  let value: unknown;
  try {
    value = JSON.parse(str(block['text']));
  } catch {
    return false;
  }
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const wrapped = isObject(structuredValue) && Object.keys(structuredValue).join() === 'result';
  return same(value, structuredValue) || (wrapped && same(value, structuredValue['result']));
}
