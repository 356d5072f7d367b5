/**
 * Drawing a notebook widget (a card or the server panel) into its cell output: the kernel syncs its
 * data (`ICardState`, `IPanelState`), this draws it with the component set and sends the user's actions
 * back as messages (`{action: ..., ...}`). One function for both ways the front end reaches a page: the
 * JupyterLab extension offers it to every notebook (`plugins/widgets.ts`), and the bundle a kernel sends
 * where no extension is installed (`index.ts`) wraps it with its own stylesheet.
 */
import { CardView, ICardState, IPanelState, PanelView } from '../ui';

/** The part of anywidget's model a view uses. */
export interface IModel {
  get(name: string): unknown;
  on(event: string, callback: () => void): void;
  off(event: string, callback: () => void): void;
  send(content: { [key: string]: unknown }): void;
}

export interface IRenderProps {
  model: IModel;
  el: HTMLElement;
}

type Send = (action: string, content?: { [key: string]: unknown }) => void;

function cardView(send: Send): CardView {
  return new CardView({
    enable: enabled => send('enable', { enabled }),
    run: values => send('run', { arguments: values }),
    reread: () => send('reread'),
    allow: (id, minutes) => send('allow', { call_id: id, minutes: minutes ?? null }),
    deny: (id, reason) => send('deny', { call_id: id, reason }),
    answer: (id, values) => send('answer', { call_id: id, values }),
    decline: id => send('decline', { call_id: id })
  });
}

function panelView(send: Send): PanelView {
  return new PanelView({
    pause: paused => send('pause', { paused }),
    enable: (kind, key, enabled) => send('enable', { kind, key, enabled }),
    limit: (client, readOnly) => send('limit', { client, read_only: readOnly }),
    reveal: revealed => send('reveal', { revealed }),
    pickClient: client => send('client', { client }),
    filter: change => send('filter', change),
    more: () => send('more'),
    clear: () => send('clear'),
    select: id => send('select', { call_id: id }),
    keep: id => send('keep', { call_id: id }),
    allow: (id, minutes) => send('allow', { call_id: id, minutes: minutes ?? null }),
    deny: (id, reason) => send('deny', { call_id: id, reason }),
    answer: (id, values) => send('answer', { call_id: id, values }),
    decline: id => send('decline', { call_id: id })
  });
}

/**
 * Where the browser shows the notebook (its origin, the Jupyter server's root and base URL): configs
 * under JupyterHub, and routes to a kernel that opens no port, need it.
 */
function pageFacts(): { origin: string; server_root: string; base_url: string } {
  const node = document.getElementById('jupyter-config-data');
  let config: { serverRoot?: unknown; baseUrl?: unknown } = {};
  try {
    config = JSON.parse(node?.textContent || '{}') as { serverRoot?: unknown; baseUrl?: unknown };
  } catch {
    // No JupyterLab page config (another front end): the origin alone is still worth knowing.
  }
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return { origin: window.location.origin, server_root: text(config.serverRoot), base_url: text(config.baseUrl) };
}

/** The synced traits of each view, by the state key they fill (`PanelState`, `CardState` in shapes.py). */
const CARD_TRAITS: { [key in keyof ICardState]: string } = {
  component: 'component',
  recent: 'recent',
  pending: 'pending',
  questions: 'questions',
  tryit: 'tryit',
  shown: 'shown',
  shown_empty: 'shown_empty'
};
const PANEL_TRAITS: { [key in keyof IPanelState]: string } = {
  header: 'header',
  connection: 'connection_state',
  clients: 'clients',
  components: 'components',
  history: 'history_state',
  detail: 'detail',
  pending: 'pending',
  questions: 'questions'
};

function stateOf<T>(model: IModel, traits: { [key: string]: string }): T {
  return Object.fromEntries(Object.entries(traits).map(([key, trait]) => [key, model.get(trait)])) as T;
}

/** Draws the view the model describes into `el`, and keeps it drawn; returns what stops that. */
export function render({ model, el }: IRenderProps): () => void {
  const send: Send = (action, content = {}) => model.send({ action, ...content });
  const panel = model.get('view') === 'panel';
  const traits = panel ? PANEL_TRAITS : CARD_TRAITS;
  const view = panel ? panelView(send) : cardView(send);
  let queued = false;
  const draw = (): void => {
    queued = false;
    if (view instanceof PanelView) {
      view.update(stateOf<IPanelState>(model, traits));
    } else {
      view.update(stateOf<ICardState>(model, traits));
    }
  };
  // One kernel message may change several traits: draw once for all of them.
  const changed = (): void => {
    if (!queued) {
      queued = true;
      queueMicrotask(draw);
    }
  };
  el.replaceChildren(view.node);
  draw();
  const events = Object.values(traits).map(trait => `change:${trait}`);
  events.forEach(event => model.on(event, changed));
  if (panel) {
    send('page', pageFacts());
  }
  return () => events.forEach(event => model.off(event, changed));
}
