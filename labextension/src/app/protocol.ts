/**
 * The MCP Apps host protocol, app side: JSON-RPC 2.0 over `postMessage` with the window that hosts
 * this document (the host, or its sandbox proxy, which passes messages through).
 *
 * Written here rather than taken from `@modelcontextprotocol/ext-apps`' `App` class: `App` brings
 * the MCP SDK's `Protocol` and zod with it, 587 kB minified once bundled (measured with esbuild,
 * ext-apps 2.0.4), against a 300 kB budget for the whole document, while an app that draws a card
 * needs a dozen messages: `ui/initialize`, the notifications it is sent, `tools/call` and
 * `ui/update-model-context`. The shapes are the spec's (SEP-1865, 2026-01-26); the tests host this
 * document with the official `AppBridge` to hold them to it.
 */

export type JsonObject = { [key: string]: unknown };

/** A JSON-RPC error answered by the host. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message);
  }
}

interface IMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

type Handler = (params: JsonObject) => unknown;

const METHOD_NOT_FOUND = -32601;

/** One connection to the host: requests with answers, notifications both ways. */
export class HostConnection {
  constructor(private readonly _host: Window = window.parent) {
    window.addEventListener('message', this._onMessage);
  }

  /** Send a request; the promise settles with the host's answer (or rejects with `RpcError`). */
  request<T = JsonObject>(method: string, params: JsonObject = {}, timeoutMs = 120_000): Promise<T> {
    const id = this._nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this._waiting.delete(id);
        reject(new RpcError(-32001, `${method}: the host did not answer in ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this._waiting.set(id, {
        resolve: value => resolve(value as T),
        reject,
        timer
      });
      this._post({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: JsonObject = {}): void {
    this._post({ jsonrpc: '2.0', method, params });
  }

  /** Handle the host's notification `method` (one handler per method). */
  onNotification(method: string, handler: Handler): void {
    this._notifications.set(method, handler);
  }

  /** Answer the host's request `method` with what `handler` returns. */
  onRequest(method: string, handler: Handler): void {
    this._requests.set(method, handler);
  }

  close(): void {
    window.removeEventListener('message', this._onMessage);
    this._waiting.forEach(waiting => window.clearTimeout(waiting.timer));
    this._waiting.clear();
  }

  private _post(message: JsonObject): void {
    this._host.postMessage(message, '*');
  }

  private readonly _onMessage = (event: MessageEvent): void => {
    // Only the window that hosts this document speaks for the host.
    if (event.source !== this._host || !isMessage(event.data) || event.data.jsonrpc !== '2.0') {
      return;
    }
    const message = event.data;
    if (typeof message.method === 'string') {
      const params = isObject(message.params) ? message.params : {};
      if (message.id === undefined || message.id === null) {
        this._notifications.get(message.method)?.(params);
      } else {
        void this._answer(message.id, message.method, params);
      }
    } else if (typeof message.id === 'number') {
      this._settle(message.id, message);
    }
  };

  private async _answer(id: unknown, method: string, params: JsonObject): Promise<void> {
    const handler = this._requests.get(method);
    if (!handler) {
      this._post({ jsonrpc: '2.0', id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } });
      return;
    }
    try {
      this._post({ jsonrpc: '2.0', id, result: (await handler(params)) ?? {} });
    } catch (error) {
      this._post({ jsonrpc: '2.0', id, error: { code: -32603, message: String(error) } });
    }
  }

  private _settle(id: number, message: IMessage): void {
    const waiting = this._waiting.get(id);
    if (!waiting) {
      return;
    }
    this._waiting.delete(id);
    window.clearTimeout(waiting.timer);
    if (isObject(message.error)) {
      const code = typeof message.error['code'] === 'number' ? message.error['code'] : -32603;
      const text = message.error['message'];
      waiting.reject(new RpcError(code, typeof text === 'string' ? text : 'error'));
    } else {
      waiting.resolve(message.result);
    }
  }

  private _nextId = 1;
  private _waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: number }
  >();
  private _notifications = new Map<string, Handler>();
  private _requests = new Map<string, Handler>();
}

function isMessage(value: unknown): value is IMessage {
  return isObject(value);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
