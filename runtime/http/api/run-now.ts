// Run now on a source with an HTTP interface: a request sent to its endpoint through the real `/e/`
// path, so the ingress builds the event and the run is recorded as any request's is. The request
// is the caller's, a saved payload, the last request the source received, or the default request;
// fields given beside a payload (or without one) replace its own.
import { z } from 'zod';
import type { InvocationView, RecordedRequest } from '../../contract/invocation-api';
import type { RunRequest, RunRequestView } from '../../contract/run-request-api';
import type { RunNowView } from '../../contract/source-api';
import { bodyBytes } from '../../engine/invocations/invocation-record';
import type { SourceRecord } from '../../store/metadata';
import { HttpError } from '../edge/error-statuses';
import { RUN_NOW_HEADER } from '../ingress/run-now-requests';
import type { ApiContext } from './api-context';
import { requestFields, requestHeaders, sendExactly } from './exact-request';

/** A saved payload's name: it is part of the payload's URL and of `spout run --payload NAME`. */
export const payloadName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/, 'must be 1 to 64 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit');

/** What `POST /v1/sources/{id}/run` takes: a request (or parts of one), a saved payload's name, and which trigger runs. */
export const runNowSchema = requestFields.extend({
  payload: payloadName.optional(),
  sample: z.boolean().optional(),
  trigger: z.enum(['http', 'timer']).optional(),
});

type RunNowInput = z.infer<typeof runNowSchema>;

/** The request run now sends to a source that never received one: a JSON POST of `{}`. */
export const DEFAULT_REQUEST: Readonly<RunRequest> = Object.freeze({ method: 'POST', path: '/', query: '', headers: { 'content-type': 'application/json' }, body: '{}' });

const REQUEST_KEYS = ['method', 'path', 'query', 'headers', 'body'] as const;

/** The endpoint id run now sends to: the source's first HTTP interface's (undefined without one). */
function runEndpoint(source: SourceRecord): string | undefined {
  return Object.values(source.endpoints)[0];
}

/**
 * Whether run now sends `source` a request: when asked to (a request field, a payload, `trigger:
 * http`), and by default for a source with an HTTP interface and no timer; a source with a timer
 * runs with its timer's event unless asked otherwise. Asking for a trigger the source lacks is a 409.
 */
export function sendsRequest(ctx: ApiContext, source: SourceRecord, input: RunNowInput): boolean {
  const hasHttp = runEndpoint(source) !== undefined;
  const hasTimer = Object.keys(ctx.sources.timersOf(source)).length > 0;
  const given = input.payload !== undefined || input.sample === true || REQUEST_KEYS.some((k) => input[k] !== undefined);
  if (input.trigger === 'timer') {
    if (given) throw new HttpError(400, 'trigger "timer" runs with the timer\'s event: give a request (or payload) or trigger "timer", not both');
    if (!hasTimer) throw new HttpError(409, `${source.id} has no timer prop; run it without trigger "timer"`);
    return false;
  }
  if (given || input.trigger === 'http') {
    if (!hasHttp) throw new HttpError(409, `${source.id} has no HTTP interface prop, so there is no endpoint to send a request to; run it without a request`);
    return true;
  }
  return hasHttp && !hasTimer;
}

/** The newest run of the source started by a request to its endpoint. */
function lastRequestRun(ctx: ApiContext, source: SourceRecord): InvocationView | undefined {
  const [kept] = ctx.invocations.list(source.id, { trigger: 'http' });
  return kept ? ctx.invocations.read(kept) : undefined;
}

/** True when a recorded body cannot be shown as text to edit: binary, or cut at the record's limit. */
function bodyAsRecorded(request: RecordedRequest): boolean {
  return request.body_encoding === 'base64' || request.body_truncated;
}

/** The component's sample event (`sampleEmit`) as JSON text, or null when it ships none. */
function sampleOf(ctx: ApiContext, source: SourceRecord): string | null {
  return ctx.sources.component(source)?.sample_event ?? null;
}

/** The request that sends the sample event: a JSON POST of it (a webhook's body is most often what its source emits). */
function sampleRequest(ctx: ApiContext, source: SourceRecord): RunRequest {
  const sample = sampleOf(ctx, source);
  if (sample === null) throw new HttpError(409, `the component of ${source.id} ships no sample event (a \`sampleEmit\` export, as registry sources have in test-event.mjs); give a body instead`);
  return { ...DEFAULT_REQUEST, headers: { ...DEFAULT_REQUEST.headers }, body: JSON.stringify(JSON.parse(sample), null, 2) };
}

/** The request run now sends `source` when given none (`GET /v1/sources/{id}/run/request`): its last request, else its sample event, else the default. */
export function runRequestView(ctx: ApiContext, source: SourceRecord): RunRequestView {
  if (runEndpoint(source) === undefined) throw new HttpError(409, `${source.id} has no HTTP interface prop; run now gives it no request`);
  const last = lastRequestRun(ctx, source);
  const r = last?.request;
  const sample = sampleOf(ctx, source) === null ? null : sampleRequest(ctx, source).body;
  if (!last || !r) {
    const request = sample === null ? { ...DEFAULT_REQUEST, headers: { ...DEFAULT_REQUEST.headers } } : sampleRequest(ctx, source);
    return { request, from: sample === null ? 'default' : 'sample', invocation_id: null, body_as_recorded: false, sample };
  }
  const asRecorded = bodyAsRecorded(r);
  return { request: { method: r.method, path: r.path, query: r.query, headers: r.headers, body: asRecorded ? '' : r.body }, from: 'last_request', invocation_id: last.id, body_as_recorded: asRecorded, sample };
}

/** The request to send: the given fields over the saved payload's, or the last request's, or the default's; `bytes` a recorded binary body sent as it was. */
function requestToSend(ctx: ApiContext, source: SourceRecord, input: RunNowInput): { request: RunRequest; bytes?: Buffer } {
  let base: RunRequest = DEFAULT_REQUEST;
  let recorded: RecordedRequest | null = null;
  if (input.sample === true) {
    if (input.payload !== undefined) throw new HttpError(400, 'give a payload or sample, not both');
    base = sampleRequest(ctx, source);
  } else if (input.payload !== undefined) {
    const saved = ctx.payloads.get(source.id, input.payload);
    if (!saved) throw new HttpError(404, `${source.id} has no saved payload named "${input.payload}"; GET /v1/sources/${source.id}/payloads lists them`);
    base = saved;
  } else {
    recorded = lastRequestRun(ctx, source)?.request ?? null;
    if (recorded) base = recorded;
    else if (sampleOf(ctx, source) !== null) base = sampleRequest(ctx, source);
  }
  const request: RunRequest = { method: input.method ?? base.method, path: input.path ?? base.path, query: input.query ?? base.query, headers: input.headers ?? base.headers, body: input.body ?? base.body };
  if (input.body !== undefined || !recorded || !bodyAsRecorded(recorded)) return { request };
  if (recorded.body_truncated) throw new HttpError(409, `the last request's body was recorded only up to ${Buffer.byteLength(recorded.body, recorded.body_encoding)} of its ${recorded.body_size} bytes; give a body (or a saved payload) to send`);
  return { request, bytes: bodyBytes(recorded) };
}

/** The sub-path as sent: `path` is `event.path`, decoded, so each segment is encoded again. */
function encodedPath(path: string): string {
  return path === '/' ? '' : path.split('/').map(encodeURIComponent).join('/');
}

/** The detail of an endpoint's problem answer, or the start of its body. */
function answerDetail(body: string): string {
  try {
    const detail = (JSON.parse(body) as { detail?: unknown }).detail;
    if (typeof detail === 'string') return detail;
  } catch {
    // not a problem document
  }
  return body.slice(0, 200);
}

/**
 * Sends the run-now request to the source's endpoint and answers once its run is recorded. A
 * request the endpoint refuses before running the source (over its body limit, nested too deep) is
 * answered with the endpoint's status and why.
 */
export async function runRequestNow(ctx: ApiContext, source: SourceRecord, input: RunNowInput): Promise<RunNowView> {
  if (!source.active) throw new HttpError(409, `${source.id} is inactive, so its endpoint takes no requests; activate it to run it`);
  const { request, bytes } = requestToSend(ctx, source, input);
  const method = request.method.toUpperCase();
  const body = method === 'GET' || method === 'HEAD' ? undefined : (bytes ?? Buffer.from(request.body, 'utf8'));
  const endpointUrl = ctx.endpointUrl(runEndpoint(source) as string);
  const query = request.query.replace(/^\?/, '');
  // A request always names its host; the component's `event.url` and `event.headers.host` read it.
  const named = Object.keys(request.headers).some((h) => h.toLowerCase() === 'host') ? request.headers : { host: new URL(endpointUrl).host, ...request.headers };
  const headers = requestHeaders(named, body);
  const expected = ctx.runNow.expect();
  headers.push([RUN_NOW_HEADER, expected.token]);
  try {
    const answer = await sendExactly(`${endpointUrl}${encodedPath(request.path)}${query ? `?${query}` : ''}`, method, headers, body);
    const run = expected.run();
    if (!run) throw new HttpError(answer.status >= 400 && answer.status < 500 ? answer.status : 502, `the endpoint of ${source.id} answered ${answer.status} without running it: ${answerDetail(answer.body)}`);
    const record = (await run) as InvocationView;
    return {
      invocation_id: record.id,
      error: record.error ? { name: record.error.name, message: record.error.message } : null,
      emitted: record.emits.flatMap((e) => (e.event_id ? [e.event_id] : [])),
      emits_omitted: record.emits_omitted ?? null,
      request: record.request,
      response: record.response,
    };
  } finally {
    expected.forget();
  }
}
