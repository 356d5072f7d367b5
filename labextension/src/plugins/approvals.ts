import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';

import { ApprovalNotifier } from '../approvals';
import { IMCPServers } from '../tokens';

/**
 * A JupyterLab notification for every client call that waits for the notebook user's approval.
 */
export const approvalsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp:approvals',
  description: 'Notifies the user of MCP tool calls waiting for approval, with Allow and Deny buttons.',
  autoStart: true,
  requires: [IMCPServers],
  activate: (_app: JupyterFrontEnd, servers: IMCPServers): void => {
    new ApprovalNotifier(servers);
  }
};
