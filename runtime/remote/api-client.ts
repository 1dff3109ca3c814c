import http from 'node:http';
import https from 'node:https';
import { type ChangeOrigin, CLIENT_HEADER } from '../contract/change-api';
import type { ListResponse } from '../contract/page';
import type { Problem } from '../contract/problem';
import type { Target } from './profiles';

/** An error body as read: a Spout service's is a whole Problem; another service (Pipedream) may send only some of its fields. */
type ProblemBody = Partial<Problem>;

/** The service answered with an error; the message is what it said, ready to print. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problem: ProblemBody | null = null,
  ) {
    super(message);
  }
}

/** One server-sent event. */
export interface SseMessage {
  id: string | null;
  /** The SSE event type; `message` when the stream named none. */
  event: string;
  data: string;
}

export interface StreamOptions {
  onMessage: (message: SseMessage) => void;
  /** Resume after this id (`Last-Event-ID`); later reconnects resume after the last one seen. */
  lastEventId?: string | null;
  signal: AbortSignal;
  /** Told when the connection drops and when it is back (it reconnects until aborted). */
  onStatus?: (status: 'connected' | 'reconnecting', detail?: string) => void;
}

type Query = Record<string, string | number | boolean | undefined | null>;

/** A small client of the /v1 API: bearer key, JSON in and out, problem+json turned into messages. */
export class ApiClient {
  constructor(
    readonly target: Target,
    /** What this client is (`x-spout-client`): the service records it as who made a change. */
    readonly client: ChangeOrigin = 'cli',
  ) {}

  get url(): string {
    return this.target.url;
  }

  async request<T>(method: string, route: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let res: http.IncomingMessage;
    let text = '';
    try {
      res = await send(
        method,
        this.address(route, options.query),
        {
          authorization: `Bearer ${this.target.apiKey}`,
          accept: 'application/json',
          [CLIENT_HEADER]: this.client,
          ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
        body,
      );
      res.setEncoding('utf8');
      for await (const chunk of res) text += chunk as string;
    } catch (err) {
      throw this.unreachable(err);
    }
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) throw this.failure(status, text);
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(status, `${this.target.url} answered ${method} ${route} with something that is not JSON; is it ${this.target.service ?? 'a Spout service'}?`);
    }
  }

  get<T>(route: string, query?: Query): Promise<T> {
    return this.request<T>('GET', route, { query });
  }

  post<T>(route: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', route, { body: body ?? {} });
  }

  put<T>(route: string, body: unknown): Promise<T> {
    return this.request<T>('PUT', route, { body });
  }

  delete<T>(route: string, query?: Query): Promise<T> {
    return this.request<T>('DELETE', route, { query });
  }

  /** Every item of a paginated list (newest first), following `before` cursors; at most `max`. */
  async all<T>(route: string, query: Query = {}, max = 10_000): Promise<T[]> {
    const items: T[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await this.get<ListResponse<T>>(route, { ...query, limit: 100, before });
      items.push(...page.data);
      if (page.data.length < 100 || !page.page_info.end_cursor || items.length >= max || page.page_info.end_cursor === before) break;
      before = page.page_info.end_cursor;
    }
    return items.slice(0, max);
  }

  /**
   * Reads a server-sent event stream (`/sse/dc/{id}/emits`, `…/observations`) until `signal`
   * aborts, reconnecting with `Last-Event-ID` when it drops. A 4xx answer (the source was
   * deleted, the key refused) ends it with an ApiError.
   */
  async stream(route: string, options: StreamOptions): Promise<void> {
    let lastId = options.lastEventId ?? null;
    let delay = 250;
    let connectedOnce = false;
    while (!options.signal.aborted) {
      let dropped = 'the stream ended';
      try {
        const res = await send('GET', this.address(route), { authorization: `Bearer ${this.target.apiKey}`, accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) }, undefined, options.signal);
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          let text = '';
          res.setEncoding('utf8');
          for await (const chunk of res) text += chunk as string;
          if (status >= 400 && status < 500) throw this.failure(status, text);
          dropped = `the service answered ${status}`;
        } else {
          delay = 250;
          if (connectedOnce) options.onStatus?.('connected');
          connectedOnce = true;
          await readEvents(res, (m) => {
            if (m.id) lastId = m.id;
            options.onMessage(m);
          });
        }
      } catch (err) {
        if (options.signal.aborted) return;
        if (err instanceof ApiError) throw err;
        dropped = (err as Error & { code?: string }).code ?? (err as Error).message;
      }
      if (options.signal.aborted) return;
      options.onStatus?.('reconnecting', dropped);
      await sleep(delay, options.signal);
      delay = Math.min(delay * 2, 5000);
    }
  }

  private address(route: string, query?: Query): URL {
    const url = new URL(this.target.url + route);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    return url;
  }

  private unreachable(err: unknown): Error {
    const e = err as Error & { code?: string };
    const why = e.code ?? e.message;
    if (this.target.service) return new Error(`cannot reach ${this.target.service} at ${this.target.url} (${why}; from ${this.target.origin}); check the address and your network`);
    return new Error(`cannot reach the Spout service at ${this.target.url} (${why}; from ${this.target.origin}). Is it running? Start it with "spout serve", or point the CLI elsewhere with --api-url or -p PROFILE`);
  }

  private failure(status: number, text: string): ApiError {
    let problem: ProblemBody | null = null;
    try {
      problem = JSON.parse(text) as ProblemBody;
    } catch {
      // not problem+json
    }
    if (status === 401) {
      const fix = this.target.loginHint ? `save the right one with ${this.target.loginHint}` : 'give the right one with --api-key or SPOUT_API_KEY, or save it with "spout login"';
      return new ApiError(status, `${this.target.url} refused the API key (from ${this.target.keyOrigin}); ${fix}`, problem);
    }
    const detail = problem?.detail ?? problem?.error ?? (text.trim().slice(0, 300) || `HTTP ${status}`);
    return new ApiError(status, detail, problem);
  }
}

/** The message of an error as the CLI prints it: a problem's `errors` one per line. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError && err.problem?.errors?.length) {
    const head = err.message.startsWith('invalid component') ? 'invalid component' : err.message.split(/[:;]/)[0]?.trim() || 'invalid request';
    const lines = err.problem.errors.map((e) => `  ${e.path ? `${e.path}: ` : ''}${e.message}`);
    return `${head}:\n${lines.join('\n')}`;
  }
  return (err as Error).message;
}

/** One HTTP(S) request; resolves with the response once its headers are in (node:http: fast to load, no port blocklist). */
function send(method: string, url: URL, headers: Record<string, string>, body?: string, signal?: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, { method, headers, signal }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

/** Parses an SSE body into messages (comments and keepalives skipped). */
async function readEvents(body: http.IncomingMessage, onMessage: (m: SseMessage) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length) onMessage({ id, event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk as Buffer, { stream: true });
    let nl: number;
    while ((nl = buffer.search(/\r?\n/)) !== -1) {
      const text = buffer.slice(0, nl);
      buffer = buffer.slice(buffer[nl] === '\r' ? nl + 2 : nl + 1);
      line(text);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
