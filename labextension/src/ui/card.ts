/**
 * The card under a `%%mcp_tool`, `%%mcp_resource` or `%%mcp_prompt` cell: the component's header
 * and badges, its parameters, waiting approvals and questions, a preview (resources) or rendered
 * messages (prompts), the try-it form and its recent calls.
 *
 * `CardView.update(state)` redraws only the parts whose data changed, so a form being filled in, a
 * folded section or a reason being typed survive the card's live updates.
 */
import { ApprovalControl, Controls, QuestionControl, waitingBox } from './approvals';
import { callList, outcome } from './calls';
import { blocks } from './content';
import { badge, button, checkbox, statusBadge } from './controls';
import { fill, h, heading, muted, uriCode } from './dom';
import { SchemaForm } from './form';
import { outputSummary, parameters } from './schema';
import { ICardState, IComponent, ITryState } from './shapes';
import { table } from './values';

export interface ICardHandlers {
  enable(enabled: boolean): void;
  run(values: { [key: string]: unknown }): void;
  reread(): void;
  allow(id: string, minutes?: number): void;
  deny(id: string, reason: string): void;
  answer(id: string, values: { [key: string]: unknown }): void;
  decline(id: string): void;
}

const RECENT: { [kind: string]: [string, string] } = {
  tool: ['Recent calls', 'Not called yet.'],
  resource: ['Recent reads', 'Not read yet.'],
  prompt: ['Recent uses', 'Not used yet.']
};

export class CardView {
  constructor(private readonly _handlers: ICardHandlers) {
    this.node = h('div', 'jmcp jmcp-card');
    this._tryBody = h('div', 'jmcp-tryit');
    this._try = h('details', 'jmcp-section', h('summary', 'jmcp-section-title', 'Try it'), this._tryBody);
    this._recent = h('details', 'jmcp-section', h('summary', 'jmcp-section-title', 'Recent calls'), this._recentBody);
    this._recent.open = true;
    this.node.append(this._head, this._about, this._waiting, this._shown, this._try, this._recent);
    this._approvals = new Controls(id => {
      return new ApprovalControl(this._pending(id), {
        allow: minutes => this._handlers.allow(id, minutes),
        deny: reason => this._handlers.deny(id, reason)
      });
    });
    this._questions = new Controls(id => {
      return new QuestionControl(this._question(id), {
        answer: values => this._handlers.answer(id, values),
        decline: () => this._handlers.decline(id)
      });
    });
  }

  readonly node: HTMLDivElement;

  update(state: ICardState): void {
    this._state = state;
    const component = state.component;
    this.node.dataset.kind = component.kind;
    this.node.classList.toggle('jmcp-stale', component.status === 'replaced' || component.status === 'removed');
    this._redraw('head', component, () => fill(this._head, ...this._header(component)));
    this._redraw(
      'about',
      [component.description, component.input_schema, component.output_schema, component.completions],
      () => fill(this._about, ...this._aboutParts(component))
    );
    this._redraw('waiting', [state.pending, state.questions], () => this._drawWaiting(state));
    this._redraw('shown', [state.shown, state.shown_empty, component.kind], () => this._drawShown(state));
    this._redraw('try', [component.input_schema, component.try_label], () => this._drawForm(component));
    this._redraw('tryit', [state.tryit, component.status], () => this._drawResult(state.tryit, component));
    this._redraw('recent', [state.recent, component.kind], () => {
      const [title, empty] = RECENT[component.kind];
      this._recent.querySelector('summary')!.textContent = title;
      fill(this._recentBody, callList(state.recent, { empty }));
    });
  }

  /** Run `draw` when `data` differs from what the part last showed. */
  private _redraw(part: string, data: unknown, draw: () => void): void {
    const key = JSON.stringify(data);
    if (this._drawn.get(part) !== key) {
      this._drawn.set(part, key);
      draw();
    }
  }

  private _header(component: IComponent): Node[] {
    const names = h('div', 'jmcp-card-names', h('code', 'jmcp-name', component.name));
    if (component.title) {
      names.append(h('span', 'jmcp-title', component.title));
    }
    const badges = h('div', 'jmcp-badges', badge(component.status_text, component.status));
    badges.append(...component.badges.map(b => badge(b.text, b.kind, b.title)));
    const current = component.status === 'live' || component.status === 'disabled';
    const served = checkbox(
      'enabled',
      component.status === 'live',
      on => this._handlers.enable(on),
      `Serve this ${component.kind} to clients`
    );
    served.querySelector('input')!.disabled = !current;
    served.classList.add('jmcp-enabled');
    const top = h('div', 'jmcp-card-head', names, badges, served);
    const facts = component.kind === 'tool' ? muted(component.facts, 'jmcp-facts') : uriCode(component.key);
    return [top, h('div', 'jmcp-card-facts', facts)];
  }

  private _aboutParts(component: IComponent): Node[] {
    const parts: Node[] = [];
    if (component.description) {
      parts.push(h('div', 'jmcp-description', component.description));
    }
    if (component.input_schema) {
      parts.push(parametersTable(component));
    }
    const returns = outputSummary(component.output_schema);
    if (component.kind === 'tool' && returns) {
      parts.push(h('div', 'jmcp-returns', 'Returns ', h('code', '', returns)));
    }
    if (component.show_schemas) {
      const body = h(
        'div',
        '',
        heading('Input schema'),
        h('pre', 'jmcp-pre', JSON.stringify(component.input_schema ?? {}, null, 2))
      );
      if (component.output_schema) {
        body.append(heading('Output schema'), h('pre', 'jmcp-pre', JSON.stringify(component.output_schema, null, 2)));
      }
      parts.push(h('details', 'jmcp-schemas', h('summary', '', 'JSON schemas'), body));
    }
    return parts;
  }

  private _drawWaiting(state: ICardState): void {
    const approvals = this._approvals.update(state.pending.map(p => p.id));
    const questions = this._questions.update(state.questions.map(q => q.id));
    fill(this._waiting, waitingBox(approvals, questions));
  }

  private _pending(id: string): ICardState['pending'][number] {
    return this._state!.pending.find(p => p.id === id)!;
  }

  private _question(id: string): ICardState['questions'][number] {
    return this._state!.questions.find(q => q.id === id)!;
  }

  private _drawShown(state: ICardState): void {
    const kind = state.component.kind;
    if (kind === 'tool') {
      fill(this._shown);
      return;
    }
    const title = heading(kind === 'resource' ? 'Preview' : 'Messages');
    const body = state.shown
      ? h('div', 'jmcp-shown', h('div', 'jmcp-muted jmcp-shown-note', state.shown.note), blocks(state.shown.content))
      : h('div', 'jmcp-shown', muted(state.shown_empty));
    const parts: Node[] = [title, body];
    if (kind === 'resource' && !state.component.input_schema) {
      parts.push(
        h(
          'div',
          'jmcp-actions',
          button('Read again', 'default', () => this._handlers.reread(), 'Read it now (recorded in the history)')
        )
      );
    }
    fill(this._shown, ...parts);
  }

  private _drawForm(component: IComponent): void {
    this._try.hidden = !component.try_label;
    if (!component.try_label) {
      return;
    }
    const empty = `No ${component.kind === 'prompt' ? 'arguments' : 'parameters'}.`;
    this._form = new SchemaForm(component.input_schema, { empty });
    this._run = button(
      component.try_label,
      'accept',
      () => this._submit(),
      'Run it through the clients’ path (recorded in the history)'
    );
    fill(this._tryBody, this._form.node, h('div', 'jmcp-actions', this._run), this._form.error, this._result);
  }

  private _submit(): void {
    const values = this._form?.read();
    if (values) {
      this._handlers.run(values);
    }
  }

  private _drawResult(tryit: ITryState, component: IComponent): void {
    if (this._run) {
      this._run.disabled = tryit.running || component.status !== 'live';
      this._run.title =
        component.status === 'live' ? '' : 'Only a live one can be tried: enable it, or use the newest card';
    }
    if (tryit.running) {
      fill(this._result, h('div', 'jmcp-try-status', h('span', 'jmcp-spinner'), ' ', muted('running…')));
    } else if (tryit.result) {
      const result = tryit.result;
      const line = h(
        'div',
        'jmcp-try-status',
        statusBadge(result.status),
        muted(` in ${result.elapsed} · recorded in the call history`)
      );
      fill(this._result, line, outcome(result.outcome));
    } else {
      fill(this._result);
    }
  }

  private _state: ICardState | null = null;
  private _drawn = new Map<string, string>();
  private _head = h('div', 'jmcp-head');
  private _about = h('div', 'jmcp-about');
  private _waiting = h('div', 'jmcp-waiting-slot');
  private _shown = h('div', 'jmcp-shown-slot');
  private _try: HTMLDetailsElement;
  private _tryBody: HTMLDivElement;
  private _recent: HTMLDetailsElement;
  private _recentBody = h('div', 'jmcp-recent');
  private _result = h('div', 'jmcp-try-result');
  private _form: SchemaForm | null = null;
  private _run: HTMLButtonElement | null = null;
  private _approvals: Controls<ApprovalControl>;
  private _questions: Controls<QuestionControl>;
}

/** A parameter table: name, type, required, default, constraints, description (folds when narrow). */
export function parametersTable(component: IComponent): HTMLElement {
  const title = component.kind === 'prompt' ? 'Arguments' : 'Parameters';
  const rows = parameters(component.input_schema);
  if (rows.length === 0) {
    return h('div', 'jmcp-params-empty', heading(title), muted(`No ${title.toLowerCase()}.`));
  }
  const head = [title.toLowerCase().replace(/s$/, ''), 'type', 'required', 'default', 'constraints', 'description'];
  const cells = rows.map(row => {
    const rules = component.completions.includes(row.name) ? [...row.constraints, 'suggests values'] : row.constraints;
    return [row.name, row.type, row.required ? 'required' : 'optional', row.default, rules.join(', '), row.description];
  });
  const node = table(head, cells, 'jmcp-params');
  node.querySelectorAll('tbody tr').forEach(tr => {
    const [name, type, required, fallback] = Array.from(tr.children);
    name.classList.add('jmcp-mono', 'jmcp-param-name');
    type.classList.add('jmcp-mono');
    fallback.classList.add('jmcp-mono');
    required.classList.toggle('jmcp-muted', required.textContent === 'optional');
  });
  return h('div', 'jmcp-params-box', heading(title), node);
}
