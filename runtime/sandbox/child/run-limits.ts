// The limits of what a run writes, as the host enforces them: component code gets a clear error
// at the call that goes over (or its log line cut and marked), and nothing over a limit is sent to
// the service. The service checks again (sandbox/run-checks.ts): it trusts no host.
import type { EmitMeta, EmitPayload } from '../../contract/host-protocol';
import { MAX_EMIT_BYTES_PER_RUN, MAX_EMIT_ID_LENGTH, MAX_EVENT_BYTES, MAX_LOG_BYTES_PER_RUN, MAX_LOG_LINE_BYTES, MAX_STRAY_BYTES_PER_MINUTE, MAX_SUMMARY_LENGTH } from '../../contract/limits';
import { droppedLogsLine, RunBudget } from '../../lib/run-budget';
import { cutText } from '../../lib/text-limits';
import { isRecord } from '../../props/shared/prop-shape';

const logs = new RunBudget(MAX_LOG_BYTES_PER_RUN, MAX_STRAY_BYTES_PER_MINUTE);
const emits = new RunBudget(MAX_EMIT_BYTES_PER_RUN, MAX_STRAY_BYTES_PER_MINUTE);
const MB = 1024 * 1024;

/** A log line as it is sent: cut to MAX_LOG_LINE_BYTES; null once its run's budget is spent (the first line over it says so instead). */
export function limitLogLine(runId: string | null, message: string): string | null {
  const line = cutText(message, MAX_LOG_LINE_BYTES, 'log lines');
  const spent = logs.take(runId, Buffer.byteLength(line));
  if (spent === 'ok') return line;
  return spent === 'over' ? droppedLogsLine(logs, runId) : null;
}

/** Forgets a run that ended. */
export function endRun(runId: string): void {
  logs.end(runId);
  emits.end(runId);
}

/** One `$emit` as it is sent: its metadata in the types the service takes; throws a RangeError naming the limit it goes over. */
export function limitEmit(runId: string | null, json: string, meta: unknown): EmitPayload {
  const payload: EmitPayload = { json, meta: emitMeta(meta) };
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_EVENT_BYTES) throw new RangeError(`$emit: the event is ${bytes} bytes as JSON; the limit is ${MAX_EVENT_BYTES / MB} MB per event (docs/security.md)`);
  for (const field of ['id', 'name'] as const) {
    const value = payload.meta[field];
    if (typeof value === 'string' && value.length > MAX_EMIT_ID_LENGTH) {
      throw new RangeError(`$emit: the ${field} is ${value.length} characters; the limit is ${MAX_EMIT_ID_LENGTH}`);
    }
  }
  const spent = emits.take(runId, bytes);
  if (spent !== 'ok') {
    throw new RangeError(
      runId === null
        ? `$emit: code left running after its run ended has emitted more than ${MAX_STRAY_BYTES_PER_MINUTE / MB} MB of events this minute, the limit (docs/security.md)`
        : `$emit: this run has emitted more than ${MAX_EMIT_BYTES_PER_RUN / MB} MB of events, the limit of one run (docs/security.md)`,
    );
  }
  return payload;
}

/** The metadata of an emit in the types the service takes; other values are converted, a long summary cut. */
function emitMeta(meta: unknown): EmitMeta {
  const m = isRecord(meta) ? meta : {};
  const text = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
  const ts = typeof m.ts === 'number' || (typeof m.ts === 'string' && m.ts.trim() !== '') ? Number(m.ts) : NaN;
  const out: EmitMeta = {};
  if (typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id))) out.id = m.id;
  else if (m.id !== undefined && m.id !== null) out.id = String(m.id);
  if (text(m.name) !== undefined) out.name = text(m.name);
  const summary = text(m.summary);
  if (summary !== undefined) out.summary = summary.length > MAX_SUMMARY_LENGTH ? `${summary.slice(0, MAX_SUMMARY_LENGTH - 1)}…` : summary;
  if (Number.isFinite(ts)) out.ts = ts;
  return out;
}
