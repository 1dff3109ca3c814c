// Host side of outgoing HTTP calls: every request a component makes through fetch, http/https (and
// so axios and the SDKs built on them) is seen here. Each one is recorded for the invocation that
// made it; in replay modes it is answered from the source's cassette, which the service matches
// (host call `network`), and a call with no recording fails saying how to record it.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { BatchInterceptor } from '@mswjs/interceptors';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import type { RecordedBody } from '../../contract/invocation-api';
import type { CallRequest, CallResponse, NetworkMode, OutgoingCall } from '../../contract/network-api';
import { networkMatch } from './host-calls';
import { withPropertiesOf } from './same-properties';

// Captured before a test clock (test-clock.ts) replaces them: the host's own waits are real.
const realSetTimeout = setTimeout;
/** Milliseconds since `start` (performance.now()), which a test clock does not stop. */
const since = (start: number) => Math.round(performance.now() - start);

/** Bytes of a call's body kept in its record. */
const BODY_LIMIT = 64 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A body (of at most `size` bytes read) as recorded: text when it is UTF-8, else base64. */
function recorded(bytes: Uint8Array, size: number): RecordedBody {
  const kept = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const truncated = size > kept.length;
  try {
    return { body: strictUtf8.decode(kept), body_encoding: 'utf8', body_size: size, body_truncated: truncated };
  } catch {
    // A cut may split a character: then keep the bytes.
    return { body: kept.toString('base64'), body_encoding: 'base64', body_size: size, body_truncated: truncated };
  }
}

/** Reads at most BODY_LIMIT bytes of a body stream (counting the rest), without holding it all. */
async function readLimited(stream: ReadableStream<Uint8Array> | null): Promise<RecordedBody> {
  if (!stream) return recorded(new Uint8Array(0), 0);
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (kept < BODY_LIMIT) {
      const part = value.subarray(0, BODY_LIMIT - kept);
      chunks.push(part);
      kept += part.byteLength;
    }
  }
  return recorded(Buffer.concat(chunks), size);
}

function headersOf(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers);
}

interface InFlight {
  invocationId: string;
  /** performance.now() when it started. */
  started: number;
  request: CallRequest;
  /** Set once the response arrived, while its body is read. */
  reading: Promise<void> | null;
}

/** How long the end of a run waits for the bodies of responses that arrived during it. */
const SETTLE_MS = 2000;

export interface NetworkHooks {
  /** The invocation running now (calls are recorded for it), or null between runs. */
  current: () => string | null;
  /** Receives each finished call, with the invocation that made it. */
  onCall: (invocationId: string, call: OutgoingCall) => void;
  /** Told of each connection or lookup refused in replay, as it is refused. */
  onRefused: (invocationId: string, message: string) => void;
  /** A line for the run's logs: a call the cassette did not answer, named (an SDK may swallow its error). */
  onUnanswered: (invocationId: string, message: string) => void;
}

/** What discovery mode answers a call the cassette does not have: an empty success. */
const DISCOVERED: CallResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}', body_encoding: 'utf8', body_size: 2, body_truncated: false };

/** The error a connection or lookup gets in replay mode, which makes no live calls. */
function replayRefusal(what: string): Error {
  return Object.assign(new Error(`no recording of ${what}: network mode "replay" makes no live calls, and only HTTP calls (fetch, http, https and the clients built on them) can be answered from a cassette; use network mode "replay-or-live" to let this one out`), { code: 'ERR_SPOUT_NOT_RECORDED' });
}

/**
 * Keeps what the HTTP interceptors cannot see (raw TCP or TLS sockets: database drivers, SMTP,
 * HTTP/2, undici's own request(); DNS lookups) from going out while `replaying()` says so. The
 * interceptors' mock sockets never connect, so intercepted HTTP is not affected.
 */
function guardRawNetwork(replaying: () => boolean, refused: (error: Error) => Error): void {
  const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    if (!replaying()) return connect.apply(this, args);
    const [first, second] = args as [unknown, unknown];
    const options = (Array.isArray(first) ? first[0] : first) as { host?: string; port?: number; path?: string } | number | string;
    const where = typeof options === 'object' && options !== null ? (options.path ?? `${options.host ?? 'localhost'}:${options.port ?? ''}`) : `${typeof second === 'string' ? second : 'localhost'}:${String(options)}`;
    process.nextTick(() => this.destroy(refused(replayRefusal(`a connection to ${where}`))));
    return this;
  } as typeof net.Socket.prototype.connect;
  // The module's lookups, and those of Resolver objects (grpc-js asks one for TXT records).
  const guard = (target: object, promised: boolean) => {
    const fns = target as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(target).filter((n) => n === 'lookup' || n === 'lookupService' || n === 'reverse' || n.startsWith('resolve'))) {
      const fn = fns[name];
      if (typeof fn !== 'function') continue;
      fns[name] = withPropertiesOf(function (this: unknown, ...args: unknown[]) {
        if (!replaying()) return (fn as (...a: unknown[]) => unknown).apply(this, args);
        const error = refused(replayRefusal(`a DNS lookup of ${String(args[0])}`));
        if (promised) return Promise.reject(error);
        const callback = args.at(-1);
        if (typeof callback !== 'function') throw error;
        process.nextTick(() => (callback as (e: Error) => void)(error));
      }, fn);
    }
  };
  guard(dns, false);
  guard(dns.Resolver.prototype, false);
  guard(dns.promises, true);
  guard(dns.promises.Resolver.prototype, true);
  // ES modules importing `lookup` by name see the guarded one too.
  syncBuiltinESMExports();
}

/** Request targets the interception's HTTP parser reads: a path (`/…`), a full URL, or `*`. */
const READABLE_TARGET = /^(\/|\*$|[a-z][a-z\d+.-]*:\/\/)/i;

/**
 * Why the interception could not read the request these `http.request` arguments make, which Node
 * would send as it is, or null. Its socket parses each request to hand it on (to the cassette, or
 * out), and a request its parser refuses would wait forever, in every network mode, or throw
 * `Invalid URL` as it is made: a path without its leading `/` (`http.get({ path: "x" })`, what an
 * RSS client makes of a feed URL that is not one; a server answers it 400) or a method outside
 * `http.METHODS`. Such a request fails at once instead, on its `error` event, saying why; the
 * arguments it is made with instead (and destroyed before anything is sent) are readable ones.
 */
function unreadable(args: unknown[]): { error: Error; readable: unknown[] } | null {
  const at = args.findIndex((a) => typeof a === 'object' && a !== null && !(a instanceof URL));
  if (at === -1) return null;
  const options = args[at] as { method?: unknown; path?: unknown };
  const method = typeof options.method === 'string' ? options.method.toUpperCase() : 'GET';
  const path = typeof options.path === 'string' ? options.path : '/';
  const badMethod = !http.METHODS.includes(method);
  const badPath = !READABLE_TARGET.test(path);
  if (!badMethod && !badPath) return null;
  const problem = badMethod ? `its method ${JSON.stringify(method)} is not one of Node's http.METHODS` : `its path ${JSON.stringify(path)} does not start with "/"`;
  const error = Object.assign(new Error(`${method} ${path}: Spout's HTTP interception cannot carry this request: ${problem}`), { code: 'ERR_SPOUT_UNREADABLE_REQUEST' });
  const readable = [...args];
  // Without `href` too, which the interception reads before the rest (url.parse() gives one).
  const { href: _href, ...rest } = options as Record<string, unknown>;
  readable[at] = { ...rest, method: 'GET', path: '/' };
  return { error, readable };
}

/**
 * Some clients write a request only once its socket has connected (Stripe's SDK:
 * `socket.once('secureConnect', () => { req.write(body); req.end(); })`). The interceptors'
 * socket connects only once the request is decided, which needs the request: both would wait
 * forever, in every mode (mswjs/msw#2259; fixed in interceptors 0.42, which needs Node 22). So a
 * socket of the interceptors whose request has not been sent by the next turn says it connected.
 * A real socket has a handle from the start and is left alone.
 */
function connectEarly(): void {
  for (const [module, secure] of [
    [http, false],
    [https, true],
  ] as const) {
    for (const name of ['request', 'get'] as const) {
      const original = module[name] as (...args: unknown[]) => http.ClientRequest;
      (module as unknown as Record<string, unknown>)[name] = withPropertiesOf(function (this: unknown, ...args: unknown[]) {
        const refusal = unreadable(args);
        if (refusal) return original.apply(this, refusal.readable).destroy(refusal.error);
        const req = original.apply(this, args);
        req.once('socket', (socket: net.Socket & { _handle?: unknown }) => {
          setImmediate(() => {
            if (req.headersSent || !socket.connecting || socket._handle) return;
            (socket as { connecting: boolean }).connecting = false;
            socket.emit('connect');
            if (secure) socket.emit('secureConnect');
          });
        });
        return req;
      }, original);
    }
  }
  syncBuiltinESMExports();
}

/** Intercepts the host's outgoing HTTP; `setMode` follows the source's network mode. */
export class NetworkIntercept {
  private mode: NetworkMode = 'live';
  private readonly inFlight = new Map<string, InFlight>();

  constructor(private readonly hooks: NetworkHooks) {
    guardRawNetwork(
      () => this.mode === 'replay' || this.mode === 'discover',
      (error) => {
        const invocationId = this.hooks.current();
        if (invocationId) this.hooks.onRefused(invocationId, error.message);
        return error;
      },
    );
    const interceptor = new BatchInterceptor({ name: 'spout-host', interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()] });
    interceptor.apply();
    connectEarly();
    interceptor.on('request', ({ request, requestId, controller }) => this.onRequest(request, requestId, controller));
    interceptor.on('response', ({ response, requestId, isMockedResponse }) => {
      if (!isMockedResponse) this.onResponse(response, requestId);
    });
  }

  setMode(mode: NetworkMode): void {
    this.mode = mode;
  }

  /** Records the calls of a run that just ended: bodies still being read are waited for (briefly), calls with no answer are recorded as such. */
  async settle(invocationId: string): Promise<void> {
    const reading = [...this.inFlight.values()].filter((c) => c.invocationId === invocationId && c.reading).map((c) => c.reading);
    if (reading.length > 0) await Promise.race([Promise.all(reading), new Promise((r) => realSetTimeout(r, SETTLE_MS))]);
    for (const [id, call] of this.inFlight) {
      if (call.invocationId !== invocationId) continue;
      this.inFlight.delete(id);
      if (!call.reading) this.hooks.onCall(invocationId, { request: call.request, response: null, error: 'no response before the run ended (the request failed, or was still under way)', duration_ms: since(call.started), served_by: 'live', entry: null });
    }
  }

  private async onRequest(request: Request, requestId: string, controller: { respondWith(r: Response): void; errorWith(e?: unknown): void }): Promise<void> {
    const invocationId = this.hooks.current();
    const started = performance.now();
    const body = request.body ? await readLimited(request.clone().body) : recorded(new Uint8Array(0), 0);
    const call: CallRequest = { method: request.method, url: request.url, headers: headersOf(request.headers), ...body };
    if (this.mode !== 'live' && this.mode !== 'record') {
      const answer = await networkMatch(call);
      if (answer.fault === 'timeout' || answer.fault === 'reset') return this.fail(invocationId, call, started, answer.fault, request.signal, controller);
      if (answer.response) {
        const r = answer.response;
        if (invocationId) this.hooks.onCall(invocationId, { request: call, response: r, error: null, duration_ms: since(started), served_by: answer.fault ? 'fault' : 'cassette', entry: answer.entry });
        const bytes = Buffer.from(r.body, r.body_encoding);
        // Statuses without a body cannot carry one in a Response.
        const empty = r.status === 204 || r.status === 205 || r.status === 304;
        return controller.respondWith(new Response(empty ? null : bytes, { status: r.status, headers: withoutLength(r.headers) }));
      }
      if (this.mode === 'discover') {
        if (invocationId) {
          // The service's miss names the call masked (the host's own copy is not); its advice on recording is for replay.
          this.hooks.onUnanswered(invocationId, `discovery: answered 200 {} to a call the cassette lacks (the run's calls list it): ${(answer.miss ?? `no recording of ${call.method}`).split('; ')[0]}`);
          this.hooks.onCall(invocationId, { request: call, response: DISCOVERED, error: null, duration_ms: since(started), served_by: 'discovery', entry: null });
        }
        return controller.respondWith(new Response(DISCOVERED.body, { status: DISCOVERED.status, headers: DISCOVERED.headers }));
      }
      if (this.mode === 'replay') {
        const message = answer.miss ?? `no recording of ${call.method} ${call.url}`;
        if (invocationId) {
          this.hooks.onUnanswered(invocationId, message);
          this.hooks.onCall(invocationId, { request: call, response: null, error: message, duration_ms: since(started), served_by: 'cassette', entry: null });
        }
        return controller.errorWith(Object.assign(new Error(message), { code: 'ERR_SPOUT_NOT_RECORDED' }));
      }
    }
    if (invocationId) this.inFlight.set(requestId, { invocationId, started, request: call, reading: null });
  }

  /** True while a call that went out (live) has not had its answer. */
  liveCallsPending(): boolean {
    for (const call of this.inFlight.values()) if (!call.reading) return true;
    return false;
  }

  /** A test's fault (`network.fail`): the call never gets an answer, or its connection resets. */
  private async fail(invocationId: string | null, call: CallRequest, started: number, fault: 'timeout' | 'reset', signal: AbortSignal, controller: { errorWith(e?: unknown): void }): Promise<void> {
    const error = fault === 'reset' ? 'the connection was reset (a fault the test asked for)' : 'no answer came (a timeout the test asked for)';
    if (invocationId) this.hooks.onCall(invocationId, { request: call, response: null, error, duration_ms: since(started), served_by: 'fault', entry: null });
    if (fault === 'reset') return controller.errorWith(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    // A timeout never answers: the request waits until its client gives up (an abort, which the interceptors
    // answer themselves), or the run's own timeout ends the host. It is not a live call, so a test clock moves on.
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  private onResponse(response: Response, requestId: string): void {
    const call = this.inFlight.get(requestId);
    if (!call || call.reading) return;
    const headers = headersOf(response.headers);
    call.reading = readLimited(response.clone().body)
      .catch(() => recorded(new Uint8Array(0), 0))
      .then((body) => {
        this.inFlight.delete(requestId);
        this.hooks.onCall(call.invocationId, { request: call.request, response: { status: response.status, headers, ...body }, error: null, duration_ms: since(call.started), served_by: 'live', entry: null });
      });
  }
}

/** A recorded response's headers without its length: the body given to Response sets it. */
function withoutLength(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!['content-length', 'content-encoding', 'transfer-encoding'].includes(k.toLowerCase())) out[k] = v;
  return out;
}
