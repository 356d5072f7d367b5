/**
 * The small pieces: badges, a call's status, buttons, a progress bar, a labelled checkbox.
 *
 * Buttons look like JupyterLab's (`--jp-*` tokens) wherever they are drawn, JupyterLab or not:
 * `accept` (Allow, Run, Send) in the brand colour, `warn` (Deny) in the error colour, `default`
 * (everything else) neutral. One meaning, one colour, in every view.
 */
import { h, titled } from './dom';
import { STATUS_ICONS } from './format';

/** Every kind of button (the browser tests check each in every state, light and dark). */
export const BUTTON_KINDS = ['accept', 'warn', 'default'] as const;
export type ButtonKind = (typeof BUTTON_KINDS)[number];

export function badge(text: string, kind = '', title = ''): HTMLElement {
  return titled(h('span', kind ? `jmcp-badge jmcp-badge-${kind}` : 'jmcp-badge', text), title);
}

/** A call's status: an icon (a spinner while running) and the word, coloured by status. */
export function statusBadge(status: string): HTMLElement {
  const node = h('span', `jmcp-status jmcp-status-${status}`);
  if (status === 'running') {
    node.append(h('span', 'jmcp-spinner'), ' ');
  } else if (STATUS_ICONS[status]) {
    node.append(h('span', 'jmcp-status-icon', STATUS_ICONS[status]), ' ');
  }
  node.append(status);
  return node;
}

export function button(
  label: string,
  kind: ButtonKind,
  onClick: (button: HTMLButtonElement) => void,
  title = ''
): HTMLButtonElement {
  const node = titled(h('button', `jmcp-button jmcp-button-${kind}`, label), title);
  node.type = 'button';
  node.addEventListener('click', () => onClick(node));
  return node;
}

/** A button that runs `action` once and stays disabled after (the view goes once the kernel moves on). */
export function onceButton(label: string, kind: ButtonKind, action: () => void, title = ''): HTMLButtonElement {
  return button(
    label,
    kind,
    node => {
      node.disabled = true;
      action();
    },
    title
  );
}

export function progressBar(fraction: number): HTMLElement {
  const fill = h('div', 'jmcp-progress-fill');
  fill.style.width = `${Math.round(Math.max(0, Math.min(1, fraction)) * 100)}%`;
  const bar = h('div', 'jmcp-progress', fill);
  bar.setAttribute('role', 'progressbar');
  bar.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
  return bar;
}

/** `☑ label`: a checkbox and its label, `onChange(checked)` when the user flips it. */
export function checkbox(
  label: string,
  checked: boolean,
  onChange: (checked: boolean) => void,
  title = ''
): HTMLLabelElement {
  const box = h('input', 'jmcp-checkbox');
  box.type = 'checkbox';
  box.checked = checked;
  box.addEventListener('change', () => onChange(box.checked));
  return titled(h('label', 'jmcp-check', box, label), title);
}

/** Copy `text` to the clipboard; where that is refused (plain http), select `fallback` for Ctrl+C. */
export function copyButton(text: () => string, fallback?: () => HTMLElement | null, label = 'Copy'): HTMLButtonElement {
  return button(label, 'default', node => {
    const done = (message: string): void => {
      node.textContent = message;
      window.setTimeout(() => (node.textContent = label), 1500);
    };
    const select = (): void => {
      const target = fallback?.();
      if (target) {
        const range = document.createRange();
        range.selectNodeContents(target);
        const selection = window.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
      }
      done('Press Ctrl+C');
    };
    if (navigator.clipboard) {
      navigator.clipboard.writeText(text()).then(() => done('Copied'), select);
    } else {
      select();
    }
  });
}
