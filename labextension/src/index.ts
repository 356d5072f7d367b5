import { JupyterFrontEndPlugin } from '@jupyterlab/application';

import { appsPlugin } from './plugins/apps';
import { approvalsPlugin } from './plugins/approvals';
import { connectedAppsPlugin } from './plugins/connected';
import { serversPlugin } from './plugins/servers';
import { sidebarPlugin } from './plugins/sidebar';
import { statusPlugin } from './plugins/statusbar';
import { widgetsPlugin } from './plugins/widgets';

export { IMCPServers, IMCPSidebar } from './tokens';

const plugins: JupyterFrontEndPlugin<unknown>[] = [
  serversPlugin,
  sidebarPlugin,
  statusPlugin,
  approvalsPlugin,
  appsPlugin,
  widgetsPlugin,
  connectedAppsPlugin
];

export default plugins;
