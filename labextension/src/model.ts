import { Poll } from '@lumino/polling';
import { ISignal, Signal } from '@lumino/signaling';

import { requestAPI } from './request';
import { IApprovalAnswer, IMCPServers } from './tokens';
import { ClientKind, IConfigReply, IPendingEntry, IServerEntry } from './types';

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

  async answer(server: IServerEntry, pending: IPendingEntry, answer: IApprovalAnswer): Promise<void> {
    const path = `kernels/${encodeURIComponent(server.kernel_id)}/approvals/${encodeURIComponent(pending.id)}`;
    await requestAPI(path, {}, { method: 'POST', body: JSON.stringify(answer) });
    await this.refresh();
  }

  async setPaused(server: IServerEntry, paused: boolean): Promise<void> {
    const path = `kernels/${encodeURIComponent(server.kernel_id)}/pause`;
    await requestAPI(path, {}, { method: 'POST', body: JSON.stringify({ paused }) });
    await this.refresh();
  }

  dispose(): void {
    this._poll.dispose();
  }

  private async _fetch(): Promise<void> {
    try {
      this._servers = await requestAPI<IServerEntry[]>('servers');
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
  private _error: string | null = null;
  private _changed = new Signal<IMCPServers, void>(this);
}
