import { IUnionNotebook, IUnionReply } from './types';
import { clientItem, group, h, muted, plural, SEPARATOR, uniqueClients, uriCode } from './ui';

/**
 * "All notebooks": `<base_url>/mcp`, where clients find every notebook's tools under one config; each
 * notebook's prefix (and why one is longer than its own), the clients there and their read-only limit,
 * which applies in every notebook. Drawn with the component set (`./ui`); `copy` is the config buttons' row.
 */
export function unionSection(
  union: IUnionReply,
  limit: (client: string, readOnly: boolean) => void,
  copy: HTMLElement
): HTMLElement {
  const section = h('section', 'jp-MCP-union');
  section.setAttribute('aria-label', 'All notebooks: one address for every notebook’s tools');
  const tools = union.notebooks.reduce((count, notebook) => count + notebook.tools.length, 0);
  const facts = [plural(union.notebooks.length, 'notebook'), plural(tools, 'tool')].join(SEPARATOR);
  section.append(
    h('div', 'jp-MCP-union-title', 'All notebooks'),
    h('div', 'jp-MCP-union-facts jmcp-muted', `${facts} at `, uriCode(union.route, 'jp-MCP-union-route'))
  );
  section.append(group('Notebooks', 'jp-MCP-union-notebooks', union.notebooks.map(notebookItem)));
  for (const renamed of union.renamed) {
    section.append(h('div', 'jp-MCP-union-collision', renamed));
  }
  const clients = uniqueClients(union.clients);
  if (clients.length > 0) {
    const items = clients.map(client =>
      clientItem(client, union.read_only_clients.includes(client.name), readOnly => limit(client.name, readOnly))
    );
    section.append(group('Clients (read-only applies in every notebook)', 'jp-MCP-union-clients', items));
  }
  section.append(copy);
  return section;
}

function notebookItem(notebook: IUnionNotebook): HTMLElement {
  const path = notebook.notebook_path ?? `kernel ${notebook.kernel_id}`;
  const line = h('div', 'jmcp-item-line', h('code', 'jp-MCP-union-prefix', `${notebook.prefix}_…`), muted(path));
  const item = h('li', 'jmcp-item jp-MCP-union-notebook', line);
  item.title = notebook.tools.join(', ');
  if (notebook.collision !== null) {
    item.append(h('div', 'jp-MCP-union-collision', `Longer than its own: ${notebook.collision}`));
  }
  return item;
}
