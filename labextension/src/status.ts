import { Widget } from '@lumino/widgets';

import { IServerEntry } from './types';

/**
 * Status bar text for the current notebook: "MCP: N tools · M clients".
 */
export class StatusItem extends Widget {
  constructor(onClick: () => void) {
    super({ node: document.createElement('button') });
    this.addClass('jp-MCP-status');
    this.node.title = 'Show the MCP Tools panel';
    this.node.addEventListener('click', onClick);
  }

  setServer(server: IServerEntry | undefined): void {
    this.node.textContent = server ? statusText(server) : '';
  }
}

export function statusText(server: IServerEntry): string {
  const tools = server.tools.filter(tool => tool.enabled).length;
  const clients = server.clients.length;
  const base = `MCP: ${tools} tool${tools === 1 ? '' : 's'} · ${clients} client${clients === 1 ? '' : 's'}`;
  const waiting = server.pending.length > 0 ? ` · ${server.pending.length} waiting for approval` : '';
  return `${base}${waiting}${server.paused ? ' · paused' : ''}`;
}
