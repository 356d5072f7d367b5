import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { IThemeManager, MainAreaWidget } from '@jupyterlab/apputils';
import { PathExt, URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';
import { Widget } from '@lumino/widgets';

import { IServerAddress } from '../apphost/host';
import { mcpIcon } from '../icon';
import { kernelServers } from '../agents';
import { IMCPServers } from '../tokens';

export const OPEN_APPS = 'jupyter-mcp:open-apps';

/**
 * JupyterLab as an MCP Apps host: the "MCP Apps" tab opens a tool's app the way a chat client shows it,
 * for the notebooks that serve tools (the sidebar's "App" buttons) and for any MCP server address typed
 * in. The host (`apphost/`, on the official AppBridge) is loaded on first use.
 */
export const appsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp:apps',
  description: 'Hosts MCP Apps: a tool of a notebook (or of any MCP server) opened with its app, as in a chat client.',
  autoStart: true,
  requires: [IMCPServers],
  optional: [IThemeManager],
  activate: (app: JupyterFrontEnd, servers: IMCPServers, themes: IThemeManager | null): void => {
    const settings = ServerConnection.makeSettings();
    const jupyterFetch = (input: string | URL, init?: RequestInit): Promise<Response> =>
      ServerConnection.makeRequest(String(input), init ?? {}, settings);
    const notebooks = (): IServerAddress[] =>
      kernelServers(servers).map(server => ({
        label: server.notebook_path ? PathExt.basename(server.notebook_path) : `kernel ${server.kernel_id}`,
        url: URLExt.join(settings.baseUrl, 'mcp/kernels', server.kernel_id),
        fetch: jupyterFetch
      }));
    const address = (url: string, token: string): IServerAddress => {
      const sameOrigin = new URL(url, window.location.href).origin === window.location.origin;
      const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
      // This Jupyter server's own routes take JupyterLab's credentials; others get the token given.
      return { label: url, url, fetch: sameOrigin ? jupyterFetch : undefined, headers };
    };
    let shown: MainAreaWidget | null = null;
    let view: import('../apphost/view').AppsView | null = null;

    app.commands.addCommand(OPEN_APPS, {
      label: 'Open MCP Apps',
      caption: "Call a tool and see its MCP App, as a chat client shows it (a notebook's tools, or any MCP server's)",
      icon: mcpIcon,
      execute: async args => {
        if (!shown || shown.isDisposed) {
          const { AppsView } = await import('../apphost/view');
          view = new AppsView({ servers: notebooks, address });
          const content = new Widget({ node: view.node });
          shown = new MainAreaWidget({ content });
          shown.id = 'jupyter-mcp-apps';
          shown.title.label = 'MCP Apps';
          shown.title.icon = mcpIcon;
          shown.title.closable = true;
          const current = view;
          shown.disposed.connect(() => current.dispose());
          app.shell.add(shown, 'main');
        }
        app.shell.activateById(shown.id);
        const kernel = typeof args['kernel_id'] === 'string' ? args['kernel_id'] : null;
        const url = kernel ? URLExt.join(settings.baseUrl, 'mcp/kernels', kernel) : null;
        if (view && url) {
          await view.show(url, typeof args['tool'] === 'string' ? args['tool'] : undefined);
        }
      }
    });
    servers.changed.connect(() => view?.refresh());
    themes?.themeChanged.connect(() => window.setTimeout(() => view?.restyle(), 100));
  }
};
