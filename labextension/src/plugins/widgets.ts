import { JupyterFrontEndPlugin } from '@jupyterlab/application';

import { VERSION } from '../ui/shapes';
import { offer } from '../widgets/offer';
import { render } from '../widgets/render';

/**
 * Offers the notebook widgets (cards, the server panel) this extension's front end, with the stylesheet
 * JupyterLab already loaded: a kernel's views then carry only a small loader, and no page imports the
 * bundle each kernel sends for pages without the extension. Needs nothing, so Notebook 7 runs it too.
 */
export const widgetsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp:widgets',
  description: "Draws jupyter-mcp's notebook widgets with this extension's front end.",
  autoStart: true,
  activate: () => offer({ version: VERSION, render })
};
