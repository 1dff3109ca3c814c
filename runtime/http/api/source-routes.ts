import { Router } from 'express';
import { z } from 'zod';
import { fetchComponentCode } from '../../components/fetch-code';
import { bundleFileSet } from '../../components/file-set';
import type { Warning } from '../../contract/component-api';
import { NETWORK_MODES } from '../../contract/network-api';
import { sourceProps } from '../../engine/sources/dynamic-props';
import { pageParams, paginate } from '../../lib/pagination';
import { appAccountWarnings } from '../../props/app/app-prop';
import { cassetteSchema } from '../../store/cassette-schema';
import { isEventId } from '../../store/event-id';
import { isSystemChannel } from '../../store/event-store';
import type { ComponentRecord, SourceRecord } from '../../store/metadata';
import { requireBearer } from '../edge/auth';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { baseVersionParam, changeOf, changeOrigin } from './change-origin';
import { componentCode, componentFilename, componentFiles, componentUrl, entryFile } from './component-input';
import { codeFiles } from './component-routes';
import { booleanParam, objectParam, parseParams } from './params';
import { registryComponent, registryNotFound } from './registry-routes';
import { runNowSchema, runRequestNow, sendsRequest } from './run-now';
import { filterParam, requestFilter, streamSchema } from './stream-routes';
import { eventSummary, sourceView } from './views';

/** A source's own run timeout. */
const timeoutSeconds = z.coerce.number().int('must be a whole number of seconds').min(1).max(3600);

/** How a source's outgoing HTTP calls are served (docs/runtime.md). */
const networkMode = z.enum(NETWORK_MODES);

/** Folders granted to a source's component (docs/security.md). */
const permissions = z.object({
  read: z.array(z.string().min(1)).default([]),
  write: z.array(z.string().min(1)).default([]),
});

export const deploySchema = z.object({
  component_code: componentCode.optional(),
  component_url: componentUrl.optional(),
  component_id: z.string().min(1).optional(),
  component_key: z.string().min(1).optional(),
  component_filename: componentFilename,
  name: z.string().min(1).max(200).optional(),
  configured_props: objectParam.optional(),
  timeout_seconds: timeoutSeconds.optional(),
  permissions: objectParam.pipe(permissions).optional(),
  network_mode: networkMode.optional(),
  /** Recorded calls to start with (replay from the first run, hooks included). */
  cassette: cassetteSchema.optional(),
  /** False deploys it inactive, hooks not run and required props allowed to wait for a value (sync without secrets). */
  active: booleanParam.optional(),
});

export const updateSchema = z.object({
  component_code: componentCode.optional(),
  component_url: componentUrl.optional(),
  /** The original files to bundle (a registry component's, edited), and which is the component's own. */
  files: componentFiles.optional(),
  entry_file: entryFile.optional(),
  component_filename: componentFilename,
  name: z.string().min(1).max(200).optional(),
  configured_props: objectParam.optional(),
  active: booleanParam.optional(),
  timeout_seconds: timeoutSeconds.optional(),
  permissions: objectParam.pipe(permissions).optional(),
  network_mode: networkMode.optional(),
  /** The version this change was based on: another is refused with 409 (docs/api.md "Versions"). */
  base_version: baseVersionParam.optional(),
});

/** The entry of files sent without `entry_file`: the one the source's component has. */
function entryOf(given: string | undefined, component: ComponentRecord | undefined): string {
  const entry = given ?? component?.entry_file;
  if (entry === undefined) throw new HttpError(400, 'entry_file is missing: name which of files is the component (its source keeps no files to take it from)');
  return entry;
}

const eventId = z.string().refine(isEventId, 'must be an event id such as 1700000000000-0');
export const summariesSchema = pageParams.extend({
  before: eventId.optional(),
  after: eventId.optional(),
  expand: z.enum(['event']).optional(),
  event_name: z.string().optional(),
  /** Text anywhere in the event's data, summary or dedupe id (case-insensitive), over every stored event. */
  q: z.string().min(1).max(200).optional(),
  /** The stream's filter language (docs/api.md "Filters"). */
  filter: filterParam.shape.filter,
});

export const deleteEventsSchema = z.object({
  start_id: eventId.optional(),
  end_id: eventId.optional(),
  event_name: z.string().optional(),
});

export const redeliverSchema = z.object({ webhook_id: z.string().regex(/^wh_/, 'must be a webhook id (wh_…)') });

/** The list's query: a page, and `expand=activity` for each source's recent work (the UI's sources list). */
export const sourceListParams = pageParams.extend({ expand: z.enum(['activity'], { message: 'the only expansion is activity' }).optional() });

/** Log lines whose errors the list's `activity.recent_errors` counts. */
const RECENT_LOG_LINES = 100;

/** Deployed sources: deploy, list, read, update, delete, run now, events and logs. */
export function sourceRoutes(ctx: ApiContext): Router {
  const router = Router();
  const view = (s: SourceRecord) => sourceView(s, ctx.sources.component(s), ctx.endpointUrl, ctx.sources.timersOf(s), ctx.sources.hostState(s));
  /** The component's warnings and those of the source's configuration (an app without an account): deploy and update answers carry them. */
  const warningsOf = (s: SourceRecord): Warning[] => {
    const component = ctx.sources.component(s);
    return [...(component?.warnings ?? []), ...appAccountWarnings(sourceProps(s, component), s.configured_props)];
  };
  const find = (idOrSlug: string): SourceRecord => {
    const s = ctx.sources.find(idOrSlug);
    if (!s) throw notFound('source', idOrSlug);
    return s;
  };

  router.post('/sources', async (req, res) => {
    const input = parseParams(req, deploySchema);
    const given = (['component_code', 'component_url', 'component_id', 'component_key'] as const).filter((k) => input[k] !== undefined);
    if (given.length !== 1) throw new HttpError(400, 'give exactly one of component_code, component_url, component_id or component_key');
    const fetched = input.component_url === undefined ? undefined : await fetchComponentCode(input.component_url);
    // A key is the registry's current file when the registry has it (saved once per version), else a saved component's.
    const registered = input.component_key === undefined ? undefined : await registryComponent(ctx, input.component_key);
    const savedRef = input.component_id ?? input.component_key;
    const component = registered ?? (savedRef === undefined ? undefined : (ctx.library.find(savedRef) ?? (input.component_id && !input.component_id.startsWith('sc_') ? await registryComponent(ctx, input.component_id) : undefined)));
    if (savedRef !== undefined && !component) throw input.component_key ? registryNotFound(ctx, input.component_key) : notFound('component', savedRef);
    const source = await ctx.sources.deploy({
      component,
      code: fetched?.code ?? input.component_code,
      filename: input.component_filename ?? fetched?.filename,
      name: input.name,
      configured_props: input.configured_props,
      timeout_seconds: input.timeout_seconds,
      permissions: input.permissions,
      network_mode: input.network_mode,
      cassette: input.cassette,
      active: input.active,
      changed_by: changeOrigin(req),
    });
    res.json({ data: view(source), warnings: warningsOf(source) });
  });

  router.get('/users/me/sources', async (req, res) => {
    const params = parseParams(req, sourceListParams);
    const page = paginate([...ctx.sources.list()].reverse(), params, (s) => s);
    if (params.expand !== 'activity') return void res.json({ ...page, data: page.data.map(view) });
    // Stores open on first use: the page's sources' open now; one that cannot open goes without activity.
    const opened = await Promise.allSettled(page.data.map((s) => ctx.sources.storesReady(s.id)));
    const activity = (s: SourceRecord) => ({
      last_event_at: ctx.events.latest(s.id, 1)[0]?.indexed_at_ms ?? null,
      recent_errors: ctx.logs
        .list(s.id)
        .slice(0, RECENT_LOG_LINES)
        .filter((l) => l.level === 'error').length,
    });
    res.json({ ...page, data: page.data.map((s, i) => (opened[i]?.status === 'fulfilled' ? { ...view(s), activity: activity(s) } : view(s))) });
  });

  router.get('/sources/:id', (req, res) => {
    const source = find(req.params.id);
    const component = ctx.sources.component(source);
    // The single read carries the code it runs, so any client can open and edit it: a registry
    // component's original files too, which are what it is edited as.
    res.json({ data: { ...view(source), code: component?.code ?? '', filename: component?.filename ?? 'component.mjs', ...(component ? codeFiles(component) : {}) } });
  });

  router.get('/sources/:id/secrets', (req, res) => {
    requireBearer(req);
    const source = find(req.params.id);
    const secret = new Set(
      sourceProps(source, ctx.sources.component(source))
        .filter((p) => p.secret)
        .map((p) => p.name),
    );
    const values = ctx.sources.configuredValues(source);
    res.json({ data: { configured_props: Object.fromEntries(Object.entries(values).filter(([name]) => secret.has(name))) } });
  });

  router.put('/sources/:id', async (req, res) => {
    const source = find(req.params.id);
    const input = parseParams(req, updateSchema);
    if ([input.component_code, input.component_url, input.files].filter((x) => x !== undefined).length > 1) throw new HttpError(400, 'give one of component_code, component_url or files, not several');
    const fetched = input.component_url === undefined ? undefined : await fetchComponentCode(input.component_url);
    const files = input.files === undefined ? undefined : { files: input.files, entry_file: entryOf(input.entry_file, ctx.sources.component(source)) };
    // Bundled as the registry's own files are, sibling apps from the registry folders (the user's first).
    const bundled =
      files &&
      (await bundleFileSet(
        files,
        ctx.registry
          .folders()
          .map((f) => f.dir)
          .reverse(),
      ));
    const updated = await ctx.sources.update(source, {
      code: bundled?.code ?? fetched?.code ?? input.component_code,
      filename: bundled?.filename ?? input.component_filename ?? fetched?.filename,
      files,
      name: input.name,
      configured_props: input.configured_props,
      active: input.active,
      timeout_seconds: input.timeout_seconds,
      permissions: input.permissions,
      network_mode: input.network_mode,
      change: changeOf(req, input.base_version),
    });
    res.json({ data: view(updated), warnings: warningsOf(updated) });
  });

  router.delete('/sources/:id', async (req, res) => {
    await ctx.sources.remove(find(req.params.id));
    res.status(204).end();
  });

  router.post('/sources/:id/run', async (req, res) => {
    const source = find(req.params.id);
    const input = parseParams(req, runNowSchema);
    // A source with an HTTP interface is sent a request (run-now.ts); others run with their timer's event.
    if (sendsRequest(ctx, source, input)) return void res.json({ data: await runRequestNow(ctx, source, input) });
    const result = await ctx.sources.runNow(source);
    res.json({
      data: {
        invocation_id: result.invocationId,
        error: result.error ? { name: result.error.name, message: result.error.message } : null,
        emitted: result.record.emits.flatMap((e) => (e.event_id ? [e.event_id] : [])),
        emits_omitted: result.record.emits_omitted ?? null,
      },
    });
  });

  router.get('/sources/:id/event_summaries', async (req, res) => {
    const source = find(req.params.id);
    const q = parseParams(req, summariesSchema);
    const filter = requestFilter(ctx, q.filter);
    // Cursors are event ids, so paging is a walk over the (newest-first) list.
    if (filter.clauses.length === 0) return void res.json(ctx.events.page(source.id, { eventName: q.event_name, q: q.q }, q, (e) => eventSummary(e, q.expand === 'event')));
    const kept = await ctx.stream.filterEvents(filter, ctx.events.kept(source.id, { eventName: q.event_name, q: q.q }), source.id);
    res.json(paginate(kept, q, (e) => eventSummary(ctx.events.read(e), q.expand === 'event')));
  });

  router.get('/sources/:id/event_summaries/:event', (req, res) => {
    const source = find(req.params.id);
    // One event by id (an invocation's emit, a link), however far back in the list it is.
    const event = isEventId(req.params.event) ? ctx.events.find(source.id, req.params.event) : undefined;
    if (!event || isSystemChannel(event.meta.name)) throw notFound('event', req.params.event);
    res.json({ data: eventSummary(event, true) });
  });

  router.delete('/sources/:id/events', async (req, res) => {
    const source = find(req.params.id);
    const q = parseParams(req, deleteEventsSchema);
    const deleted = await ctx.events.delete(source.id, { startId: q.start_id, endId: q.end_id, eventName: q.event_name });
    res.status(202).json({ data: { deleted } });
  });

  router.post('/sources/:id/events/:event/redeliver', async (req, res) => {
    const source = find(req.params.id);
    const { webhook_id } = parseParams(req, redeliverSchema);
    const event = isEventId(req.params.event) ? ctx.events.find(source.id, req.params.event) : undefined;
    if (!event || isSystemChannel(event.meta.name)) throw notFound('event', req.params.event);
    if (!ctx.metadata.data.webhooks.some((w) => w.id === webhook_id)) throw notFound('webhook', webhook_id);
    // A new delivery message (its own webhook-id), whether or not the webhook is subscribed.
    await ctx.delivery.deliver(event, [webhook_id]);
    res.status(202).json({ data: { event_id: event.id, webhook_id } });
  });

  router.get('/sources/:id/logs', (req, res) => {
    const source = find(req.params.id);
    const { filter, ...page } = parseParams(req, streamSchema);
    res.json(paginate(ctx.stream.filterLogs(requestFilter(ctx, filter), ctx.logs.list(source.id), source.id), page, (l) => l));
  });

  return router;
}
