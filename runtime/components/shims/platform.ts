// Spout's own `@pipedream/platform`, bundled into components in place of the package so that
// registry code runs offline: the `axios` wrapper (on Node's fetch), ConfigurationError, the
// polling-timer constant, the OAuth 1.0a request helper and the file-stream helpers.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';

/** Default interval, in seconds, of a polling source's timer (15 minutes). */
export const DEFAULT_POLLING_SOURCE_TIMER_INTERVAL = 15 * 60;

/** A mistake in how a component is configured; Spout's API answers it with a 400 and its message. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/** The axios-style options the wrapper understands; other axios options are accepted and ignored. */
export interface AxiosRequestConfig {
  url?: string;
  method?: string;
  baseURL?: string;
  headers?: object;
  params?: object;
  paramsSerializer?: ParamsSerializer | { serialize?: ParamsSerializer };
  data?: unknown;
  auth?: { username?: string; password?: string };
  timeout?: number;
  responseType?: 'json' | 'text' | 'arraybuffer' | 'stream';
  validateStatus?: ((status: number) => boolean) | null;
  maxRedirects?: number;
  returnFullResponse?: boolean;
  debug?: boolean;
  // `any`, not `unknown`: only then can components pass configs typed with their own interfaces.
  [option: string]: any;
}

/** Turns `params` into a query string (without the leading `?`). */
export type ParamsSerializer = (params: Record<string, unknown>) => string;

/** What a request resolves to with `returnFullResponse: true`. */
export interface AxiosResponse {
  data: any;
  status: number;
  statusText: string;
  headers: Record<string, string | string[]>;
  config: AxiosRequestConfig;
}

/** A failed request; `response` is set when the server answered with a status `validateStatus` rejects. */
export class AxiosError extends Error {
  readonly isAxiosError = true;
  readonly status: number | undefined;
  constructor(
    message: string,
    readonly code: string,
    readonly config: AxiosRequestConfig,
    readonly response?: Omit<AxiosResponse, 'config'>,
  ) {
    super(message);
    this.name = 'AxiosError';
    this.status = response?.status;
  }
}

/**
 * Sends an HTTP request: `axios($, config)` with a step's `$` or a source's `this` (either may be
 * missing). Resolves to the response body, or the whole response with `returnFullResponse`.
 */
export async function axios(step: unknown, config?: AxiosRequestConfig, signConfig?: unknown): Promise<any> {
  // `axios(config)`: registry code that default-imports the module sometimes calls it without `$`.
  const [$, options] = config === undefined ? [undefined, (step ?? {}) as AxiosRequestConfig] : [step, config];
  if (signConfig !== undefined) {
    throw new ConfigurationError("axios: signing OAuth 1.0a requests through Pipedream's signer service is not available offline");
  }
  if (options.body != null) throw new ConfigurationError('axios: send the request body as `data`, not `body`');
  if (options.debug) exportTo($, 'debug_config', options);
  try {
    const response = await send(options);
    if (options.debug) exportTo($, 'debug_response', response.data);
    return options.returnFullResponse ? response : response.data;
  } catch (err) {
    if (options.debug && err instanceof AxiosError && err.response) exportTo($, 'debug', err.response);
    throw err;
  }
}

export default axios;

/**
 * The method, full URL and form fields of a request, as an OAuth 1.0a signer needs them. Switches
 * the config to RFC 3986 query encoding, so the request sent matches the URL that was signed.
 */
export function transformConfigForOauth(config: AxiosRequestConfig): { method: string; url: string; data?: Record<string, string> } {
  config.paramsSerializer = rfc3986Query;
  const request = { method: (config.method ?? 'get').toUpperCase(), url: requestUrl(config).toString() };
  const fields = oauthFormFields(config);
  return fields ? { ...request, data: fields } : request;
}

/** Size, type, date, name and etag of a file opened with getFileStreamAndMetadata. */
export interface FileMetadata {
  size: number;
  contentType?: string;
  lastModified?: Date;
  name?: string;
  etag?: string;
}

/** Opens a local file path or an http(s) URL as a readable stream. */
export async function getFileStream(pathOrUrl: string): Promise<Readable> {
  return (await getFileStreamAndMetadata(pathOrUrl)).stream;
}

/** Opens a local file path or an http(s) URL as a readable stream, with what is known about the file. */
export async function getFileStreamAndMetadata(pathOrUrl: string): Promise<{ stream: Readable; metadata: FileMetadata }> {
  return /^https?:\/\//i.test(pathOrUrl) ? openRemoteFile(pathOrUrl) : openLocalFile(pathOrUrl);
}

async function send(config: AxiosRequestConfig): Promise<AxiosResponse> {
  const url = requestUrl(config);
  const init = requestInit(config);
  try {
    const res = await fetch(url, init);
    if (!statusAccepted(config, res.status)) throw await statusError(res, config);
    const data = await readBody(res, config.responseType);
    return { data, status: res.status, statusText: res.statusText, headers: headerRecord(res.headers), config };
  } catch (err) {
    throw err instanceof AxiosError ? err : transportError(err, config);
  }
}

function requestUrl(config: AxiosRequestConfig): URL {
  const href = joinUrl(config.baseURL, config.url ?? '');
  if (!href) throw new ConfigurationError('axios: the request needs a url');
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new ConfigurationError(`axios: invalid URL "${href}"`);
  }
  const query = serializeParams(config);
  if (query) url.search = url.search ? `${url.search}&${query}` : query;
  return url;
}

/** Joins as axios does: a relative url is appended to baseURL's path, not resolved against it. */
function joinUrl(baseURL: string | undefined, url: string): string {
  if (!baseURL || /^[a-z][a-z\d+.-]*:\/\//i.test(url)) return url;
  return url ? `${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}` : baseURL;
}

function serializeParams(config: AxiosRequestConfig): string {
  const { params, paramsSerializer } = config;
  if (params == null) return '';
  if (params instanceof URLSearchParams) return params.toString();
  const custom = typeof paramsSerializer === 'function' ? paramsSerializer : paramsSerializer?.serialize;
  const fields = params as Record<string, unknown>;
  return custom ? custom(fields) : formEncode(fields).toString();
}

/** Encodes fields as a query or form body: arrays repeat their key; null and undefined are left out. */
function formEncode(fields: Record<string, unknown>): URLSearchParams {
  const encoded = new URLSearchParams();
  for (const [key, value] of fieldPairs(fields)) encoded.append(key, value);
  return encoded;
}

function fieldPairs(fields: Record<string, unknown>): Array<[string, string]> {
  return Object.entries(fields).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).filter((v) => v != null).map((v): [string, string] => [key, fieldText(v)]),
  );
}

function fieldText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function rfc3986Query(params: Record<string, unknown>): string {
  return fieldPairs(params)
    .map(([key, value]) => `${rfc3986(key)}=${rfc3986(value)}`)
    .join('&');
}

function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** OAuth 1.0a signs only form-encoded body fields. */
function oauthFormFields(config: AxiosRequestConfig): Record<string, string> | undefined {
  const type = headerValue(config.headers, 'content-type');
  const isForm = type?.includes('application/x-www-form-urlencoded') ?? false;
  if (typeof config.data === 'string' && (type === undefined || isForm)) return Object.fromEntries(new URLSearchParams(config.data));
  if (isForm && config.data && typeof config.data === 'object') return Object.fromEntries(fieldPairs(config.data as Record<string, unknown>));
  return undefined;
}

function headerValue(headers: object | undefined, name: string): string | undefined {
  const entry = Object.entries(headers ?? {}).find(([key, value]) => key.toLowerCase() === name && value != null);
  return entry && String(entry[1]);
}

function requestInit(config: AxiosRequestConfig): RequestInit {
  const method = (config.method ?? 'get').toUpperCase();
  const headers = requestHeaders(config);
  // fetch refuses a body on GET and HEAD, where axios would send it; such bodies are dropped.
  const body = method === 'GET' || method === 'HEAD' ? undefined : requestBody(config.data, headers);
  return {
    method,
    headers,
    body,
    redirect: config.maxRedirects === 0 ? 'manual' : 'follow',
    signal: config.timeout ? AbortSignal.timeout(config.timeout) : undefined,
    ...(body instanceof Readable ? { duplex: 'half' } : {}),
  };
}

function requestHeaders(config: AxiosRequestConfig): Headers {
  const headers = new Headers({ accept: 'application/json, text/plain, */*' });
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    if (value != null) headers.set(name, String(value));
  }
  if (config.auth) {
    const { username = '', password = '' } = config.auth;
    headers.set('authorization', `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`);
  }
  return headers;
}

/** Encodes `data` as axios would; may add a content-type header. */
function requestBody(data: unknown, headers: Headers): RequestInit['body'] {
  if (data == null) return undefined;
  if (typeof data === 'string' || data instanceof URLSearchParams || data instanceof Blob || data instanceof FormData) return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data as Uint8Array;
  if (isStream(data)) return streamBody(data, headers);
  if (headers.get('content-type')?.includes('application/x-www-form-urlencoded')) return formEncode(data as Record<string, unknown>);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return JSON.stringify(data);
}

interface StreamLike {
  pipe: unknown;
  getHeaders?: () => Record<string, unknown>;
}

function isStream(data: unknown): data is StreamLike {
  return typeof data === 'object' && data !== null && typeof (data as StreamLike).pipe === 'function';
}

/** A stream body; multipart bodies built with the form-data package bring their own headers, as axios applies them. */
function streamBody(data: StreamLike, headers: Headers): RequestInit['body'] {
  for (const [name, value] of Object.entries(data.getHeaders?.() ?? {})) {
    if (!headers.has(name) && value != null) headers.set(name, String(value));
  }
  const readable = data instanceof Readable ? data : new Readable().wrap(data as unknown as NodeJS.ReadableStream);
  return readable as unknown as RequestInit['body'];
}

function statusAccepted(config: AxiosRequestConfig, status: number): boolean {
  if (config.validateStatus === null) return true;
  return config.validateStatus ? config.validateStatus(status) : status >= 200 && status < 300;
}

/** Error bodies are always read as JSON or text, whatever the responseType, so they can be shown. */
async function statusError(res: Response, config: AxiosRequestConfig): Promise<AxiosError> {
  const data = await readBody(res, 'json');
  const response = { data, status: res.status, statusText: res.statusText, headers: headerRecord(res.headers) };
  const excerpt = bodyExcerpt(data);
  const message = `Request failed with status code ${res.status}${excerpt ? `: ${excerpt}` : ''}`;
  return new AxiosError(message, res.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST', config, response);
}

function bodyExcerpt(data: unknown): string {
  const text = typeof data === 'string' ? data : safeJson(data);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function transportError(err: unknown, config: AxiosRequestConfig): AxiosError {
  if ((err as Error | undefined)?.name === 'TimeoutError') {
    return new AxiosError(`timeout of ${config.timeout}ms exceeded`, 'ECONNABORTED', config);
  }
  // fetch reports network failures as "fetch failed"; the cause says what actually went wrong.
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const message = typeof cause?.message === 'string' ? cause.message : String((err as Error | undefined)?.message ?? err);
  return new AxiosError(message, typeof cause?.code === 'string' ? cause.code : 'ERR_NETWORK', config);
}

async function readBody(res: Response, responseType: AxiosRequestConfig['responseType']): Promise<unknown> {
  switch (responseType) {
    case 'arraybuffer':
      return Buffer.from(await res.arrayBuffer());
    case 'stream':
      return res.body ? Readable.fromWeb(res.body as NodeWebStream) : Readable.from([]);
    case 'text':
      return res.text();
    default:
      return parseJsonOrText(await res.text());
  }
}

function parseJsonOrText(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function headerRecord(headers: Headers): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = Object.fromEntries(headers);
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record['set-cookie'] = cookies;
  return record;
}

/** Hands a debug value to `$.export` when the step has it, else writes it to the log. */
function exportTo(step: unknown, key: string, value: unknown): void {
  const exporter = (step as { export?: unknown } | null | undefined)?.export;
  if (typeof exporter === 'function') exporter.call(step, key, value);
  else console.log(`export: ${key} - ${safeJson(value)}`);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.gif': 'image/gif',
  '.htm': 'text/html',
  '.html': 'text/html',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.json': 'application/json',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain',
  '.wav': 'audio/wav',
  '.webp': 'image/webp',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
};

async function openLocalFile(path: string): Promise<{ stream: Readable; metadata: FileMetadata }> {
  const info = await stat(path).catch(() => {
    throw new Error(`File not found: ${path}`);
  });
  const metadata: FileMetadata = {
    size: info.size,
    contentType: CONTENT_TYPES[extname(path).toLowerCase()],
    lastModified: info.mtime,
    name: basename(path),
  };
  return { stream: createReadStream(path), metadata };
}

async function openRemoteFile(url: string): Promise<{ stream: Readable; metadata: FileMetadata }> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`Failed to fetch ${url}: ${res.status} ${res.statusText}`);
  const modified = res.headers.get('last-modified');
  const known = {
    contentType: res.headers.get('content-type') ?? undefined,
    lastModified: modified ? new Date(modified) : undefined,
    name: new URL(url).pathname.split('/').pop() || undefined,
    etag: res.headers.get('etag') ?? undefined,
  };
  const length = res.headers.get('content-length');
  // fetch decompresses, so a length is the file's size only when the body was not encoded.
  if (length !== null && !res.headers.has('content-encoding')) {
    return { stream: Readable.fromWeb(res.body as NodeWebStream), metadata: { ...known, size: Number(length) } };
  }
  const content = Buffer.from(await res.arrayBuffer());
  return { stream: Readable.from([content]), metadata: { ...known, size: content.length } };
}
