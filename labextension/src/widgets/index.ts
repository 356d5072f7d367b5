/**
 * The notebook widgets' front end as a kernel sends it (bundled with its stylesheet into
 * `jupyter_mcp/widgets/static/widgets.js`; the loader imports it where the page offers no front end of
 * its own): `render` with the component set's stylesheet put in the page once.
 */
import css from '../../style/ui.css';
import { IRenderProps, render as draw } from './render';

/** The component set itself, for a page that draws with it directly (an MCP App document, the tests). */
export * as ui from '../ui';

const STYLE_ID = 'jupyter-mcp-ui-style';

/** The stylesheet, once per document (every card and panel shares it). */
function ensureStyle(root: HTMLElement): void {
  const doc = root.ownerDocument;
  if (!doc.getElementById(STYLE_ID)) {
    const style = doc.createElement('style');
    style.id = STYLE_ID;
    style.textContent = css;
    doc.head.append(style);
  }
}

function render(props: IRenderProps): () => void {
  ensureStyle(props.el);
  return draw(props);
}

export default { render };
