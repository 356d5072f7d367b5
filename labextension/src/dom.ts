/**
 * The few DOM helpers the sidebar's pieces share.
 */

export function element<K extends keyof HTMLElementTagNameMap>(
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

/** A small JupyterLab-styled button. */
export function button(text: string, className: string): HTMLButtonElement {
  const node = element('button', `jp-Button jp-mod-styled jp-mod-small ${className}`, text);
  node.type = 'button';
  return node;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
