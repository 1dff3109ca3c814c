import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { HOPS_HEADER, MAX_DELIVERY_HOPS } from '../../contract/delivery-protocol';
import type { EndpointExchange, HttpEvent } from '../../contract/endpoint-exchange';
import type { HttpResponsePayload } from '../../contract/host-protocol';
import type { RecordedRequest, RecordedResponse } from '../../contract/invocation-api';
import type { HttpEndpoints } from '../../engine/endpoints/http-endpoints';
import { recordBody } from '../../engine/invocations/invocation-record';
import { setsSessionCookie, withoutSessionCookies } from '../edge/auth';
import { errorAnswer, problemBody } from '../edge/error-statuses';
import { bodyDepthProblem } from './body-depth';
import { httpEvent } from './http-event';
import { RUN_NOW_HEADER, type RunNowRequests } from './run-now-requests';

/** Path prefix of HTTP interface endpoints. */
export const ENDPOINT_PREFIX = '/e/';

/** Request header naming the invocation a request replays (sent by POST /v1/invocations/{id}/replay); not passed to the component. */
export const REPLAY_HEADER = 'x-spout-replay-of';

const CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
  'access-control-max-age': '86400',
};

const SUCCESS_HEADERS = { ...CORS, 'content-type': 'application/json' };
const SUCCESS_BODY = JSON.stringify({ success: true });
/** As sent: with its length, so that the answer goes out in one write (see `sendWhole`). */
const SUCCESS_SENT = { ...SUCCESS_HEADERS, 'content-length': String(Buffer.byteLength(SUCCESS_BODY)) };

/**
 * Endpoints share the UI's origin, so a page a component serves would be same-origin with the
 * API: the sandbox gives it an opaque origin of its own (its scripts still run, its requests to
 * the API carry `Origin: null` and no session cookie).
 */
const SANDBOX_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/**
 * Sends a whole answer with its length, unless its headers already frame it: with the length known
 * node:http writes head and body in one piece, where `writeHead` alone leads to chunked encoding
 * and a write of four pieces (a sixth fewer answers a second on a bare server). A 1xx, 204 or 304
 * has no body to measure.
 */
function sendWhole(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer | undefined): void {
  if (body !== undefined && status >= 200 && status !== 204 && status !== 304 && !framed(headers)) {
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  }
  res.writeHead(status, headers).end(body);
}

function framed(headers: Record<string, string>): boolean {
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'transfer-encoding') return true;
  }
  return false;
}

/** Same shape as the API's problem responses. */
function problem(res: ServerResponse, status: number, detail: string): void {
  if (res.headersSent) return;
  sendWhole(res, status, { ...CORS, 'content-type': 'application/problem+json' }, problemBody(status, detail));
}

/** The headers of what `respond()` sent, as they go out: sandboxed, and never setting a UI session cookie. */
function componentHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  let csp: string | null = null;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'set-cookie' && setsSessionCookie(value)) continue;
    if (lower === 'content-security-policy') csp = value;
    else out[name] = value;
  }
  // A comma separates policies; each one applies, so the component's own stays in force.
  out['content-security-policy'] = csp ? `${csp}, ${SANDBOX_CSP}` : SANDBOX_CSP;
  return out;
}

function sendResponse(res: ServerResponse, r: HttpResponsePayload): void {
  sendWhole(res, r.status, { ...CORS, ...componentHeaders(r.headers) }, r.body === null ? undefined : typeof r.body === 'string' ? r.body : Buffer.from(r.body));
}

/** The request's headers as a component sees them (and as recorded): without the replay and run-now markers or UI session cookies. */
function eventHeaders(incoming: IncomingHttpHeaders): IncomingHttpHeaders {
  const headers = { ...incoming };
  delete headers[REPLAY_HEADER];
  delete headers[RUN_NOW_HEADER];
  if (headers.cookie === undefined) return headers;
  const kept = withoutSessionCookies(headers.cookie);
  if (kept === undefined) delete headers.cookie;
  else headers.cookie = kept;
  return headers;
}

/** The answer as recorded: what the component sent with respond(), or the service's own. */
function recordedResponse(status: number, headers: Record<string, string>, body: string | Uint8Array | null, from: RecordedResponse['from']): RecordedResponse {
  return { status, headers: { ...CORS, ...headers }, from, ...recordBody(body) };
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      req.resume();
      return resolve(null);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return; // over: the rest is drained, so the caller still reads the 413
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The deliveries a request's HOPS_HEADER counts: 0 without it, null when it is not a count. */
function deliveryHops(value: string | string[] | undefined): number | null {
  if (value === undefined) return 0;
  return typeof value === 'string' && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null;
}

/** Why a request `hops` deliveries deep is refused (see MAX_DELIVERY_HOPS), for the sender's attempt log. */
function loopDetail(hops: number): string {
  return `delivery loop: this request is Spout webhook delivery number ${hops} in a row (${HOPS_HEADER}: ${hops}) and an endpoint runs none past ${MAX_DELIVERY_HOPS}, so a webhook leads back to a Spout endpoint, directly or through a relay. Point that webhook at a receiver of your own, or subscribe the source to the other with POST /v1/subscriptions`;
}

/** The answer `finish(null)` gives when the component did not answer, as recorded. */
const SUCCESS_RECORDED = recordedResponse(200, SUCCESS_HEADERS, SUCCESS_BODY, 'service');

/** One request's exchange with the engine: the component's `respond()` or the service's answer, whichever comes first. */
function exchangeOf(res: ServerResponse, event: HttpEvent, request: RecordedRequest, replayOf: string | null, hops: number): EndpointExchange {
  let answered: RecordedResponse | null = null;
  return {
    event,
    request,
    replayOf,
    hops,
    respond(r) {
      if (answered || res.headersSent) return;
      answered = recordedResponse(r.status, componentHeaders(r.headers), r.body, 'component');
      sendResponse(res, r);
    },
    finish(failure) {
      if (answered || res.headersSent) return answered;
      if (failure === null) {
        res.writeHead(200, SUCCESS_SENT).end(SUCCESS_BODY);
        return (answered = SUCCESS_RECORDED);
      }
      problem(res, 502, failure);
      return (answered = recordedResponse(502, { 'content-type': 'application/problem+json' }, problemBody(502, failure), 'service'));
    },
  };
}

/**
 * HTTP interface endpoints `/e/{endpoint_id}[/sub/path]`: any method and any Host (they are meant
 * to be called from anywhere, tunnels included), answered once the run has ended and what it
 * emitted is stored, or by the component itself with `respond()`. Served by plain node:http: this
 * is the ingest path, and a router adds nothing here but cost. A request run now sent hands its
 * run to `runNow`.
 */
export function endpointHandler(endpoints: HttpEndpoints, bodyLimit: number, endpointUrl: (id: string) => string, runNow: RunNowRequests) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = req.url ?? '/';
      const queryAt = url.indexOf('?');
      const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
      const rest = pathname.slice(ENDPOINT_PREFIX.length);
      const slash = rest.indexOf('/');
      const endpointId = decodeURIComponent(slash === -1 ? rest : rest.slice(0, slash));
      const endpoint = endpoints.find(endpointId);
      if (!endpoint) return problem(res, 404, `no active source or workflow has the endpoint ${endpointId}`);
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { ...CORS, 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*' });
        return void res.end();
      }
      // Before anything runs: a delivery loop ends here, its reason in the sender's attempt log.
      const hops = deliveryHops(req.headers[HOPS_HEADER]);
      if (hops === null) {
        req.resume();
        return problem(res, 400, `${HOPS_HEADER}: "${String(req.headers[HOPS_HEADER])}" is not a count of deliveries; Spout's webhooks send a whole number from 1, other senders leave it out`);
      }
      if (hops > MAX_DELIVERY_HOPS) {
        req.resume();
        return problem(res, 409, loopDetail(hops));
      }
      const raw = await readBody(req, bodyLimit);
      if (raw === null) return problem(res, 413, `the request body is over the ${Math.round(bodyLimit / 1024 / 1024)} MB limit`);
      const replayOf = req.headers[REPLAY_HEADER];
      const headers = eventHeaders(req.headers);
      const at = endpointUrl(endpointId);
      const event = httpEvent(req, raw, {
        path: slash === -1 ? '/' : decodeURIComponent(rest.slice(slash)),
        queryString: queryAt === -1 ? null : url.slice(queryAt + 1),
        headers,
        fallbackOrigin: () => new URL(at).origin,
      });
      const tooDeep = bodyDepthProblem(event);
      if (tooDeep) return problem(res, 400, tooDeep);
      const request: RecordedRequest = {
        method: event.method,
        path: event.path,
        query: queryAt === -1 ? '' : url.slice(queryAt + 1),
        headers: headers as RecordedRequest['headers'],
        endpoint_url: at,
        ...recordBody(raw),
      };
      const run = endpoint.run(exchangeOf(res, event, request, typeof replayOf === 'string' ? replayOf : null, hops));
      runNow.started(req.headers[RUN_NOW_HEADER], run);
      await run;
    } catch (err) {
      const { status, detail } = errorAnswer(err);
      problem(res, status, detail);
    }
  };
}
