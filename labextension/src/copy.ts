import { Clipboard } from '@jupyterlab/apputils';

import { button, element } from './dom';
import { ClientKind, IConfigReply } from './types';

const CLIENTS: ReadonlyArray<[ClientKind, string, string]> = [
  ['claude', 'Claude', 'Claude Desktop: runs `jupyter-mcp connect --url …` by absolute path, the token in its env'],
  ['vscode', 'VS Code', 'VS Code: an HTTP server entry with the Jupyter token header'],
  ['cursor', 'Cursor', 'Cursor: an HTTP server entry with the Jupyter token header'],
  ['inspector', 'Inspector', 'MCP Inspector: a command line that lists the tools']
];

/**
 * "Copy config:" and one button per client; `config` builds the config a button copies.
 */
export function copyButtons(config: (client: ClientKind) => Promise<IConfigReply>): HTMLElement {
  const row = element('div', 'jp-MCP-copy');
  row.append(element('span', 'jp-MCP-copy-label', 'Copy config:'));
  for (const [kind, label, caption] of CLIENTS) {
    const copy = button(label, 'jp-MCP-copy-button');
    copy.dataset.client = kind;
    copy.title = `Copy the config for ${caption}`;
    copy.addEventListener('click', () => void copyConfig(config(kind), copy));
    row.append(copy);
  }
  return row;
}

async function copyConfig(reply: Promise<IConfigReply>, source: HTMLButtonElement): Promise<void> {
  const label = source.textContent ?? '';
  try {
    Clipboard.copyToSystem(configText(await reply));
    source.textContent = 'Copied';
  } catch (reason) {
    source.textContent = 'Failed';
    console.error('jupyter-mcp: could not build the client config', reason);
  }
  window.setTimeout(() => (source.textContent = label), 1500);
}

function configText(reply: IConfigReply): string {
  const command = reply.config['command'];
  return reply.client === 'inspector' && typeof command === 'string' ? command : JSON.stringify(reply.config, null, 2);
}
