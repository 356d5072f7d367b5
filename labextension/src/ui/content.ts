/**
 * MCP content blocks and resource contents, drawn the way a notebook shows things: markdown tables
 * and CSV as tables, images and audio inline, JSON as a table or a tree, HTML in a sandboxed frame.
 */
import { h, isObject, muted, str, uriCode } from './dom';
import { structured, table } from './values';

type Block = { [key: string]: unknown };

const MAX_CSV_ROWS = 200;
const TABLE_SEPARATOR = /^\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*\|?$/;

/** Content blocks in order; a block with a `role` (a prompt's message) says who speaks. */
export function blocks(items: Block[]): HTMLElement {
  return h('div', 'jmcp-blocks', ...items.map(block));
}

function block(item: Block): HTMLElement {
  if (typeof item['role'] === 'string') {
    const role = item['role'];
    const rest = Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'role'));
    return h(
      'div',
      `jmcp-message jmcp-role-${role === 'assistant' ? 'assistant' : 'user'}`,
      h('div', 'jmcp-role', role),
      block(rest)
    );
  }
  switch (item['type']) {
    case 'text':
      return text(str(item['text']));
    case 'image':
    case 'audio':
      return media(String(item['type']), str(item['mimeType']), item['data'], item['truncated']);
    case 'resource_link':
      return h('div', 'jmcp-link', '🔗 ', h('code', '', str(item['name'])), ' ', muted(str(item['uri'])));
    case 'resource':
      return resource(isObject(item['resource']) ? item['resource'] : {});
    default:
      return pre(JSON.stringify(item, null, 2));
  }
}

export function pre(textValue: string, className = ''): HTMLElement {
  return h('pre', `jmcp-pre ${className}`.trim(), textValue);
}

/** A leading GitHub markdown table's cells (header row first) and the text after it, else `null`. */
export function splitMarkdownTable(textValue: string): [string[][], string] | null {
  const lines = textValue.trim().split('\n');
  let count = lines.findIndex(line => !line.trim().startsWith('|'));
  count = count === -1 ? lines.length : count;
  if (count < 2 || !TABLE_SEPARATOR.test(lines[1].trim())) {
    return null;
  }
  const rows = lines
    .slice(0, count)
    .filter((_, i) => i !== 1)
    .map(cells);
  return [rows, lines.slice(count).join('\n').trim()];
}

function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map(cell => cell.trim().replace(/\\\|/g, '|'));
}

/** Text: a markdown table becomes a table (its note, such as "(200 rows, first 20 shown)", after it). */
export function text(textValue: string): HTMLElement {
  const split = splitMarkdownTable(textValue);
  if (split === null) {
    return pre(textValue);
  }
  const [rows, note] = split;
  return h('div', 'jmcp-text-table', table(rows[0], rows.slice(1)), note ? h('div', 'jmcp-muted', note) : null);
}

function media(kind: string, mime: string, data: unknown, truncated: unknown): HTMLElement {
  if (typeof data !== 'string' || !data) {
    const size = typeof truncated === 'number' ? truncated.toLocaleString('en-US') : '?';
    return muted(`[${kind} ${mime}, ${size} bytes of base64, not kept]`);
  }
  const source = `data:${mime};base64,${data}`;
  if (kind === 'audio') {
    const audio = h('audio', 'jmcp-audio');
    audio.controls = true;
    audio.src = source;
    return audio;
  }
  const image = h('img', 'jmcp-img');
  image.alt = mime;
  image.src = source;
  return image;
}

function resource(contents: Block): HTMLElement {
  const head = h('div', 'jmcp-resource-head', uriCode(str(contents['uri'])));
  if (typeof contents['mimeType'] === 'string') {
    head.append(' ', muted(contents['mimeType']));
  }
  return h('div', 'jmcp-resource', head, resourceContents(contents));
}

/** One resource's contents as the notebook would show them: table, image, JSON, HTML, or text. */
export function resourceContents(contents: Block): HTMLElement {
  const mime = str(contents['mimeType']);
  if ('blob' in contents) {
    return blob(mime, contents['blob']);
  }
  const body = str(contents['text']);
  if (mime === 'application/json' || mime.endsWith('+json')) {
    try {
      return structured(JSON.parse(body));
    } catch {
      return pre(body);
    }
  }
  if (mime === 'text/csv') {
    const rows = parseCsv(body).slice(0, MAX_CSV_ROWS + 1);
    if (rows.length > 0) {
      return table(rows[0], rows.slice(1));
    }
  }
  if (mime === 'text/html') {
    return sandboxed(body);
  }
  return text(body);
}

/** HTML from a tool (a DataFrame's or an object's `_repr_html_`) in a frame that runs no script. */
export function sandboxed(html: string): HTMLElement {
  const frame = h('iframe', 'jmcp-html');
  frame.setAttribute('sandbox', '');
  frame.setAttribute('title', 'HTML result');
  frame.srcdoc = html;
  return frame;
}

function blob(mime: string, data: unknown): HTMLElement {
  if (typeof data !== 'string' || !data) {
    return muted(`[${mime || 'binary'}, not kept]`);
  }
  if (mime.startsWith('image/') || mime.startsWith('audio/')) {
    return media(mime.split('/')[0], mime, data, undefined);
  }
  const size = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  return muted(`[${mime || 'binary'}, ${size.toLocaleString('en-US')} bytes]`);
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(textValue: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < textValue.length; i++) {
    const c = textValue[i];
    if (quoted) {
      if (c === '"' && textValue[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && textValue[i + 1] === '\n') {
        i++;
      }
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += c;
    }
  }
  if (cell || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
