import { ILayoutRestorer, JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';

import { NotebookToolsModel } from '../agents';
import { mcpIcon } from '../icon';
import { ToolsPanel } from '../panel';
import { IMCPServers, IMCPSidebar, PANEL_ID } from '../tokens';
import { OPEN_APPS } from './apps';

/**
 * The "MCP Tools" panel in the left sidebar.
 */
export const sidebarPlugin: JupyterFrontEndPlugin<IMCPSidebar> = {
  id: 'jupyter-mcp:sidebar',
  description: 'A left sidebar panel listing notebooks that serve MCP tools, with client configs.',
  autoStart: true,
  requires: [IMCPServers],
  optional: [ILayoutRestorer],
  provides: IMCPSidebar,
  activate: (app: JupyterFrontEnd, servers: IMCPServers, restorer: ILayoutRestorer | null): IMCPSidebar => {
    const panel = new ToolsPanel(
      servers,
      (server, tool) => app.commands.execute(OPEN_APPS, { kernel_id: server.kernel_id, tool: tool.name }),
      new NotebookToolsModel()
    );
    panel.id = PANEL_ID;
    panel.title.icon = mcpIcon;
    app.shell.add(panel, 'left', { rank: 850 });
    restorer?.add(panel, PANEL_ID);
    return panel;
  }
};
