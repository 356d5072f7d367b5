import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { IStatusBar } from '@jupyterlab/statusbar';
import { Signal } from '@lumino/signaling';

import { IElsewhere, StatusItem } from '../status';
import { IMCPServers, PANEL_ID } from '../tokens';
import { IServerEntry } from '../types';

/**
 * "MCP: 2 tools · 1 client" for the current notebook (clicking opens the panel), what waits for the user
 * in any notebook, and a Pause / Resume button.
 */
export const statusPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp:status',
  description: 'A status bar item with the current notebook’s MCP tools and clients.',
  autoStart: true,
  requires: [IMCPServers, IStatusBar, INotebookTracker],
  activate: (app: JupyterFrontEnd, servers: IMCPServers, statusBar: IStatusBar, notebooks: INotebookTracker): void => {
    const pause = (server: IServerEntry, paused: boolean): void => void servers.setPaused(server, paused);
    const item = new StatusItem(() => app.shell.activateById(PANEL_ID), pause);
    const changed = new Signal<StatusItem, void>(item);
    const current = (): IServerEntry | undefined => {
      const path = notebooks.currentWidget?.context.path;
      return path === undefined ? undefined : servers.forNotebook(path);
    };
    const elsewhere = (): IElsewhere => {
      const others = servers.servers.filter(server => server !== current());
      return {
        pending: others.reduce((n, server) => n + server.pending.length, 0),
        questions: others.reduce((n, server) => n + server.questions.length, 0)
      };
    };
    const refresh = (): void => {
      item.setServer(current(), elsewhere());
      changed.emit();
    };
    servers.changed.connect(refresh);
    notebooks.currentChanged.connect(refresh);
    statusBar.registerStatusItem(statusPlugin.id, {
      item,
      align: 'left',
      rank: 5,
      isActive: () => current() !== undefined || elsewhere().pending + elsewhere().questions > 0,
      activeStateChanged: changed
    });
  }
};
