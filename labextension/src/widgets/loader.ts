/**
 * The loader every card and panel carries (anywidget's `_esm`, bundled into
 * `jupyter_mcp/widgets/static/loader.js`, about 1 kB): it draws with the front end the page offers when
 * that is the kernel's version (the JupyterLab extension, in JupyterLab and Notebook 7), else with the
 * bundle the kernel sent once in its front-end model (`IFrontEndState`: VS Code, Colab, a page without
 * the extension), imported once per page.
 */
import type { IFrontEndState } from '../ui/shapes';
import { IFrontEnd, offered } from './offer';
import type { IModel, IRenderProps } from './render';

/** The front-end model, as anywidget's model reaches it (`model.widget_manager`, ipywidgets' manager). */
interface ISourceModel {
  get<K extends keyof IFrontEndState>(name: K): IFrontEndState[K];
}

interface ILoaderModel extends IModel {
  widget_manager: { get_model(id: string): Promise<ISourceModel> };
}

const IMPORTED: unique symbol = Symbol.for('jupyter-mcp.front-ends-imported');

/** Every bundle this page imported, by digest (kernels of one version send the same one). */
function imported(): Map<string, Promise<IFrontEnd>> {
  const page = globalThis as { [IMPORTED]?: Map<string, Promise<IFrontEnd>> };
  return (page[IMPORTED] ??= new Map<string, Promise<IFrontEnd>>());
}

async function importBundle(bundle: string): Promise<IFrontEnd> {
  const url = URL.createObjectURL(new Blob([bundle], { type: 'text/javascript' }));
  try {
    return ((await import(/* webpackIgnore: true */ url)) as { default: IFrontEnd }).default;
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function frontEnd(model: ILoaderModel): Promise<IFrontEnd> {
  const named = model.get('_front_end');
  const reference = (typeof named === 'string' ? named : '').replace(/^IPY_MODEL_/, '');
  const source = await model.widget_manager.get_model(reference);
  const page = offered();
  if (page && page.version === source.get('version')) {
    return page;
  }
  const digest = source.get('digest');
  const known = imported();
  if (!known.has(digest)) {
    known.set(digest, importBundle(source.get('bundle')));
  }
  return known.get(digest)!;
}

async function render(props: IRenderProps): Promise<() => void> {
  try {
    return (await frontEnd(props.model as ILoaderModel)).render(props);
  } catch (reason) {
    props.el.textContent = `jupyter-mcp: this view's front end did not load (${String(reason)})`;
    return () => undefined;
  }
}

export default { render };
