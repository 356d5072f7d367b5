/**
 * jupyter-mcp's component set: one way to draw a tool, resource or prompt card, a call list, a call's
 * detail and result, and the controls that wait for the notebook user, from the data shapes the
 * kernel publishes (`shapes.ts`, `../types.ts`).
 *
 * Plain DOM and `--jp-*` CSS variables (with fallbacks), no JupyterLab imports: the labextension's
 * sidebar, status bar and notifications import it, the notebook widgets load it bundled into one
 * ES module (`jupyter_mcp/widgets/static/widgets.js`), and an MCP App document can inline the same bundle.
 * The stylesheet is `style/ui.css`.
 */
export * from './approvals';
export * from './calls';
export * from './card';
export * from './content';
export * from './controls';
export * from './dom';
export * from './form';
export * from './format';
export * from './panel';
export * from './schema';
export * from './shapes';
export * from './sidebar';
export * from './values';
