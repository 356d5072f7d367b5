import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

/**
 * Call the server extension's REST API (`<base_url>/api/mcp/<endPoint>`) with the session's credentials.
 */
export async function requestAPI<T>(
  endPoint: string,
  query: Record<string, string> = {},
  init: RequestInit = {}
): Promise<T> {
  const settings = ServerConnection.makeSettings();
  const url = URLExt.join(settings.baseUrl, 'api/mcp', endPoint) + URLExt.objectToQueryString(query);
  const response = await ServerConnection.makeRequest(url, init, settings);
  const text = await response.text();
  if (!response.ok) {
    throw new ServerConnection.ResponseError(response, messageOf(text) ?? response.statusText);
  }
  return (text ? JSON.parse(text) : undefined) as T; // a 204 (DELETE) has no body
}

function messageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}
