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
  private seq = 0;

  /** Adds a line to a source's log. */
  add(sourceId: string, line: Omit<LogLine, 'id' | 'ts'>): LogLine {
    const entry: LogLine = { id: `${Date.now()}-${this.seq++}`, ts: Date.now(), ...line };
    const list = this.lines.get(sourceId) ?? [];
    list.push(entry);
    if (list.length > KEPT + KEPT / 10) list.splice(0, list.length - KEPT);
    this.lines.set(sourceId, list);
    return entry;
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
