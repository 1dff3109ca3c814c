import { Router } from 'express';
import { z } from 'zod';
import type { InvocationView } from '../../contract/invocation-api';
import { bodyBytes } from '../../engine/invocations/invocation-record';
import { cassetteSkeleton, unansweredCalls } from '../../engine/network/cassette-skeleton';
import { maskedAuth } from '../../engine/network/masker';
import { pageParams, paginate } from '../../lib/pagination';
import { type RunEvent, testFromRun, UntestableRun } from '../../testing/test-from-run';
import { HttpError, notFound } from '../edge/error-statuses';
import { ENDPOINT_PREFIX, REPLAY_HEADER } from '../ingress/endpoint-handler';
import type { ApiContext } from './api-context';
import { requestFields, requestHeaders, sendExactly } from './exact-request';
import { parseParams } from './params';
import { requestFilter } from './stream-routes';
import { sourceView } from './views';

/** A time given as epoch ms, or as an ISO date. */
const time = z.union([z.coerce.number().int().nonnegative(), z.iso.datetime({ offset: true }).transform((t) => Date.parse(t))]);

export const listSchema = pageParams.extend({
  status: z.enum(['ok', 'error', 'timeout', 'crashed']).optional(),
  trigger: z.enum(['http', 'timer', 'run_now', 'event', 'hook', 'action']).optional(),
  since: time.optional(),
  until: time.optional(),
  q: z.string().min(1).max(200).optional(),
  /** The stream's filter language (docs/api.md "Filters"). */
  filter: z.string().max(2000).optional(),
});

/** What a replay may change of the recorded request (HTTP) or event (other triggers). */
export const replaySchema = requestFields.extend({
  event: z.unknown().optional(),
});

/** Which component file a generated test loads: a plain file name beside the test. */
export const runTestSchema = z.object({
  file: z
    .string()
    .regex(/^[^/\\]+\.(mjs|js|cjs|ts|mts|cts)$/, 'must be a component file name such as new-order.mjs (no folder)')
    .optional(),
});

/** How long a replay waits for its run to be recorded. */
const REPLAY_WAIT_MS = 10 * 60_000;

/** Invocations: a source's list (filters, search), one by id with its deliveries, replay, and the SSE stream. */
export function invocationRoutes(ctx: ApiContext): Router {
  const router = Router();
  const findSource = (id: string) => {
    const source = ctx.sources.find(id);
    if (!source) throw notFound('source', id);
    return source;
  };

  const list = (owner: string, req: Parameters<typeof parseParams>[0]) => {
    const { limit, before, after, filter, ...query } = parseParams(req, listSchema);
    const parsed = requestFilter(ctx, filter);
    if (parsed.clauses.length === 0) return ctx.invocations.page(owner, query, { limit, before, after });
    return paginate(ctx.stream.filterRuns(parsed, ctx.invocations.list(owner, query), owner), { limit, before, after }, (kept) => ctx.invocations.read(kept));
  };

  router.get('/sources/:id/invocations', (req, res) => {
    res.json(list(findSource(req.params.id).id, req));
  });

  router.get('/components/:id/invocations', (req, res) => {
    const component = ctx.library.find(req.params.id);
    if (!component) throw notFound('component', req.params.id);
    res.json(list(component.id, req));
  });

  router.get('/invocations/:id', async (req, res) => {
    const record = ctx.invocations.get(req.params.id);
    if (!record) throw notFound('invocation', req.params.id);
    const eventIds = record.emits.flatMap((e) => (e.event_id ? [e.event_id] : []));
    const deliveries = (await ctx.delivery.messagesFor(eventIds)).filter((m) => m.emitter_id === record.owner_id);
    res.json({ data: { ...record, deliveries } });
  });

  // "Make a cassette": the calls of the run no recording answered, after its owner's cassette, to fill in.
  router.get('/invocations/:id/cassette-skeleton', (req, res) => {
    const record = ctx.invocations.get(req.params.id);
    if (!record) throw notFound('invocation', req.params.id);
    const calls = unansweredCalls([record]);
    res.json({ data: cassetteSkeleton(calls, ctx.network.cassettes.get(record.owner_id)), added: calls.length });
  });

  // A test from the run (`spout test --from`, "Save as test"): files the caller writes beside the component.
  router.get('/invocations/:id/test', (req, res) => {
    const record = ctx.invocations.get(req.params.id);
    if (!record) throw notFound('invocation', req.params.id);
    const { file } = parseParams(req, runTestSchema);
    const source = ctx.sources.find(record.owner_id);
    if (!source) throw new HttpError(409, `${record.id} is a run of ${record.owner_id}, not of a deployed source; only a source's runs become tests (write an action's with loadAction, docs/testing.md)`);
    const component = ctx.sources.component(source);
    const events: RunEvent[] = record.emits.flatMap((e) => {
      if (!e.event_id) return [];
      const stored = ctx.events.find(source.id, e.event_id);
      return [stored ? { event: JSON.parse(stored.json) as unknown, summary: stored.meta.summary } : null];
    });
    const configured = sourceView(source, component, ctx.endpointUrl).configured_props;
    const used = new Set(Object.values(configured).map((v) => (v as { authProvisionId?: unknown } | null)?.authProvisionId));
    // Credentials masked as the recorded calls hold them; a subdomain or region stays, so the test's calls match.
    const accounts = Object.fromEntries(ctx.metadata.data.accounts.filter((a) => used.has(a.id)).map((a) => [a.id, maskedAuth(JSON.parse(ctx.secrets.open(a.sealed_credentials)) as Record<string, unknown>)]));
    try {
      res.json({ data: testFromRun({ run: record, events, file: file ?? component?.filename ?? 'component.mjs', configured, accounts }) });
    } catch (err) {
      if (err instanceof UntestableRun) throw new HttpError(409, err.message);
      throw err;
    }
  });

  router.post('/invocations/:id/replay', async (req, res) => {
    res.json({ data: await replayRun(ctx, req.params.id, parseParams(req, replaySchema)) });
  });

  return router;
}

/** Runs a recorded run again (edited as asked): a request through its endpoint, another trigger with its event; answers the new record. */
export async function replayRun(ctx: ApiContext, id: string, edits: z.infer<typeof replaySchema>): Promise<InvocationView> {
  const record = ctx.invocations.get(id);
  if (!record) throw notFound('invocation', id);
  const source = ctx.sources.find(record.owner_id);
  if (!source) throw new HttpError(409, `${record.owner_id} no longer exists; only a deployed source's runs can be replayed`);
  if (record.trigger === 'hook') throw new HttpError(409, 'hooks run on deploy, update and delete; update the source to run them again');
  if (record.trigger === 'http') {
    if (!source.active) throw new HttpError(409, `${source.id} is inactive; activate it to replay a request to its endpoint`);
    return replayRequest(ctx, record, edits);
  }
  const trigger = record.trigger === 'event' && record.listened_to ? { kind: 'event' as const, ...record.listened_to } : { kind: record.trigger as 'timer' | 'run_now' };
  return (await ctx.sources.invoke(source, edits.event !== undefined ? edits.event : record.event, { trigger, replayOf: record.id })).record;
}

/** Sends a recorded request to its endpoint again (edited as asked), through the real HTTP path, and answers the new invocation. */
async function replayRequest(ctx: ApiContext, record: InvocationView, edits: z.infer<typeof replaySchema>): Promise<InvocationView> {
  const request = record.request!;
  const endpointId = new URL(request.endpoint_url).pathname.slice(ENDPOINT_PREFIX.length);
  if (!ctx.sources.byEndpoint(endpointId)) throw new HttpError(409, `the endpoint ${endpointId} no longer exists (its prop was removed from the component)`);
  if (edits.body === undefined && request.body_truncated) {
    throw new HttpError(409, `the recorded body was cut at ${Buffer.byteLength(request.body, request.body_encoding)} of its ${request.body_size} bytes; give a body to replay with`);
  }
  const method = (edits.method ?? request.method).toUpperCase();
  const query = edits.query ?? request.query;
  const url = `${ctx.endpointUrl(endpointId)}${edits.path ?? (request.path === '/' ? '' : request.path)}${query ? `?${query.replace(/^\?/, '')}` : ''}`;
  const body = method === 'GET' || method === 'HEAD' ? undefined : edits.body !== undefined ? Buffer.from(edits.body, 'utf8') : bodyBytes(request);
  const headers = requestHeaders(edits.headers ?? request.headers, body);
  headers.push([REPLAY_HEADER, record.id]);
  const started = Date.now();
  let cancel = () => {};
  const recorded = new Promise<InvocationView>((resolve, reject) => {
    const timer = setTimeout(() => cancel(), REPLAY_WAIT_MS);
    const stop = ctx.invocations.subscribe(record.owner_id, (r) => {
      if (r.replay_of !== record.id || r.started_at < started) return;
      clearTimeout(timer);
      stop();
      resolve(r);
    });
    cancel = () => {
      clearTimeout(timer);
      stop();
      reject(new HttpError(504, 'the replayed run was not recorded in time'));
    };
  });
  recorded.catch(() => undefined);
  try {
    const { status } = await sendExactly(url, method, headers, body);
    // Refused before the run (404, 413, 429): no run is recorded.
    if (![200, 502].includes(status) && !(await settledWithin(recorded, 1000))) throw new HttpError(409, `the endpoint answered ${status} without running the source`);
    return await recorded;
  } finally {
    cancel();
  }
}

/** True when the promise settles within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
