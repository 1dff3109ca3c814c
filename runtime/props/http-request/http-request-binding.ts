// Worker side of `http_request` props: the configured request, and `execute()` sending it and
// resolving to an axios-like response, as registry actions use it (`(await this.req.execute()).data`).
import { configuredValue, type PropBinding } from '../shared/kind-interface';
import { isRecord } from '../shared/prop-shape';

type Pairs = Array<{ name: string; value: unknown }> | Record<string, unknown>;

/** A configured request: the builder's shape (name/value lists, body by type) or plain objects. */
export interface HttpRequestConfig {
  url?: string;
  method?: string;
  headers?: Pairs;
  params?: Pairs;
  body?: unknown;
  auth?: { type?: string; username?: string; password?: string; token?: string };
}

/** What `execute()` resolves to. */
export interface HttpRequestResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  data: unknown;
}

function entries(pairs: Pairs | undefined): Array<[string, string]> {
  if (!pairs) return [];
  const list = Array.isArray(pairs) ? pairs.map((p) => [p.name, p.value] as const) : Object.entries(pairs);
  return list.filter(([name, value]) => typeof name === 'string' && name !== '' && value !== undefined && value !== null).map(([n, v]) => [n, String(v)]);
}

/** The body to send and its content type, from the builder's `{type: "raw"|"fields", …}` or a plain value. */
function encodeBody(body: unknown): { text?: string; type?: string } {
  if (body === undefined || body === null) return {};
  if (typeof body === 'string') return { text: body };
  if (isRecord(body) && (body.type === 'raw' || body.type === 'fields')) {
    const type = typeof body.contentType === 'string' ? body.contentType : 'application/json';
    if (body.type === 'raw') return { text: typeof body.raw === 'string' ? body.raw : JSON.stringify(body.raw ?? ''), type };
    const fields = Object.fromEntries(entries(body.fields as Pairs | undefined));
    return type.includes('x-www-form-urlencoded') ? { text: new URLSearchParams(fields).toString(), type } : { text: JSON.stringify(fields), type };
  }
  return { text: JSON.stringify(body), type: 'application/json' };
}

/** Sends the configured request; a status of 400 or more rejects with the response attached, as axios does. */
export async function executeHttpRequest(config: HttpRequestConfig): Promise<HttpRequestResponse> {
  if (typeof config.url !== 'string' || config.url === '') throw new Error('http_request: no url is configured');
  const url = new URL(config.url);
  for (const [name, value] of entries(config.params)) url.searchParams.append(name, value);
  const headers = new Headers(entries(config.headers));
  const auth = config.auth;
  if (auth?.type === 'basic') headers.set('authorization', `Basic ${Buffer.from(`${auth.username ?? ''}:${auth.password ?? ''}`).toString('base64')}`);
  if (auth?.type === 'bearer' && auth.token) headers.set('authorization', `Bearer ${auth.token}`);
  const method = (config.method ?? 'GET').toUpperCase();
  const body = method === 'GET' || method === 'HEAD' ? {} : encodeBody(config.body);
  if (body.type && !headers.has('content-type')) headers.set('content-type', body.type);
  const res = await fetch(url, { method, headers, body: body.text });
  const text = await res.text();
  let data: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      // not JSON after all: the text is the data
    }
  }
  const response: HttpRequestResponse = { status: res.status, statusText: res.statusText, headers: Object.fromEntries(res.headers), data };
  if (res.status >= 400) throw Object.assign(new Error(`Request failed with status code ${res.status}`), { response });
  return response;
}

/** What `this.<http_request prop>` is: the configured request's fields and `execute()`. */
export function httpRequestProp(value: unknown): Record<string, unknown> {
  const config = (isRecord(value) ? value : {}) as HttpRequestConfig;
  return { ...config, execute: () => executeHttpRequest(config) };
}

/** `this.<http_request prop>`: the configured request, else the default one. */
export const bindHttpRequest: PropBinding = (name, def, host) => httpRequestProp(configuredValue(name, def, host));
