import { IAppEntry } from './types';
import { badge, button, group, h, muted, SEPARATOR, uriCode } from './ui';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * "Connected apps": the clients signed in with Jupyter (`GET /api/mcp/apps`), each with what its grant
 * allows (read-only or full, which notebooks, which route), who allowed it, its last use and when it ends,
 * and Revoke (its tokens stop working at once). Drawn with the component set (`./ui`).
 */
export function connectedApps(apps: ReadonlyArray<IAppEntry>, revoke: (app: IAppEntry) => void): HTMLElement {
  const section = h('section', 'jp-MCP-connected');
  section.setAttribute('aria-label', 'Connected apps: clients signed in with Jupyter');
  section.append(h('div', 'jp-MCP-connected-title', 'Connected apps'));
  if (apps.length === 0) {
    section.append(
      h(
        'p',
        'jmcp-muted jp-MCP-connected-empty',
        'No app has signed in. A client given only the address of /mcp signs in with your Jupyter account, ' +
          'and shows up here.'
      )
    );
    return section;
  }
  section.append(
    group(
      'Signed in with Jupyter',
      'jp-MCP-apps',
      apps.map(app => appItem(app, () => revoke(app)))
    )
  );
  return section;
}

export function appItem(app: IAppEntry, revoke: () => void): HTMLElement {
  const node = h('li', 'jmcp-item jp-MCP-app');
  node.dataset.grant = app.grant_id;
  const verified = app.verified
    ? badge('verified', 'verified', `Described by ${app.client_id}`)
    : badge('self-registered', 'unverified', 'It registered itself: its name is what it says');
  const revokeButton = button('Revoke', 'warn', revoke, `Revoke ${app.client_name}: its tokens stop working at once`);
  node.append(
    h('div', 'jmcp-item-line', h('span', 'jmcp-client-name', app.client_name), verified, revokeButton),
    h('div', 'jp-MCP-app-grant', muted(grantText(app))),
    h('div', 'jp-MCP-app-route', uriCode(app.resource, 'jmcp-uri jmcp-muted')),
    h('div', 'jp-MCP-app-use', muted(useText(app, Date.now() / 1000)))
  );
  return node;
}

/** `read-only · sales.ipynb, ops/` */
export function grantText(app: IAppEntry): string {
  const parts = [app.read_only ? 'read-only' : 'every tool'];
  parts.push(app.notebooks.length > 0 ? app.notebooks.join(', ') : 'every notebook');
  if (app.notebook_tools) {
    parts.push(`notebook tools: ${app.notebook_tools}`);
  }
  return parts.join(SEPARATOR);
}

/** `used 5 min ago · until revoked · allowed by alice` */
export function useText(app: IAppEntry, now: number): string {
  const used = app.last_used === null ? 'not used yet' : `used ${ago(now - app.last_used)}`;
  const until = app.expires_at === null ? 'until revoked' : `ends in ${span(app.expires_at - now)}`;
  return [used, until, `allowed by ${app.user}`].join(SEPARATOR);
}

function ago(seconds: number): string {
  return seconds < MINUTE ? 'just now' : `${span(seconds)} ago`;
}

function span(seconds: number): string {
  if (seconds < HOUR) {
    return `${Math.max(1, Math.round(seconds / MINUTE))} min`;
  }
  if (seconds < 2 * DAY) {
    return `${Math.round(seconds / HOUR)} h`;
  }
  return `${Math.round(seconds / DAY)} days`;
}
