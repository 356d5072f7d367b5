import { Poll } from '@lumino/polling';
import { ISignal, Signal } from '@lumino/signaling';

import { requestAPI } from './request';
import { IMCPServers } from './tokens';
import {
  ClientKind,
  IApprovalAnswer,
  IConfigReply,
  IPendingEntry,
  IQuestionEntry,
  IQuestionReply,
  IServerEntry,
  IUnionReply
} from './types';

/**
 * Milliseconds between refreshes while the page is visible (the poll stands by when it is hidden).
 * One second keeps the status bar's client count in step with the server panel (which refreshes on
 * every call); each poll is one request answered from the kernels' own status endpoints.
 */
const INTERVAL_MS = 1000;

/**
 * Polls `GET /api/mcp/servers` at a modest interval, backing off on errors.
 */
export class ServersModel implements IMCPServers {
  constructor() {
    this._poll = new Poll({
      factory: () => this._fetch(),
      frequency: { interval: INTERVAL_MS, backoff: true, max: 60 * 1000 },
      standby: 'when-hidden',
      name: 'jupyter-mcp:servers'
    });
  }

  get servers(): ReadonlyArray<IServerEntry> {
    return this._servers;
  }

  get union(): IUnionReply | null {
    return this._union;
  }

  get error(): string | null {
    return this._error;
  }

  get changed(): ISignal<IMCPServers, void> {
    return this._changed;
  }

  forNotebook(path: string): IServerEntry | undefined {
    return this._servers.find(server => server.notebook_path === path);
  }

  async refresh(): Promise<void> {
    await this._poll.refresh();
    await this._poll.tick;
  }

  config(client: ClientKind, server: IServerEntry): Promise<IConfigReply> {
    const target: Record<string, string> = server.notebook_path
      ? { notebook: server.notebook_path }
      : { kernel: server.kernel_id };
    return requestAPI<IConfigReply>('config', { client, ...target });
  }

  answer(server: IServerEntry, pending: IPendingEntry, answer: IApprovalAnswer): Promise<void> {
    return this._post(server, `approvals/${encodeURIComponent(pending.id)}`, answer);
  }

  setPaused(server: IServerEntry, paused: boolean): Promise<void> {
    return this._post(server, 'pause', { paused });
  }

  reply(server: IServerEntry, question: IQuestionEntry, reply: IQuestionReply): Promise<void> {
    return this._post(server, `questions/${encodeURIComponent(question.id)}`, reply);
  }

  limitClient(server: IServerEntry, client: string, readOnly: boolean): Promise<void> {
    return this._post(server, 'limits', { client, read_only: readOnly });
  }

  unionConfig(client: ClientKind): Promise<IConfigReply> {
    return requestAPI<IConfigReply>('config', { client });
  }

  async limitEverywhere(client: string, readOnly: boolean): Promise<void> {
    await requestAPI('limits', {}, { method: 'POST', body: JSON.stringify({ client, read_only: readOnly }) });
    await this.refresh();
  }

  dispose(): void {
    this._poll.dispose();
  }

  /** POST `body` to `/api/mcp/kernels/<id>/<path>` (forwarded to the kernel), then refresh. */
  private async _post(server: IServerEntry, path: string, body: object): Promise<void> {
    const kernel = `kernels/${encodeURIComponent(server.kernel_id)}/${path}`;
    await requestAPI(kernel, {}, { method: 'POST', body: JSON.stringify(body) });
    await this.refresh();
  }

  private async _fetch(): Promise<void> {
    try {
      this._servers = await requestAPI<IServerEntry[]>('servers');
      // "All notebooks" is shown while some notebook serves; asking starts the server's watch of them (the
      // notebook tools, served by the Jupyter server itself, are no notebook of it).
      const serving = this._servers.some(server => server.transport !== 'server');
      this._union = serving ? await requestAPI<IUnionReply>('union') : null;
      this._error = null;
    } catch (reason) {
      this._error = reason instanceof Error ? reason.message : String(reason);
      throw reason; // the poll backs off
    } finally {
      this._changed.emit();
    }
  }

  private _poll: Poll;
  private _servers: IServerEntry[] = [];
  private _union: IUnionReply | null = null;
  private _error: string | null = null;
  private _changed = new Signal<IMCPServers, void>(this);
}
