// The stream's merge: each store's records (a source's runs, an emitter's events, a workflow's
// runs) is a lane read newest first; a page takes the newest head of all lanes in turn, so only
// what precedes the page is read, not every record kept.
import type { StreamSubject } from './stream-match';

/** Ids in order: a shorter one first (`<ms>-9` before `<ms>-10`), else as text. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Newest first; the same time by id, descending. */
export function newestFirst(a: { ts: number; id: string }, b: { ts: number; id: string }): number {
  return b.ts - a.ts || compareIds(b.id, a.id);
}

/**
 * Runs oldest first by start. A store keeps them in the order they ended, which differs when one
 * started before another ended: those few are sorted (the list is checked first, and is usually in order).
 */
export function byStart<R extends { started_at: number; id: string }>(runs: readonly R[]): readonly R[] {
  const before = (a: R, b: R) => a.started_at - b.started_at || compareIds(a.id, b.id);
  for (let i = 1; i < runs.length; i++) if (before(runs[i - 1] as R, runs[i] as R) > 0) return [...runs].sort(before);
  return runs;
}

/** One store's records, newest first, as the subjects that pass a test. */
export class Lane {
  private i: number;
  /** How many subjects passed so far (the head included). */
  private passed = 0;
  head: StreamSubject | null = null;

  constructor(
    size: number,
    /** The subject of record `i` (oldest first), or null for one never listed. */
    private readonly at: (i: number) => StreamSubject | null,
    private readonly test: (s: StreamSubject) => boolean,
  ) {
    this.i = size - 1;
    this.advance();
  }

  /** Moves the head to the next (older) subject that passes. */
  advance(): void {
    while (this.i >= 0) {
      const s = this.at(this.i--);
      if (s && this.test(s)) {
        this.head = s;
        this.passed++;
        return;
      }
    }
    this.head = null;
  }

  /** How many of all its subjects pass, those already read included; the lane is spent. */
  countAll(): number {
    while (this.i >= 0) {
      const s = this.at(this.i--);
      if (s && this.test(s)) this.passed++;
    }
    this.head = null;
    return this.passed;
  }
}

/** Up to `limit` subjects of the lanes, newest first, older than `before` when given. */
export function mergeLanes(lanes: readonly Lane[], limit: number, before: { ts: number; id: string } | null): StreamSubject[] {
  const out: StreamSubject[] = [];
  while (out.length < limit) {
    let best: Lane | null = null;
    for (const lane of lanes) if (lane.head && (!best || newestFirst(lane.head, best.head as StreamSubject) < 0)) best = lane;
    if (!best) break;
    const s = best.head as StreamSubject;
    best.advance();
    if (before && newestFirst(s, before) <= 0) continue;
    out.push(s);
  }
  return out;
}
