// A recorded run as an agent reads it: what triggered it, what it answered, its error with the
// place in the component's file, its logs, the events it emitted and the calls it made.
import type { InvocationView } from '../../../contract/invocation-api';
import { locationOf } from './dev-component-text';
import type { DevSession } from './dev-tool-kit';

/** The run, compact: bodies and stacks as text (bounded later by dev-bounds.ts). */
export function runView(record: InvocationView, session: DevSession): Record<string, unknown> {
  const source = session.ctx.sources.find(record.owner_id);
  const component = source ? session.ctx.sources.component(source) : session.ctx.library.find(record.owner_id);
  const filename = component?.filename ?? 'component.mjs';
  const file = session.files.get(record.owner_id) ?? null;
  const error = record.error && { name: record.error.name, message: record.error.message, ...locationOf(record.error.stack, filename, file), stack: record.error.stack };
  return {
    run_id: record.id,
    owner_id: record.owner_id,
    trigger: record.trigger,
    status: record.status,
    duration_ms: record.duration_ms,
    replay_of: record.replay_of,
    request: record.request && { method: record.request.method, path: record.request.path, query: record.request.query, headers: record.request.headers, body: record.request.body },
    response: record.response && { status: record.response.status, body: record.response.body, from: record.response.from },
    event: record.trigger === 'http' ? undefined : record.event,
    error,
    logs: record.logs.map((l) => `${l.level}: ${l.message}`),
    events: record.emits.map((e) => ({ event_id: e.event_id, summary: e.summary, dropped_by_dedupe: e.dropped, channel: e.name })),
    calls: record.calls.map((c) => ({ method: c.request.method, url: c.request.url, status: c.response?.status ?? null, error: c.error, served_by: c.served_by })),
    result: record.result,
  };
}

/** One line saying how a run went, for clients that read only text. */
export function runLine(record: InvocationView, session: DevSession): string {
  const view = runView(record, session);
  const error = view.error as { name: string; message: string; location?: string } | null;
  if (error) return `Run ${record.id} failed: ${error.name}: ${error.message}${error.location ? ` at ${error.location}` : ''}`;
  if (record.result) {
    const summary = record.result.exports.$summary;
    return `Run ${record.id} ${record.status}${summary !== undefined ? `: ${String(summary)}` : ''}`;
  }
  const events = record.emits.filter((e) => e.event_id);
  return `Run ${record.id} ${record.status}: ${events.length} event(s)${events.length ? ` (${events.map((e) => e.summary ?? e.event_id).join('; ')})` : ''}`;
}
