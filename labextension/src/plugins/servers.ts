import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';

import { ServersModel } from '../model';
import { IMCPServers } from '../tokens';

/**
 * The shared, polled list of notebooks that serve MCP tools.
 */
export const serversPlugin: JupyterFrontEndPlugin<IMCPServers> = {
  id: 'jupyter-mcp:servers',
  description: 'Polls the jupyter-mcp server extension for notebooks that serve MCP tools.',
  autoStart: true,
  provides: IMCPServers,
  activate: (_app: JupyterFrontEnd): IMCPServers => new ServersModel()
};
