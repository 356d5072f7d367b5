/**
 * Shapes of the server extension's REST replies (mirrors jupyter_mcp/serverext/servers.py and config.py).
 */

export interface IToolEntry {
  name: string;
  title: string | null;
  description: string | null;
  enabled: boolean;
  calls: number;
  errors: number;
  running: number;
}

export interface IResourceEntry {
  uri: string;
  name: string;
  title: string | null;
  description: string | null;
  mime_type: string | null;
  template: boolean;
  enabled: boolean;
  calls: number;
}

export interface IPromptEntry {
  name: string;
  title: string | null;
  description: string | null;
  arguments: string[];
  enabled: boolean;
  calls: number;
}

export interface IClientEntry {
  name: string;
  version: string;
  protocol_version: string;
  kind: string;
  since: number;
  last_seen: number;
}

export interface IServerEntry {
  kernel_id: string;
  notebook_path: string | null;
  started: number;
  version: string;
  live: boolean;
  tools: IToolEntry[];
  resources: IResourceEntry[];
  prompts: IPromptEntry[];
  clients: IClientEntry[];
  calls: number;
  routes: { kernel: string; notebook: string | null };
}

export type ClientKind = 'claude' | 'vscode' | 'cursor' | 'inspector';

export interface IConfigReply {
  client: ClientKind;
  notebook: string | null;
  kernel_id: string | null;
  url: string;
  config: { [key: string]: unknown };
}
