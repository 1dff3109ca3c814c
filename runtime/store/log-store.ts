import type { LogLevel } from '../contract/host-protocol';
import { RetainedLogs } from '../lib/retained-log';
import { KeyedListeners } from '../lib/keyed-listeners';

/** A log line of a source (`GET /v1/sources/{id}/logs`). */
export interface LogLine {
  id: string;
  ts: number;
  level: LogLevel;
  message: string;
  invocation_id: string | null;
}

/** Lines kept per source. */
const KEPT = 1000;

/**
 * The latest log lines of each source: in memory, and in a file per source (`DATA_DIR/logs`), so
 * they survive a restart.
 */
export class LogStore {
  private readonly lines: RetainedLogs<LogLine>;
  private readonly listeners = new KeyedListeners<LogLine>();
  private readonly everyLine = new Set<(sourceId: string, line: LogLine) => void>();
  private seq = 0;

  constructor(dir: string) {
    this.lines = new RetainedLogs<LogLine>(dir, KEPT);
  }

  /** Loads a source's kept lines (at start, or when it is deployed). */
  async open(sourceId: string): Promise<void> {
    const kept = await this.lines.open(sourceId);
    // Ids go on after the newest kept one, so resuming SSE clients keep their place.
    const last = kept.length > 0 ? sequenceOf((kept[kept.length - 1] as LogLine).id) : null;
    if (last !== null && last >= this.seq) this.seq = last + 1;
  }

  /** Adds a line to a source's log. */
  add(sourceId: string, line: Omit<LogLine, 'id' | 'ts'>): LogLine {
    const entry: LogLine = { id: `${Date.now()}-${this.seq++}`, ts: Date.now(), ...line };
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
