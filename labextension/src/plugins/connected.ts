import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { Dialog, showDialog } from '@jupyterlab/apputils';
import { ServerConnection } from '@jupyterlab/services';

import { connectedApps } from '../connected';
import { requestAPI } from '../request';
import { IMCPServers, IMCPSidebar } from '../tokens';
import { IAppEntry } from '../types';

const EVERY_MS = 5000;

/**
 * "Connected apps" at the end of the MCP sidebar: the clients signed in with Jupyter, with Revoke. Hidden
 * when the server offers no sign-in (`MCPExtensionApp.oauth = False`: `/api/mcp/apps` is not there).
 */
export const connectedAppsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp:connected-apps',
  description: 'Lists the MCP clients signed in with Jupyter in the MCP sidebar, and revokes them.',
  autoStart: true,
  requires: [IMCPSidebar, IMCPServers],
  activate: (_app: JupyterFrontEnd, sidebar: IMCPSidebar, servers: IMCPServers): void => {
    const view = new ConnectedAppsView();
    sidebar.addSection(view.node);
    // The sidebar's poll ticks every second; the apps are asked at most every few seconds.
    servers.changed.connect(() => view.refreshSoon());
    void view.refresh();
  }
};

class ConnectedAppsView {
  readonly node: HTMLElement = document.createElement('div');
  private _last = 0;
  private _drawn = '';

  constructor() {
    this.node.className = 'jp-MCP-connected-host';
    this.node.hidden = true;
  }

  refreshSoon(): void {
    if (Date.now() - this._last >= EVERY_MS) {
      void this.refresh();
    }
  }

  async refresh(): Promise<void> {
    this._last = Date.now();
    let apps: IAppEntry[];
    try {
      apps = await requestAPI<IAppEntry[]>('apps');
    } catch (error) {
      this.node.hidden = !(error instanceof ServerConnection.ResponseError && error.response.status !== 404);
      return;
    }
    this.node.hidden = false;
    const drawn = JSON.stringify(apps);
    if (drawn !== this._drawn) {
      this._drawn = drawn;
      this.node.replaceChildren(connectedApps(apps, app => void this._revoke(app)));
    }
  }

  private async _revoke(app: IAppEntry): Promise<void> {
    const answer = await showDialog({
      title: `Revoke ${app.client_name}?`,
      body: 'Its tokens stop working at once. To use your notebooks again, it must sign in again.',
      buttons: [Dialog.cancelButton(), Dialog.warnButton({ label: 'Revoke' })]
    });
    if (!answer.button.accept) {
      return;
    }
    await requestAPI<void>(`apps/${encodeURIComponent(app.grant_id)}`, {}, { method: 'DELETE' });
    await this.refresh();
  }
}
