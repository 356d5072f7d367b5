/**
 * The MCP App document's script (bundled with its stylesheet into
 * `jupyter_mcp/widgets/static/app.js` and inlined by the server into each tool's `ui://` document):
 * joins the host (`ui/initialize`), follows its theme, draws the tool's call as the notebook's card
 * does, asks the server how the call goes while it runs (the app-only status tool), reads a
 * preview's full value in chunks on demand, runs the tool again when the user asks (a real
 * `tools/call` through the host), and tells the model what the user sees (`ui/update-model-context`).
 */
import css from '../../style/ui.css';
import appCss from '../../style/app.css';
import { str } from '../ui';
import { HostConnection, isObject, JsonObject, RpcError } from './protocol';
import { applyDefaultLook, applyLook } from './theme';
import { AppView, ICallResult, ILiveStatus, ITool } from './view';

/** What the server embeds in the document (`jupyter_mcp/tools/apps/document.py`). */
interface IAppData {
  tool: ITool;
  companions: { status: string; read: string };
}

const APP_PROTOCOL_VERSION = '2026-01-26';
const APP_INFO = { name: 'jupyter-mcp card', version: '1.0.0' };
const POLL_MS = 1000;
const POLL_LIMIT = 3600;

function embedded(): IAppData {
  const node = document.getElementById('jmcp-app-data');
  return JSON.parse(node?.textContent ?? '{}') as IAppData;
}

function addStyle(text: string): void {
  const style = document.createElement('style');
  style.textContent = text;
  document.head.append(style);
}

class CardApp {
  constructor(private readonly _data: IAppData) {
    this._view = new AppView(_data.tool, {
      run: args => void this._rerun(args),
      loadFull: uri => void this._loadFull(uri)
    });
    document.getElementById('jmcp-app')?.replaceChildren(this._view.node);
  }

  async start(): Promise<void> {
    const host = this._host;
    host.onNotification('ui/notifications/tool-input', params => this._input(params));
    host.onNotification('ui/notifications/tool-input-partial', () => undefined);
    host.onNotification('ui/notifications/tool-result', params => this._result(params));
    host.onNotification('ui/notifications/tool-cancelled', params => this._cancelled(params));
    host.onNotification('ui/notifications/host-context-changed', params => applyLook(params));
    host.onRequest('ui/resource-teardown', () => this._teardown());
    host.onRequest('ping', () => ({}));
    const answer = await host.request<JsonObject>('ui/initialize', {
      appInfo: APP_INFO,
      appCapabilities: { availableDisplayModes: ['inline'] },
      protocolVersion: APP_PROTOCOL_VERSION
    });
    const context = isObject(answer['hostContext']) ? answer['hostContext'] : {};
    applyLook(context);
    this._useToolInfo(context);
    const capabilities = isObject(answer['hostCapabilities']) ? answer['hostCapabilities'] : {};
    this._canCall = isObject(capabilities['serverTools']);
    this._view.setCanRun(this._canCall);
    host.notify('ui/notifications/initialized', {});
    this._watchSize();
  }

  /** The name the host calls the tool by (at the all-notebooks address it has the notebook's prefix). */
  private _useToolInfo(context: JsonObject): void {
    const info = isObject(context['toolInfo']) ? context['toolInfo'] : {};
    const tool = isObject(info['tool']) ? info['tool'] : null;
    if (tool && typeof tool['name'] === 'string') {
      const name = tool['name'];
      const own = this._data.tool.name;
      this._prefix = name.endsWith(own) ? name.slice(0, name.length - own.length) : '';
      this._view.setTool({ ...this._data.tool, ...(tool as unknown as ITool), name });
    }
  }

  private _companion(which: 'status' | 'read'): string {
    return this._prefix + this._data.companions[which];
  }

  private _input(params: JsonObject): void {
    this._args = isObject(params['arguments']) ? params['arguments'] : {};
    this._view.setArguments(this._args);
    if (!this._finished) {
      this._view.setStatus(null);
      void this._poll(++this._generation);
    }
  }

  /** Ask the server how the call goes until its result is in (nothing is recorded by these asks). */
  private async _poll(generation: number): Promise<void> {
    for (let i = 0; i < POLL_LIMIT && this._canCall && generation === this._generation; i++) {
      try {
        const answer = await this._host.request<ICallResult & { structuredContent?: JsonObject }>('tools/call', {
          name: this._companion('status'),
          arguments: { tool: this._data.tool.name, arguments: this._args }
        });
        const found = answer.structuredContent;
        if (generation !== this._generation || this._finished) {
          return;
        }
        if (isObject(found) && found['found'] === true && isObject(found['call'])) {
          this._view.setStatus(found['call'] as unknown as ILiveStatus);
        }
      } catch {
        return; // a host that does not pass this call on: the result still comes as a notification
      }
      await new Promise(resolve => window.setTimeout(resolve, POLL_MS));
    }
  }

  private _result(result: ICallResult): void {
    this._finished = true;
    this._generation++;
    this._view.setResult(result);
    this._tellModel(result, false);
  }

  private _cancelled(params: JsonObject): void {
    this._finished = true;
    this._generation++;
    this._view.setCancelled(typeof params['reason'] === 'string' ? params['reason'] : '');
  }

  private async _rerun(args: JsonObject): Promise<void> {
    this._args = args;
    this._finished = false;
    const generation = ++this._generation;
    this._view.setRerun(args);
    void this._poll(generation);
    try {
      const result = await this._host.request<ICallResult>(
        'tools/call',
        { name: this._view.tool.name, arguments: args },
        600_000
      );
      this._finished = true;
      this._generation++;
      this._view.setResult(result, ' a new call, in the notebook’s history');
      this._tellModel(result, true);
    } catch (error) {
      this._finished = true;
      this._view.setProblem(error instanceof RpcError ? `The host refused the call: ${error.message}` : String(error));
    }
  }

  private async _loadFull(uri: string): Promise<void> {
    let offset: number | null = 0;
    let data = '';
    let mimeType = '';
    let encoding: 'text' | 'base64' = 'text';
    try {
      while (offset !== null) {
        const answer: ICallResult = await this._host.request<ICallResult>('tools/call', {
          name: this._companion('read'),
          arguments: { uri, offset }
        });
        const chunk: unknown = answer.structuredContent;
        if (answer.isError || !isObject(chunk)) {
          const text = (answer.content ?? []).map((block: JsonObject) => str(block['text'])).join(' ');
          throw new Error(text || 'the full value could not be read');
        }
        data += str(chunk['data']);
        mimeType = str(chunk['mimeType']);
        encoding = chunk['encoding'] === 'base64' ? 'base64' : 'text';
        offset = typeof chunk['next'] === 'number' ? chunk['next'] : null;
        this._view.setFullLoading(data.length, Number(chunk['total'] ?? 0));
      }
      this._view.setFull({ mimeType, encoding, data });
      this._updateModel(
        `The user opened the full value of ${uri} (${data.length.toLocaleString('en-US')} characters).`
      );
    } catch (error) {
      this._view.setFullFailed(error instanceof Error ? error.message : String(error));
    }
  }

  /** A short line for the model: what the card shows now. */
  private _tellModel(result: ICallResult, rerun: boolean): void {
    const content = Array.isArray(result.content) ? result.content : [];
    const status = result.isError ? 'failed' : 'returned';
    const value = result.structuredContent;
    const rows =
      isObject(value) && Array.isArray(value['result']) ? value['result'] : Array.isArray(value) ? value : null;
    const what = rows ? `${rows.length} item(s)` : `${content.length} content block(s)`;
    const who = rerun ? 'The user ran it again from the card: ' : 'The card shows: ';
    this._updateModel(`${who}${this._view.tool.name}(${JSON.stringify(this._args)}) ${status} ${what}.`);
  }

  private _updateModel(text: string): void {
    this._host.request('ui/update-model-context', { content: [{ type: 'text', text }] }).catch(() => undefined);
  }

  private _teardown(): JsonObject {
    this._generation++;
    this._resize?.disconnect();
    return {};
  }

  /** Tell the host the document's size whenever it changes (hosts size the frame to it). */
  private _watchSize(): void {
    let sent = '';
    const send = (): void => {
      const width = Math.ceil(document.documentElement.scrollWidth);
      const height = Math.ceil(document.documentElement.scrollHeight);
      const key = `${width}x${height}`;
      if (key !== sent) {
        sent = key;
        this._host.notify('ui/notifications/size-changed', { width, height });
      }
    };
    this._resize = new ResizeObserver(() => window.requestAnimationFrame(send));
    this._resize.observe(document.body);
    send();
  }

  private _host = new HostConnection();
  private _view: AppView;
  private _args: JsonObject = {};
  private _prefix = '';
  private _canCall = false;
  private _finished = false;
  private _generation = 0;
  private _resize: ResizeObserver | null = null;
}

addStyle(css);
addStyle(appCss);
applyDefaultLook();
const app = new CardApp(embedded());
app.start().catch((error: unknown) => console.error('jupyter-mcp app:', error));
