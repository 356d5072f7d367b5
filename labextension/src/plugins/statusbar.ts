import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { IStatusBar } from '@jupyterlab/statusbar';
import { Signal } from '@lumino/signaling';

import { StatusItem } from '../status';
import { IMCPServers, PANEL_ID } from '../tokens';
import { IServerEntry } from '../types';

/**
 * "MCP: N tools · M clients" for the current notebook (clicking opens the panel), with a Pause / Resume button.
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
    const refresh = (): void => {
      item.setServer(current());
      changed.emit();
    };
    servers.changed.connect(refresh);
    notebooks.currentChanged.connect(refresh);
    statusBar.registerStatusItem(statusPlugin.id, {
      item,
      align: 'left',
      rank: 5,
      isActive: () => current() !== undefined,
      activeStateChanged: changed
    });
  }
};
