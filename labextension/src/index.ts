import { JupyterFrontEndPlugin } from '@jupyterlab/application';

import { serversPlugin } from './plugins/servers';
import { sidebarPlugin } from './plugins/sidebar';
import { statusPlugin } from './plugins/statusbar';

export { IMCPServers } from './tokens';

const plugins: JupyterFrontEndPlugin<unknown>[] = [serversPlugin, sidebarPlugin, statusPlugin];

export default plugins;
