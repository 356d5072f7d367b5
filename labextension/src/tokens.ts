import { Token } from '@lumino/coreutils';
import { ISignal } from '@lumino/signaling';

import {
  ClientKind,
  IApprovalAnswer,
  IConfigReply,
  IPendingEntry,
  IQuestionEntry,
  IQuestionReply,
  IServerEntry,
  IUnionReply
} from './types';

/**
 * The live list of notebooks that serve MCP tools, refreshed in the background.
 */
export interface IMCPServers {
  /** The latest list (empty until the first answer). */
  readonly servers: ReadonlyArray<IServerEntry>;
  /** The last refresh error, if the last refresh failed. */
  readonly error: string | null;
  /** Emitted after every refresh. */
  readonly changed: ISignal<IMCPServers, void>;
  /** The server of a notebook (by its path), if it serves tools. */
  forNotebook(path: string): IServerEntry | undefined;
  /** Refresh now instead of waiting for the next poll. */
  refresh(): Promise<void>;
  /** A client config pointing at the server's stable Jupyter route. */
  config(client: ClientKind, server: IServerEntry): Promise<IConfigReply>;
  /** Allow or deny a client's call waiting for approval in the server's notebook. */
  answer(server: IServerEntry, pending: IPendingEntry, answer: IApprovalAnswer): Promise<void>;
  /** The kill switch: pause (or resume) every tool of the server. */
  setPaused(server: IServerEntry, paused: boolean): Promise<void>;
  /** Answer (or decline) a tool's question to the notebook user (`ctx.ask_notebook_user`). */
  reply(server: IServerEntry, question: IQuestionEntry, reply: IQuestionReply): Promise<void>;
  /** Limit a connected client to read-only tools (`readOnly: false` lifts the limit). */
  limitClient(server: IServerEntry, client: string, readOnly: boolean): Promise<void>;
  /** `<base_url>/mcp`, every notebook's tools as one server (`null` until known, or while none serves). */
  readonly union: IUnionReply | null;
  /** A client config for `<base_url>/mcp`: one entry for every notebook. */
  unionConfig(client: ClientKind): Promise<IConfigReply>;
  /** Limit a client of any notebook to read-only tools, in every notebook (`readOnly: false` lifts it). */
  limitEverywhere(client: string, readOnly: boolean): Promise<void>;
}

export const IMCPServers = new Token<IMCPServers>('jupyter-mcp:servers', 'Notebooks that serve MCP tools.');

export const PANEL_ID = 'jupyter-mcp-tools';

/**
 * The "MCP Tools" sidebar, for features that add a section of their own below the notebooks.
 */
export interface IMCPSidebar {
  /** Keep `section` at the end of the sidebar (its owner keeps it up to date). */
  addSection(section: HTMLElement): void;
}

export const IMCPSidebar = new Token<IMCPSidebar>('jupyter-mcp:sidebar', 'The MCP Tools sidebar, to add sections to.');
