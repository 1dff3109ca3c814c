// What a host reports of a run, checked in the service before anything is stored: a host runs
// untrusted code that can write its own messages, so the limits its host enforces
// (child/run-limits.ts) are enforced here again, and an event must be one JSON value on one line.
import type { EmitPayload, LogLevel } from '../contract/host-protocol';
import { MAX_EMIT_BYTES_PER_RUN, MAX_EMIT_ID_LENGTH, MAX_EVENT_BYTES, MAX_LOG_BYTES_PER_RUN, MAX_LOG_LINE_BYTES, MAX_STRAY_BYTES_PER_MINUTE, MAX_SUMMARY_LENGTH } from '../contract/limits';
import { droppedLogsLine, RunBudget } from '../lib/run-budget';
import { cutText } from '../lib/text-limits';

/** Why a host's emits cannot be stored, or null when they can (long summaries are cut in place). */
export function checkEmits(emits: EmitPayload[], limit = MAX_EMIT_BYTES_PER_RUN): string | null {
  return checkEmitBatch(emits, 0, 0, limit).problem;
}

/**
 * Checks one batch of a run's emits, the run having sent `spent` bytes of events and `first`
 * events before it: why it cannot be stored (null when it can), and its events' bytes.
 */
export function checkEmitBatch(emits: EmitPayload[], spent: number, first: number, limit = MAX_EMIT_BYTES_PER_RUN): { problem: string | null; bytes: number } {
  let total = spent;
  for (const [at, e] of emits.entries()) {
    const i = first + at;
    const bytes = Buffer.byteLength(e.json);
    if (bytes > MAX_EVENT_BYTES) return { problem: `event ${i} is ${bytes} bytes as JSON; the limit is ${MAX_EVENT_BYTES} bytes per event`, bytes: 0 };
    total += bytes;
    if (total > limit) return { problem: `the events come to more than ${limit} bytes as JSON, the limit`, bytes: 0 };
    // Events are embedded in the lines of the event and delivery files as they are.
    if (e.json.includes('\n') || !isJson(e.json)) return { problem: `event ${i} is not one JSON value on one line (a host sent what $emit cannot make)`, bytes: 0 };
    for (const field of ['id', 'name'] as const) {
      const value = e.meta[field];
      if (typeof value === 'string' && value.length > MAX_EMIT_ID_LENGTH) return { problem: `event ${i}: its ${field} is over ${MAX_EMIT_ID_LENGTH} characters`, bytes: 0 };
    }
    if (e.meta.summary !== undefined && e.meta.summary.length > MAX_SUMMARY_LENGTH) e.meta.summary = `${e.meta.summary.slice(0, MAX_SUMMARY_LENGTH - 1)}…`;
  }
  return { problem: null, bytes: total - spent };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A log line let through, or null when its run's budget is spent. */
export interface LimitedLine {
  invocationId: string | null;
  level: LogLevel;
  message: string;
}

/** The service's count of what each host's runs log and emit. */
export class RunChecks {
  private readonly logs = new RunBudget(MAX_LOG_BYTES_PER_RUN, MAX_STRAY_BYTES_PER_MINUTE);
  private readonly strayEmitted = new RunBudget(MAX_EMIT_BYTES_PER_RUN, MAX_STRAY_BYTES_PER_MINUTE);

  /** A log line of run `runId` (null: outside any run) cut to its limit, the line saying the budget is spent, or null past that. */
  logLine(runId: string | null, level: LogLevel, message: string): LimitedLine | null {
    const line = cutText(message, MAX_LOG_LINE_BYTES, 'log lines');
    const spent = this.logs.take(runId, Buffer.byteLength(line));
    if (spent === 'ok') return { invocationId: runId, level, message: line };
    return spent === 'over' ? { invocationId: runId, level: 'warn', message: droppedLogsLine(this.logs, runId) } : null;
  }

  /** Why emits made outside any run cannot be stored (over the per-minute budget too), or null. */
  strayEmits(emits: EmitPayload[]): string | null {
    const problem = checkEmits(emits);
    if (problem) return problem;
    const spent = this.strayEmitted.take(
      null,
      emits.reduce((n, e) => n + Buffer.byteLength(e.json), 0),
    );
    return spent === 'ok' ? null : `code left running after its run ended emitted more than ${MAX_STRAY_BYTES_PER_MINUTE} bytes of events this minute, the limit; these were dropped`;
  }

  /** Forgets a run that ended. */
  end(runId: string): void {
    this.logs.end(runId);
  }
}
