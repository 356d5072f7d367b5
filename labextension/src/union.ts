import { copyButtons } from './copy';
import { element, plural } from './dom';
import { IMCPServers } from './tokens';
import { IClientEntry, IUnionNotebook, IUnionReply } from './types';

/**
 * "All notebooks": `<base_url>/mcp`, where clients find every notebook's tools under one config; each
 * notebook's prefix (and why one is longer than its own), the clients there and their read-only limit,
 * which applies in every notebook.
 */
export function unionSection(union: IUnionReply, servers: IMCPServers): HTMLElement {
  const section = element('section', 'jp-MCP-union');
  section.setAttribute('aria-label', 'All notebooks: one address for every notebook’s tools');
  section.append(element('div', 'jp-MCP-union-title', 'All notebooks'));
  const tools = union.notebooks.reduce((count, notebook) => count + notebook.tools.length, 0);
  const facts = `${plural(union.notebooks.length, 'notebook')} · ${plural(tools, 'tool')} at ${union.route}`;
  section.append(element('div', 'jp-MCP-union-facts', facts));
  const list = element('ul', 'jp-MCP-union-notebooks');
  list.append(...union.notebooks.map(notebookItem));
  section.append(list);
  for (const renamed of union.renamed) {
    section.append(element('div', 'jp-MCP-union-collision', renamed));
  }
  if (union.clients.length > 0) {
    section.append(clientList(union, servers));
  }
  section.append(copyButtons(client => servers.unionConfig(client)));
  return section;
}

function notebookItem(notebook: IUnionNotebook): HTMLElement {
  const item = element('li', 'jp-MCP-union-notebook');
  const line = element('div', 'jp-MCP-tool-line');
  line.append(element('code', 'jp-MCP-union-prefix', `${notebook.prefix}_…`));
  line.append(element('span', 'jp-MCP-union-path', notebook.notebook_path ?? `kernel ${notebook.kernel_id}`));
  item.append(line);
  item.title = notebook.tools.join(', ');
  if (notebook.collision !== null) {
    item.append(element('div', 'jp-MCP-union-collision', `Longer than its own: ${notebook.collision}`));
  }
  return item;
}

function clientList(union: IUnionReply, servers: IMCPServers): HTMLElement {
  const list = element('div', 'jp-MCP-clients');
  list.append(element('span', 'jp-MCP-clients-label', 'Connected:'));
  const names = new Set<string>();
  for (const client of union.clients) {
    if (!names.has(client.name)) {
      names.add(client.name);
      list.append(clientItem(union, client, servers));
    }
  }
  return list;
}

function clientItem(union: IUnionReply, client: IClientEntry, servers: IMCPServers): HTMLElement {
  const name = client.name || 'unnamed client';
  const item = element('span', 'jp-MCP-client-entry');
  item.append(element('span', 'jp-MCP-client', `${name} ${client.version}`.trim()));
  if (client.name) {
    const limited = union.read_only_clients.includes(client.name);
    const label = element('label', limited ? 'jp-MCP-read-only jp-mod-limited' : 'jp-MCP-read-only');
    const box = element('input', 'jp-MCP-read-only-box');
    box.type = 'checkbox';
    box.checked = limited;
    box.setAttribute('aria-label', `${client.name}: read-only tools only, in every notebook`);
    label.title = `Let ${client.name} call only the tools marked read-only, in every notebook`;
    box.addEventListener('change', () => void servers.limitEverywhere(client.name, box.checked));
    label.append(box, document.createTextNode('read-only'));
    item.append(label);
  }
  return item;
}
