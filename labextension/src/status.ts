import { Widget } from '@lumino/widgets';

import { IServerEntry } from './types';
import { statusText } from './ui';

/** Calls and questions waiting in notebooks other than the one in front. */
export interface IElsewhere {
  pending: number;
  questions: number;
}

/**
 * Status bar item: the current notebook's "MCP: 2 tools · 4 resources · 1 client" (a click opens the
 * panel), what waits for the user in any notebook, and a small Pause / Resume button, the kill
 * switch within reach wherever the user is.
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

  setServer(server: IServerEntry | undefined, elsewhere: IElsewhere = { pending: 0, questions: 0 }): void {
    this._server = server;
    const waiting = elsewhere.pending + elsewhere.questions > 0;
    this._text.textContent = server || waiting ? statusText(server, elsewhere) : '';
    this._pause.hidden = server === undefined || (server.tools.length === 0 && !server.paused);
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
