// Rows of the stream (contract/stream-api.ts) built from what the stores keep: a source's or an
// action's recorded run, a workflow's run, an emitted event.
import type { InvocationView, RecordedRequest } from '../../contract/invocation-api';
import type { StreamRow } from '../../contract/stream-api';
import type { WorkflowRunView } from '../../contract/workflow-api';
import type { StoredEvent } from '../../store/event-store';

export type StreamTarget = StreamRow['target'];
export type DeliveryState = NonNullable<StreamRow['delivery']>;

/** The path of a recorded request, without its query. */
function pathOf(request: RecordedRequest | null): string | null {
  if (!request) return null;
  return request.path.split('?', 1)[0] || '/';
}

/** The row of a recorded run (a source's or an action's). */
export function runRow(run: InvocationView, target: StreamTarget): StreamRow {
  const stored = run.emits.filter((e) => e.event_id !== null).length + (run.emits_omitted?.stored ?? 0);
  return {
    kind: 'run',
    id: run.id,
    ts: run.started_at,
    target,
    status: run.status === 'crashed' ? 'error' : run.status,
    trigger: run.trigger,
    method: run.request?.method ?? null,
    path: pathOf(run.request),
    response_status: run.response?.status ?? null,
    size: run.request ? run.request.body_size : null,
    emits: stored,
    delivery: null,
    summary: run.error ? `${run.error.name}: ${run.error.message}` : null,
    run_id: null,
  };
}

/** An HTTP request as a workflow's trigger event holds it, when it is one. */
export function workflowRequest(run: WorkflowRunView): { method: string; path: string; headers: Record<string, unknown>; body: unknown } | null {
  const e = run.event as { method?: unknown; path?: unknown; headers?: unknown; body?: unknown } | null;
  if (typeof e !== 'object' || e === null || typeof e.method !== 'string' || typeof e.path !== 'string') return null;
  const headers = typeof e.headers === 'object' && e.headers !== null ? (e.headers as Record<string, unknown>) : {};
  return { method: e.method, path: e.path.split('?', 1)[0] || '/', headers, body: e.body };
}

/** The row of a workflow's run. */
export function workflowRunRow(run: WorkflowRunView, target: StreamTarget, trigger: string | null): StreamRow {
  const failed = run.steps.find((s) => s.error);
  const request = workflowRequest(run);
  const body = request ? request.body : run.event;
  return {
    kind: 'run',
    id: run.id,
    ts: run.started_at_ms,
    target,
    status: run.status === 'error' ? 'error' : 'ok',
    trigger,
    method: request?.method ?? null,
    path: request?.path ?? null,
    response_status: null,
    size: body === undefined ? null : typeof body === 'string' ? Buffer.byteLength(body) : Buffer.byteLength(JSON.stringify(body) ?? ''),
    emits: null,
    delivery: null,
    summary: failed?.error ? `${failed.name}: ${failed.error.message}` : null,
    run_id: null,
  };
}

/** The row of an emitted event; `run` is the run that emitted it, when still kept. */
export function eventRow(event: StoredEvent, target: StreamTarget, run: InvocationView | undefined, delivery: DeliveryState): StreamRow {
  return {
    kind: 'event',
    id: event.id,
    ts: event.indexed_at_ms,
    target,
    status: null,
    trigger: run?.trigger ?? null,
    method: run?.request?.method ?? null,
    path: pathOf(run?.request ?? null),
    response_status: run?.response?.status ?? null,
    size: Buffer.byteLength(event.json),
    emits: null,
    delivery,
    summary: event.meta.summary,
    run_id: event.meta.invocation_id ?? null,
  };
}

/** The delivery state of an event across its webhook messages. */
export function deliveryState(messages: ReadonlyArray<{ status: string; attempts: number; webhook_id: string }>, webhookActive: (id: string) => boolean): DeliveryState {
  if (messages.length === 0) return { state: 'none', attempts: 0 };
  const attempts = messages.reduce((n, m) => n + m.attempts, 0);
  if (messages.some((m) => m.status === 'failed')) return { state: 'failed', attempts };
  const open = messages.filter((m) => m.status !== 'delivered');
  if (open.length === 0) return { state: 'delivered', attempts };
  return { state: open.every((m) => !webhookActive(m.webhook_id)) ? 'paused' : 'pending', attempts };
}
