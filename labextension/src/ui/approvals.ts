/**
 * "Waiting for the notebook user": a client's call that needs approval (Allow, Allow this client for
 * N minutes, Deny with a reason) and a tool's question (a form from its schema, Send, Decline).
 *
 * The same controls in the tool card, the server panel and the JupyterLab sidebar; a control keeps
 * what was typed when its view redraws (views reuse them by id with `Controls`).
 */
import { callCode, h } from './dom';
import { button } from './controls';
import { SchemaForm } from './form';
import { IApprovalDetail, IPendingEntry, IQuestionEntry } from '../types';

/** Minutes "Allow this client for N min" offers first. */
export const ALLOW_FOR_MINUTES = 10;

export interface IApprovalHandlers {
  allow(minutes?: number): Promise<void> | void;
  deny(reason: string): Promise<void> | void;
}

/** `desk-agent wants to call reset_sales(region='north')`: the one sentence every view writes. */
export function pendingText(pending: IPendingEntry): string {
  return `${pending.client ?? 'A client'} wants to call ${pending.call}`;
}

/** `export_table asks you (for desk-agent): Which table?` */
export function questionText(question: IQuestionEntry): string {
  const client = question.client ? ` (for ${question.client})` : '';
  return `${question.tool} asks you${client}: ${question.message}`;
}

/**
 * What a waiting call will do, when its tool says: an edit's diff (added lines marked `+`, removed `-`,
 * each op on an `@@` line) or the code a run will run, in a scrolling block of its own.
 */
export function approvalDetail(detail: IApprovalDetail): HTMLElement {
  const body = h('pre', `jmcp-approval-detail jmcp-detail-${detail.kind}`);
  for (const line of detail.text.split('\n')) {
    const mark = detail.kind === 'diff' ? line.charAt(0) : '';
    const kind = mark === '+' ? 'add' : mark === '-' ? 'del' : mark === '@' ? 'op' : 'same';
    body.append(h('span', `jmcp-line jmcp-line-${kind}`, line), '\n');
  }
  body.tabIndex = 0; // scrollable with the keyboard
  body.setAttribute('aria-label', detail.title);
  return h('div', 'jmcp-approval-what', h('div', 'jmcp-approval-title', detail.title), body);
}

/** One waiting call with its three answers; answering disables the buttons until the view drops it. */
export class ApprovalControl {
  constructor(pending: IPendingEntry, handlers: IApprovalHandlers) {
    this.node = h('div', 'jmcp-approval');
    this.node.dataset.callId = pending.id;
    this.node.setAttribute('role', 'group');
    this.node.setAttribute('aria-label', pendingText(pending));
    const who = h('div', 'jmcp-approval-text', h('b', '', pending.client ?? 'A client'), ' wants to call ');
    who.append(callCode(pending.call));
    this._minutes = h('input', 'jmcp-input jmcp-minutes');
    this._minutes.type = 'number';
    this._minutes.min = '1';
    this._minutes.max = '1440';
    this._minutes.value = String(ALLOW_FOR_MINUTES);
    this._minutes.setAttribute('aria-label', 'minutes');
    this._reason = h('input', 'jmcp-input jmcp-reason');
    this._reason.placeholder = 'Reason (the client sees it)';
    this._reason.setAttribute('aria-label', 'reason for denying');
    const settle = (action: () => Promise<void> | void): void => {
      this._buttons.forEach(b => (b.disabled = true));
      void Promise.resolve(action()).catch((reason: unknown) => this._failed(reason));
    };
    const allow = button('Allow', 'accept', () => settle(() => handlers.allow()), 'Run this call');
    const allowFor = button(
      'Allow for',
      'default',
      () => settle(() => handlers.allow(this.minutes())),
      "Run this call, and this client's next calls without asking for the minutes given"
    );
    const deny = button(
      'Deny',
      'warn',
      () => settle(() => handlers.deny(this._reason.value)),
      'The client gets an error'
    );
    this._buttons = [allow, allowFor, deny];
    const forMinutes = h('span', 'jmcp-allow-for', allowFor, this._minutes, h('span', 'jmcp-unit', 'min'));
    this._error = h('div', 'jmcp-error');
    this._error.setAttribute('role', 'alert');
    this.node.append(
      who,
      pending.detail ? approvalDetail(pending.detail) : '',
      h('div', 'jmcp-actions', allow, forMinutes),
      h('div', 'jmcp-actions jmcp-deny-line', this._reason, deny),
      this._error
    );
  }

  readonly node: HTMLDivElement;

  minutes(): number {
    const value = Number(this._minutes.value);
    return Number.isFinite(value) && value > 0 ? value : ALLOW_FOR_MINUTES;
  }

  private _failed(reason: unknown): void {
    this._buttons.forEach(b => (b.disabled = false));
    this._error.textContent = `Could not answer: ${reason instanceof Error ? reason.message : String(reason)}`;
  }

  private _minutes: HTMLInputElement;
  private _reason: HTMLInputElement;
  private _buttons: HTMLButtonElement[];
  private _error: HTMLDivElement;
}

export interface IQuestionHandlers {
  answer(values: { [key: string]: unknown }): Promise<void> | void;
  decline(): Promise<void> | void;
}

/** A tool's question: its sentence, a form from its schema, Send and Decline. */
export class QuestionControl {
  constructor(question: IQuestionEntry, handlers: IQuestionHandlers) {
    this.node = h('div', 'jmcp-question');
    this.node.dataset.callId = question.id;
    this.node.setAttribute('role', 'group');
    this.node.setAttribute('aria-label', questionText(question));
    this.form = new SchemaForm(question.schema);
    const reply = (action: () => Promise<void> | void): void => {
      void Promise.resolve(action()).catch((reason: unknown) =>
        this.form.complain(reason instanceof Error ? reason.message : String(reason))
      );
    };
    const send = button(
      'Send',
      'accept',
      () => {
        const values = this.form.read();
        if (values !== null) {
          reply(() => handlers.answer(values));
        }
      },
      'Send these values back to the waiting tool'
    );
    const decline = button(
      'Decline',
      'default',
      () => reply(() => handlers.decline()),
      'Tell the tool you would rather not answer'
    );
    const who = h(
      'div',
      'jmcp-question-text',
      h('b', '', question.tool),
      ` asks you${question.client ? ` (for ${question.client})` : ''}: `
    );
    who.append(question.message);
    this.node.append(who, this.form.node, h('div', 'jmcp-actions', send, decline), this.form.error);
  }

  readonly node: HTMLDivElement;
  readonly form: SchemaForm;
}

/**
 * The controls a view shows now, by call id: a redraw reuses a control that is still waiting (so a
 * reason or an answer being typed survives) and forgets the answered ones.
 */
export class Controls<T extends { node: HTMLElement }> {
  constructor(private readonly _make: (id: string) => T) {}

  /** The controls for `ids`, in that order. */
  update(ids: string[]): T[] {
    const shown = ids.map(id => this._controls.get(id) ?? this._make(id));
    this._controls = new Map(ids.map((id, i) => [id, shown[i]]));
    return shown;
  }

  private _controls = new Map<string, T>();
}

/** The waiting calls and questions of one view, under a heading; `null` when nothing waits. */
export function waitingBox(approvals: ApprovalControl[], questions: QuestionControl[]): HTMLElement | null {
  if (approvals.length + questions.length === 0) {
    return null;
  }
  const title = approvals.length > 0 ? 'Waiting for your approval' : 'Questions for you';
  const box = h('div', 'jmcp-waiting', h('div', 'jmcp-waiting-title', title));
  box.append(...approvals.map(c => c.node));
  if (approvals.length > 0 && questions.length > 0) {
    box.append(h('div', 'jmcp-waiting-title', 'Questions for you'));
  }
  box.append(...questions.map(c => c.node));
  return box;
}
