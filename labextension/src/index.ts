import { JupyterFrontEndPlugin } from '@jupyterlab/application';

import { appsPlugin } from './plugins/apps';
import { approvalsPlugin } from './plugins/approvals';
import { serversPlugin } from './plugins/servers';
import { sidebarPlugin } from './plugins/sidebar';
import { statusPlugin } from './plugins/statusbar';
import { widgetsPlugin } from './plugins/widgets';

export { IMCPServers } from './tokens';

const plugins: JupyterFrontEndPlugin<unknown>[] = [
  serversPlugin,
  sidebarPlugin,
  statusPlugin,
  approvalsPlugin,
  appsPlugin,
  widgetsPlugin
];

export default plugins;
