import { Notification } from '@jupyterlab/apputils';
import { PathExt } from '@jupyterlab/coreutils';

import { IMCPServers } from './tokens';
import { IPendingEntry, IQuestionEntry, IServerEntry } from './types';
import { ALLOW_FOR_MINUTES, pendingText, questionText } from './ui';

/**
 * The captions (tooltips) of the notifications' coloured buttons. JupyterLab Dark draws a notification's
 * accent and warn buttons black on blue (3.9:1) and on red (3.7:1), below WCAG AA; style/base.css gives
 * ours white labels, finding them by these captions (a notification takes no class of its own).
 */
export const CAPTIONS = {
  allow: 'Run this call',
  deny: 'The client gets an error',
  answer: 'Open the form in the MCP Tools sidebar'
} as const;

/**
 * Shows a JupyterLab notification for each call waiting for approval (Allow / Allow for N min / Deny) and
 * for each tool's question (Answer opens the sidebar's form / Decline), and dismisses it once answered —
 * here, in the sidebar, in the notebook or by its timeout.
 */
export class ApprovalNotifier {
  constructor(
    private readonly _servers: IMCPServers,
    private readonly _showPanel: () => void
  ) {
    this._servers.changed.connect(this._update, this);
    this._update();
  }

  dispose(): void {
    this._servers.changed.disconnect(this._update, this);
    for (const id of this._shown.values()) {
      Notification.dismiss(id);
    }
    this._shown.clear();
  }

  private _update(): void {
    const waiting = new Set<string>();
    for (const server of this._servers.servers) {
      for (const pending of server.pending) {
        const key = `${server.kernel_id}/${pending.id}`;
        waiting.add(key);
        if (!this._shown.has(key)) {
          this._shown.set(key, this._notify(server, pending));
        }
      }
      for (const question of server.questions) {
        const key = `${server.kernel_id}/question/${question.id}`;
        waiting.add(key);
        if (!this._shown.has(key)) {
          this._shown.set(key, this._ask(server, question));
        }
      }
    }
    for (const [key, id] of this._shown) {
      if (!waiting.has(key)) {
        Notification.dismiss(id);
        this._shown.delete(key);
      }
    }
  }

  private _ask(server: IServerEntry, question: IQuestionEntry): string {
    const decline = (): void =>
      void this._servers.reply(server, question, { action: 'decline' }).catch(reason => {
        Notification.error(`Could not decline the question of ${question.tool}: ${String(reason)}`, {
          autoClose: 5000
        });
      });
    return Notification.info(`MCP: ${questionText(question)}${where(server)}`, {
      autoClose: false,
      actions: [
        {
          label: 'Answer',
          caption: CAPTIONS.answer,
          displayType: 'accent',
          callback: this._showPanel
        },
        { label: 'Decline', caption: 'The tool is told you would rather not answer', callback: decline }
      ]
    });
  }

  private _notify(server: IServerEntry, pending: IPendingEntry): string {
    const answer = (decision: 'allow' | 'deny', minutes?: number): void =>
      void this._servers.answer(server, pending, { decision, minutes }).catch(reason => {
        Notification.error(`Could not answer the call of ${pending.tool}: ${String(reason)}`, { autoClose: 5000 });
      });
    return Notification.warning(`MCP: ${pendingText(pending)}${where(server)}`, {
      autoClose: false,
      actions: [
        { label: 'Allow', caption: CAPTIONS.allow, displayType: 'accent', callback: () => answer('allow') },
        {
          label: `Allow for ${ALLOW_FOR_MINUTES} min`,
          caption: `Run this call and this client's next ones for ${ALLOW_FOR_MINUTES} minutes without asking`,
          callback: () => answer('allow', ALLOW_FOR_MINUTES)
        },
        { label: 'Deny', caption: CAPTIONS.deny, displayType: 'warn', callback: () => answer('deny') }
      ]
    });
  }

  private _shown = new Map<string, string>();
}

/** " (sales.ipynb)": which notebook a notification is about. */
function where(server: IServerEntry): string {
  return server.notebook_path ? ` (${PathExt.basename(server.notebook_path)})` : '';
}
