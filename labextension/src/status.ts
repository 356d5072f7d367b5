import { Widget } from '@lumino/widgets';

import { IServerEntry } from './types';

/**
 * Status bar item for the current notebook: "MCP: N tools · M clients" (a click opens the panel) and
 * a small Pause / Resume button, the kill switch within reach wherever the user is.
 */
export class StatusItem extends Widget {
  constructor(
    onClick: () => void,
    private readonly _onPause: (server: IServerEntry, paused: boolean) => void
  ) {
    super();
    this.addClass('jp-MCP-statusbar');
    this._text.className = 'jp-MCP-status';
    this._text.type = 'button';
    this._text.title = 'Show the MCP Tools panel';
    this._text.addEventListener('click', onClick);
    this._pause.className = 'jp-MCP-status-pause';
    this._pause.type = 'button';
    this._pause.addEventListener('click', () => {
      if (this._server) {
        this._onPause(this._server, !this._server.paused);
      }
    });
    this.node.append(this._text, this._pause);
  }

  setServer(server: IServerEntry | undefined): void {
    this._server = server;
    this._text.textContent = server ? statusText(server) : '';
    this._pause.hidden = server === undefined;
    const paused = server?.paused ?? false;
    this._pause.textContent = paused ? 'Resume' : 'Pause';
    this._pause.setAttribute('aria-pressed', String(paused));
    const label = paused
      ? 'Resume this notebook’s MCP tools: serve client calls again'
      : 'Pause all of this notebook’s MCP tools: refuse client calls and cancel running ones';
    this._pause.setAttribute('aria-label', label);
    this._pause.title = label;
    this._pause.classList.toggle('jp-mod-paused', paused);
  }

  private _server: IServerEntry | undefined;
  private _text = document.createElement('button');
  private _pause = document.createElement('button');
}

export function statusText(server: IServerEntry): string {
  const tools = server.tools.filter(tool => tool.enabled).length;
  const clients = server.clients.length;
  const base = `MCP: ${tools} tool${tools === 1 ? '' : 's'} · ${clients} client${clients === 1 ? '' : 's'}`;
  const waiting = server.pending.length > 0 ? ` · ${server.pending.length} waiting for approval` : '';
  const asking = server.questions.length;
  const questions = asking > 0 ? ` · ${asking} question${asking === 1 ? '' : 's'} for you` : '';
  return `${base}${waiting}${questions}${server.paused ? ' · paused' : ''}`;
}
