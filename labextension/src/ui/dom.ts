/**
 * The few DOM helpers every component uses: no JupyterLab imports, so the component set also runs in
 * a notebook widget outside JupyterLab and in an MCP App document.
 */

export type Child = Node | string | null | undefined | false;

/** `h('div', 'jmcp-row', 'text', node)`: an element with classes and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = '',
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  append(node, children);
  return node;
}

export function append(node: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Set `title` (the tooltip) and return the node, for use inside `h(...)`. */
export function titled<T extends HTMLElement>(node: T, title: string): T {
  if (title) {
    node.title = title;
  }
  return node;
}

/** Text with `code` spans written in backticks, as the kernel sends hints such as "run `%mcp start`". */
export function richText(text: string, className = ''): HTMLSpanElement {
  const node = h('span', className);
  text.split('`').forEach((part, index) => {
    if (part) {
      // A URL in backticks may break after its slashes, as an endpoint does, never inside a name.
      node.append(index % 2 === 1 ? (part.includes('://') ? uriCode(part) : h('code', '', part)) : part);
    }
  });
  return node;
}

/** Code that may break only after `after` (a call between its arguments, a URI after its slashes). */
export function breakingCode(text: string, className: string, after: RegExp): HTMLElement {
  const node = h('code', className);
  text.split(after).forEach((part, index) => {
    if (index > 0) {
      node.append(h('wbr'));
    }
    node.append(part);
  });
  return node;
}

/** A call as code that breaks between its arguments, never inside one: `reset_sales(<wbr>region='north')`. */
export function callCode(text: string, className = 'jmcp-call-text'): HTMLElement {
  return breakingCode(text, className, /(?<=\(|, )/);
}

/** A URI or URL as code that breaks after its slashes and separators, never inside a name. */
export function uriCode(text: string, className = 'jmcp-uri'): HTMLElement {
  return breakingCode(text, className, /(?<=[/?&=#]|:\/\/)(?!\/)/);
}

/** A heading inside a view (small capitals, muted). */
export function heading(text: string): HTMLElement {
  return h('h4', 'jmcp-heading', text);
}

/** A muted line of text. */
export function muted(text: string, className = ''): HTMLElement {
  return h('span', `jmcp-muted ${className}`.trim(), text);
}

/** Replace `node`'s children with `children`, keeping the node itself (and its listeners). */
export function fill(node: Element, ...children: Child[]): void {
  node.replaceChildren();
  append(node, children);
}

/** A JSON field as text: strings as they are, numbers and booleans written out, anything else empty. */
export function str(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

export function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
