// Tools that run what is deployed and read what happened: send a request, fire a timer, run an
// action, replay a run; list runs, read one, list events, read logs. Each run answers its whole record.
import { z } from 'zod';
import type { InvocationView } from '../../../contract/invocation-api';
import type { ComponentRecord } from '../../../store/metadata';
import { replayRun, replaySchema } from '../../api/invocation-routes';
import { registryComponent, registryNotFound } from '../../api/registry-routes';
import { runRequestNow } from '../../api/run-now';
import { eventSummary } from '../../api/views';
import { HttpError, notFound } from '../../edge/error-statuses';
import { boundedResult } from './dev-bounds';
import { componentInput, componentText } from './dev-component-text';
import { runLine, runView } from './dev-run-view';
import { accountsInput, networkMode, propsInput, sourceOf, withAccounts } from './dev-source-tools';
import { type DevSession, type DevTool, devTool } from './dev-tool-kit';

const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const RUNS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const sourceId = z.string().min(1).max(200).describe('The source id (dc_…)');
const limit = z.number().int().min(1).max(50).default(10).describe('How many, newest first');
const headers = z.record(z.string(), z.string()).optional().describe('Request headers');

/** A recorded run as the tool's answer. */
function answerRun(record: InvocationView, session: DevSession, extra: Record<string, unknown> = {}) {
  return boundedResult({ ...extra, run: runView(record, session) }, runLine(record, session));
}

/** The record of a run id. */
function recordOf(session: DevSession, id: string): InvocationView {
  const record = session.ctx.invocations.get(id);
  if (!record) throw notFound('run', id);
  return record;
}

/** The run tools. */
export const RUN_TOOLS: DevTool[] = [
  devTool({
    name: 'send_http',
    title: 'Send an HTTP request to a source',
    description: "Sends a request to a source's HTTP endpoint through the real endpoint path, and answers the response with the whole run: logs, events, outgoing calls, and the error with the component's file:line.",
    input: z.object({
      source_id: sourceId,
      method: z
        .string()
        .regex(/^[A-Za-z]+$/, 'must be an HTTP method such as POST')
        .default('POST'),
      path: z.string().regex(/^\//, 'must start with /').default('/').describe('Sub-path after the endpoint URL (event.path)'),
      query: z.string().optional().describe('Query string, without ?'),
      headers,
      body: z.string().optional().describe('Request body as text (JSON as a string)'),
    }),
    annotations: RUNS,
    run: async ({ source_id, method, path, query, headers: given, body }, session) => {
      const source = sourceOf(session, source_id);
      const sent = await runRequestNow(session.ctx, source, { method, path, query: query ?? '', headers: given ?? { 'content-type': 'application/json' }, body: body ?? '' });
      return answerRun(recordOf(session, sent.invocation_id), session);
    },
  }),
  devTool({
    name: 'fire_timer',
    title: "Fire a source's timer",
    description: "Runs a source now with its timer's event (or {timestamp} when it has no timer), and answers the whole run.",
    input: z.object({ source_id: sourceId }),
    annotations: RUNS,
    run: async ({ source_id }, session) => answerRun((await session.ctx.sources.runNow(sourceOf(session, source_id))).record, session),
  }),
  devTool({
    name: 'run_action',
    title: 'Run an action',
    description: 'Runs an action once, from a file under the allowed folders, inline code, or a saved or registry key (ref), with its props, accounts and network mode; answers the return value, exports and the whole run.',
    input: z.object({ ...componentInput, ref: z.string().min(1).max(200).optional().describe('A saved action (key or sc_… id) or a registry key'), props: propsInput, accounts: accountsInput, network_mode: networkMode }),
    annotations: RUNS,
    run: async (input, session) => {
      const { ctx } = session;
      let text = null;
      let component: ComponentRecord | undefined;
      if (input.ref !== undefined) {
        if (input.file !== undefined || input.code !== undefined) throw new HttpError(400, 'give one of ref (a saved or registry action), file or code, not several');
        component = ctx.library.find(input.ref) ?? (/^sc_/.test(input.ref) ? undefined : await registryComponent(ctx, input.ref));
        if (!component) throw registryNotFound(ctx, input.ref);
      } else {
        text = componentText(session, input, 'action.mjs');
        component = await ctx.library.save(text.code, text.filename, ctx.describeSandbox);
        if (text.file) session.files.set(component.id, text.file);
      }
      const answer = await ctx.sessions.runAction(component, withAccounts(input.props, input.accounts) ?? {}, {}, { jit: true, network: input.network_mode });
      return answerRun(recordOf(session, answer.invocation_id), session, { return_value: answer.ret ?? null, exports: answer.exports });
    },
  }),
  devTool({
    name: 'replay_run',
    title: 'Replay a run',
    description: "Runs a recorded run of a source again against its current code: an HTTP run's request through its endpoint (with edits to method, path, query, headers or body), another run with its event (or an edited event).",
    input: z.object({
      run_id: z.string().min(1).describe('The run to replay (its run_id)'),
      method: z
        .string()
        .regex(/^[A-Za-z]+$/)
        .optional(),
      path: z.string().regex(/^\//, 'must start with /').optional(),
      query: z.string().optional(),
      headers,
      body: z.string().optional(),
      event: z.unknown().optional().describe('For a timer or event run: the event to run with instead'),
    }),
    annotations: RUNS,
    run: async ({ run_id, ...edits }, session) => answerRun(await replayRun(session.ctx, run_id, replaySchema.parse(edits)), session),
  }),
  devTool({
    name: 'list_runs',
    title: 'List runs',
    description: 'The latest runs of a source (or an action, by its sc_… id), newest first, each with its status, trigger and error in a line; get_run shows one whole.',
    input: z.object({ owner_id: z.string().min(1).describe('A source id (dc_…) or an action component id (sc_…)'), status: z.enum(['ok', 'error', 'timeout', 'crashed']).optional(), limit }),
    annotations: READS,
    run: async ({ owner_id, status, limit: n }, session) => {
      const { invocations, sources, library } = session.ctx;
      if (!sources.find(owner_id) && !library.find(owner_id)) throw new HttpError(404, `no source or action ${owner_id}; deploy_source and run_action answer their ids`);
      const runs = invocations
        .list(owner_id, status ? { status } : {})
        .slice(0, n)
        .map((kept) => invocations.read(kept));
      return boundedResult({ runs: runs.map((r) => ({ run_id: r.id, trigger: r.trigger, status: r.status, started_at: new Date(r.started_at).toISOString(), line: runLine(r, session) })) });
    },
  }),
  devTool({
    name: 'get_run',
    title: 'Read a run',
    description: 'One run whole: request and response, logs, events, outgoing calls, and the error with its file:line and stack.',
    input: z.object({ run_id: z.string().min(1) }),
    annotations: READS,
    run: async ({ run_id }, session) => answerRun(recordOf(session, run_id), session),
  }),
  devTool({
    name: 'list_events',
    title: "List a source's events",
    description: 'The latest events a source emitted, newest first, with their summaries (data over 1 KB cut to a preview).',
    input: z.object({ source_id: sourceId, limit }),
    annotations: READS,
    run: async ({ source_id, limit: n }, session) => {
      const source = sourceOf(session, source_id);
      const events = session.ctx.events.latest(source.id, n).map((e) => eventSummary(e, false));
      return boundedResult({ events }, `${events.length} event(s)${events.length ? `: ${events.map((e) => e.metadata.summary ?? e.id).join('; ')}` : ''}`);
    },
  }),
  devTool({
    name: 'get_logs',
    title: "Read a source's logs",
    description: "A source's latest log lines (console output of its runs and hooks, and Spout's own notes), oldest first.",
    input: z.object({ source_id: sourceId, limit: z.number().int().min(1).max(200).default(50) }),
    annotations: READS,
    run: async ({ source_id, limit: n }, session) => {
      const source = sourceOf(session, source_id);
      const lines = session.ctx.logs.list(source.id).slice(-n);
      return boundedResult({ logs: lines.map((l) => ({ ts: new Date(l.ts).toISOString(), level: l.level, message: l.message, run_id: l.invocation_id ?? null })) });
    },
  }),
];
