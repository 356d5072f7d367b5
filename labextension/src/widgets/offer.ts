/**
 * How a page offers the notebook widgets its own front end: one entry in the page's global symbol
 * registry, which the JupyterLab extension fills (`plugins/widgets.ts`) and each view's loader reads
 * (`loader.ts`). A symbol, not a module of the widget manager: a card's state names anywidget's module
 * only, so that it draws wherever anywidget does (VS Code, Colab, a page without the extension).
 */
import type { IRenderProps } from './render';

/** What draws a view: the component set behind `render`. */
export interface IFrontEnd {
  render(props: IRenderProps): () => void;
}

/** A front end a page offers, and the package version it was built from. */
export interface IOffer extends IFrontEnd {
  version: string;
}

export const OFFERED: unique symbol = Symbol.for('jupyter-mcp.front-end');

/** The page's offer, if it made one. */
export function offered(): IOffer | undefined {
  return (globalThis as { [OFFERED]?: IOffer })[OFFERED];
}

/** Offer `offer` to every notebook widget of this page (the last offer stands). */
export function offer(made: IOffer): void {
  (globalThis as { [OFFERED]?: IOffer })[OFFERED] = made;
}
