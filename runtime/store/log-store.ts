import type { LogLevel } from '../contract/host-protocol';
import { MAX_LOG_LINE_BYTES } from '../contract/limits';
import type { ProblemSink } from '../lib/file-problems';
import { KeyedListeners } from '../lib/keyed-listeners';
import { RetainedLogs } from '../lib/retained-log';
import { cutText } from '../lib/text-limits';

/** A log line of a source (`GET /v1/sources/{id}/logs`). */
export interface LogLine {
  id: string;
  ts: number;
  level: LogLevel;
  message: string;
  invocation_id: string | null;
}

/** Lines kept per source: 1000, and at most 8 MB of them. */
const KEPT = { count: 1000, bytes: 8 * 1024 * 1024 };

const LEVELS = new Set<unknown>(['log', 'info', 'warn', 'error', 'debug']);

/** What is wrong with a line of a log file, or null for a log line. */
export function checkLogLine(value: unknown): string | null {
  const line = value as Partial<LogLine> | null;
  if (typeof line !== 'object' || line === null) return 'not a log line (a JSON object was expected)';
  if (typeof line.id !== 'string' || typeof line.ts !== 'number' || typeof line.message !== 'string' || !LEVELS.has(line.level)) return 'not a log line (no id, ts, level or message)';
  return null;
}

/**
 * The latest log lines of each source: in memory, and in a file per source (`DATA_DIR/logs`), so
 * they survive a restart.
 */
export class LogStore {
  private readonly lines: RetainedLogs<LogLine>;
  private readonly listeners = new KeyedListeners<LogLine>();
  private readonly everyLine = new Set<(sourceId: string, line: LogLine) => void>();
  private seq = 0;

  constructor(dir: string, report?: ProblemSink) {
    this.lines = new RetainedLogs<LogLine>(dir, KEPT, { check: checkLogLine, report });
  }

  /** Loads a source's kept lines (at start, or when it is deployed). */
  async open(sourceId: string): Promise<void> {
    const kept = await this.lines.open(sourceId);
    // Ids go on after the newest kept one, so resuming SSE clients keep their place.
    const last = kept.length > 0 ? sequenceOf((kept[kept.length - 1] as LogLine).id) : null;
    if (last !== null && last >= this.seq) this.seq = last + 1;
  }

  /** Adds a line to a source's log; one over MAX_LOG_LINE_BYTES is cut and marked. */
  add(sourceId: string, line: Omit<LogLine, 'id' | 'ts'>): LogLine {
    const entry: LogLine = { id: `${Date.now()}-${this.seq++}`, ts: Date.now(), ...line, message: cutText(line.message, MAX_LOG_LINE_BYTES, 'log lines') };
    if (!this.lines.appendOpen(sourceId, [entry])) {
      this.lines.append(sourceId, [entry]).catch((err: Error) => console.error(`keeping a log line of ${sourceId}: ${err.message}`));
    }
    this.listeners.emit(sourceId, entry);
    for (const listener of this.everyLine) listener(sourceId, entry);
    return entry;
  }

  /** Calls `listener` with each new line of a source; returns the unsubscribe function. */
  subscribe(sourceId: string, listener: (line: LogLine) => void): () => void {
    return this.listeners.add(sourceId, listener);
  }

  /** Calls `listener` with every new line of every source. */
  subscribeAll(listener: (sourceId: string, line: LogLine) => void): void {
    this.everyLine.add(listener);
  }

  /** Kept lines after the one with id `lastId`, oldest first (an SSE client resuming). */
  since(sourceId: string, lastId: string): LogLine[] {
    const after = sequenceOf(lastId);
    if (after === null) return [];
    return this.lines.list(sourceId).filter((line) => (sequenceOf(line.id) as number) > after);
  }

  /** Newest first. */
  list(sourceId: string): LogLine[] {
    return [...this.lines.list(sourceId)].reverse();
  }

  /** Deletes a source's lines. */
  async remove(sourceId: string): Promise<void> {
    await this.lines.remove(sourceId);
  }

  /** Writes what is queued and closes the files. */
  async close(): Promise<void> {
    await this.lines.close();
  }
}

/** The service-wide sequence number in a line id (`<ms>-<seq>`); null for anything else. */
function sequenceOf(id: string): number | null {
  const m = /^\d+-(\d+)$/.exec(id);
  return m ? Number(m[1]) : null;
}
