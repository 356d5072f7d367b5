import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';

import { ApprovalNotifier } from '../approvals';
import { IMCPServers, PANEL_ID } from '../tokens';

/**
 * A JupyterLab notification for every client call that waits for the notebook user's approval, and for
 * every tool's question to the notebook user.
 */
export const approvalsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp:approvals',
  description: 'Notifies the user of MCP tool calls waiting for approval and of tools’ questions.',
  autoStart: true,
  requires: [IMCPServers],
  activate: (app: JupyterFrontEnd, servers: IMCPServers): void => {
    new ApprovalNotifier(servers, () => app.shell.activateById(PANEL_ID));
  }
};
