import type { LogLevel } from '../sandbox/protocol';

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

/** The latest log lines of each source, in memory. */
export class LogStore {
  private readonly lines = new Map<string, LogLine[]>();
  private readonly listeners = new Map<string, Set<(line: LogLine) => void>>();
  private readonly everyLine = new Set<(sourceId: string, line: LogLine) => void>();
  private seq = 0;

  /** Adds a line to a source's log. */
  add(sourceId: string, line: Omit<LogLine, 'id' | 'ts'>): LogLine {
    const entry: LogLine = { id: `${Date.now()}-${this.seq++}`, ts: Date.now(), ...line };
    const list = this.lines.get(sourceId) ?? [];
    list.push(entry);
    if (list.length > KEPT + KEPT / 10) list.splice(0, list.length - KEPT);
    this.lines.set(sourceId, list);
    for (const listener of this.listeners.get(sourceId) ?? []) listener(entry);
    for (const listener of this.everyLine) listener(sourceId, entry);
    return entry;
  }

  /** Calls `listener` with each new line of a source; returns the unsubscribe function. */
  subscribe(sourceId: string, listener: (line: LogLine) => void): () => void {
    const set = this.listeners.get(sourceId) ?? new Set();
    set.add(listener);
    this.listeners.set(sourceId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(sourceId) === set) this.listeners.delete(sourceId);
    };
  }

  /** Calls `listener` with every new line of every source. */
  subscribeAll(listener: (sourceId: string, line: LogLine) => void): void {
    this.everyLine.add(listener);
  }

  /** Kept lines after the one with id `lastId`, oldest first (an SSE client resuming). */
  since(sourceId: string, lastId: string): LogLine[] {
    const after = sequenceOf(lastId);
    if (after === null) return [];
    return (this.lines.get(sourceId) ?? []).filter((line) => (sequenceOf(line.id) as number) > after);
  }

  /** Newest first. */
  list(sourceId: string): LogLine[] {
    return [...(this.lines.get(sourceId) ?? [])].reverse();
  }

  /** Forgets a deleted source's lines. */
  remove(sourceId: string): void {
    this.lines.delete(sourceId);
  }
}

/** The service-wide sequence number in a line id (`<ms>-<seq>`); null for anything else. */
function sequenceOf(id: string): number | null {
  const m = /^\d+-(\d+)$/.exec(id);
  return m ? Number(m[1]) : null;
}
