import { type Request, Router } from 'express';
import { z } from 'zod';
import type { InvocationView } from '../../contract/invocation-api';
import type { SavedFilter, StreamRow } from '../../contract/stream-api';
import { FilterSyntaxError, type StreamFilter } from '../../engine/stream/stream-filter';
import { compileFilter } from '../../engine/stream/stream-match';
import { cursorOf } from '../../engine/stream/stream-reader';
import { pageParams } from '../../lib/pagination';
import type { KeptEvent, StoredEvent } from '../../store/event-store';
import { isSystemChannel } from '../../store/event-store';
import type { KeptRun } from '../../store/invocation-store';
import type { WorkflowRunRecord } from '../../store/workflow-run-log';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { parseParams } from './params';
import { type StreamItem, stream } from './sse-stream';

/** Runs whose events wait for their record on one SSE stream, at most. */
const MAX_WAITING_RUNS = 1000;

/** A filter's text, as the stream and saved filters take it. */
const filterText = z.string().max(2000);

/** The `filter` parameter of the stream and of the lists that take it. */
export const filterParam = z.object({ filter: filterText.optional() });

/** A page and a filter: the stream, and a source's logs. */
export const streamSchema = pageParams.extend(filterParam.shape);

/** Most filters saved. */
const MAX_SAVED_FILTERS = 200;

const savedFilterName = z.string().trim().min(1).max(80);

export const savedFiltersSchema = z.object({
  data: z
    .array(z.object({ name: savedFilterName, filter: filterText }).strict())
    .max(MAX_SAVED_FILTERS)
    .refine((list) => new Set(list.map((f) => f.name)).size === list.length, 'saved filter names must be unique'),
});

/** `PUT /v1/stream/filters/{name}`: the one filter saved under that name. */
export const savedFilterSchema = z.object({ filter: filterText }).strict();

/** A saved filter's name from the path, checked as a body's would be. */
function filterName(raw: string): string {
  const name = savedFilterName.safeParse(raw);
  if (!name.success) throw new HttpError(400, 'saved filter name: 1 to 80 characters, not only spaces');
  return name.data;
}

/** Checks that a saved filter parses; a 400 names it and the term. */
function checkSaved(ctx: ApiContext, f: SavedFilter): void {
  try {
    ctx.stream.parse(f.filter);
  } catch (err) {
    if (err instanceof FilterSyntaxError) throw new HttpError(400, `saved filter "${f.name}": ${err.message}`);
    throw err;
  }
}

/** The filter of a request, parsed; one that does not parse is a 400 naming the term. */
export function requestFilter(ctx: ApiContext, expr: string | undefined): StreamFilter {
  try {
    return ctx.stream.parse(expr);
  } catch (err) {
    if (err instanceof FilterSyntaxError) throw new HttpError(400, err.message);
    throw err;
  }
}

/** The stream of runs and events across sources, actions and workflows (`GET /v1/stream`), and its saved filters. */
export function streamRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.get('/stream', async (req, res) => {
    const { filter, ...page } = parseParams(req, streamSchema);
    res.json(await ctx.stream.page(requestFilter(ctx, filter), page));
  });

  router.get('/stream/count', async (req, res) => {
    const { filter } = parseParams(req, filterParam);
    res.json({ total_count: await ctx.stream.count(requestFilter(ctx, filter)) });
  });

  router.get('/stream/filters', (_req, res) => {
    res.json({ data: ctx.savedFilters.list() });
  });

  router.put('/stream/filters', async (req, res) => {
    const { data } = parseParams(req, savedFiltersSchema);
    for (const f of data) checkSaved(ctx, f);
    await ctx.savedFilters.put(data);
    res.json({ data: ctx.savedFilters.list() });
  });

  // One filter at a time, so that two windows saving or deleting at once never undo each other.
  router.put('/stream/filters/:name', async (req, res) => {
    const f = { name: filterName(req.params.name as string), filter: savedFilterSchema.parse(req.body ?? {}).filter };
    checkSaved(ctx, f);
    const list = ctx.savedFilters.list();
    if (list.length >= MAX_SAVED_FILTERS && !list.some((s) => s.name === f.name)) throw new HttpError(400, `at most ${MAX_SAVED_FILTERS} saved filters: delete one first`);
    await ctx.savedFilters.save(f);
    res.json({ data: ctx.savedFilters.list() });
  });

  router.delete('/stream/filters/:name', async (req, res) => {
    const name = filterName(req.params.name as string);
    if (!(await ctx.savedFilters.remove(name))) throw notFound('saved filter', name);
    res.json({ data: ctx.savedFilters.list() });
  });

  return router;
}

/** `GET /sse/stream?filter=`: new rows matching the filter as they are recorded; `Last-Event-ID` (a row's cursor) resumes. */
export function streamSseRoutes(ctx: ApiContext): Router {
  const router = Router();
  router.get('/stream', async (req: Request, res) => {
    const { filter: expr } = parseParams(req, filterParam);
    const filter = requestFilter(ctx, expr);
    const test = compileFilter(filter);
    const reader = ctx.stream;
    const item = (row: StreamRow): StreamItem => ({ id: cursorOf(row), data: row });
    const lastId = req.headers['last-event-id'];
    const backlog = typeof lastId === 'string' && /^\d+:/.test(lastId) ? (await reader.page(filter, { limit: 100, after: lastId })).data.reverse().map(item) : [];
    stream(res, backlog, (send) => {
      const offer = (subject: ReturnType<typeof reader.subjects.workflowSubject>) => {
        if (test(subject)) send(item(subject.delivery ? { ...subject.detail().row, delivery: subject.delivery } : subject.detail().row));
      };
      const offerEvent = (e: StoredEvent, run?: InvocationView) => {
        const routed = (e.deliver_to?.length ?? 0) > 0;
        const kept = { id: e.id, name: e.meta.name, routed } as KeptEvent;
        const runs = new Map(run ? [[run.id, run]] : []);
        offer(reader.subjects.eventSubject(kept, ctx.stream.target(e.emitter_id), runs, e, { state: routed ? 'pending' : 'none', attempts: 0 }));
      };
      // An event is stored before the run that emitted it ends: it waits for the run's record, so
      // its row has the run's method, path and answer as a page lists it, and terms on them match.
      const waiting = new Map<string, StoredEvent[]>();
      const stops = [
        ctx.invocations.subscribeAll((r) => {
          if (!r.workflow_step?.run_id) offer(reader.subjects.runSubject({ id: r.id, status: r.status, trigger: r.trigger, started_at: r.started_at } as KeptRun, ctx.stream.target(r.owner_id), r));
          const held = waiting.get(r.id);
          waiting.delete(r.id);
          for (const e of held ?? []) offerEvent(e, r);
        }),
        ctx.events.subscribeAll((e: StoredEvent) => {
          if (isSystemChannel(e.meta.name)) return;
          const runId = e.meta.invocation_id;
          if (!runId || ctx.invocations.get(runId)) return offerEvent(e);
          const held = waiting.get(runId);
          if (held) held.push(e);
          else waiting.set(runId, [e]);
          // Runs that never end (a host killed mid-run is recorded; this bounds the rest): the oldest go without.
          if (waiting.size > MAX_WAITING_RUNS) {
            const [oldest, events] = waiting.entries().next().value as [string, StoredEvent[]];
            waiting.delete(oldest);
            for (const x of events) offerEvent(x);
          }
        }),
        ctx.stream.subscribeWorkflowRuns((run: WorkflowRunRecord) => offer(reader.subjects.workflowSubject(run, ctx.stream.target(run.workflow_id), ctx.stream.workflowTrigger(run.workflow_id)))),
      ];
      return () => {
        for (const stop of stops) stop();
      };
    });
  });
  return router;
}
