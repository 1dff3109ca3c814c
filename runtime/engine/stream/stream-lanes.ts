// The stream's merge: each store's records (a source's runs, an emitter's events, a workflow's
// runs) is a lane read newest first; a page reads the newest unread record of all lanes in turn,
// so only what precedes the page's last row is read, not every record kept.
import { compareIds } from '../../lib/start-order';
import type { StreamSubject } from './stream-match';

/** Newest first; the same time by id, descending. */
export function newestFirst(a: { ts: number; id: string }, b: { ts: number; id: string }): number {
  return b.ts - a.ts || compareIds(b.id, a.id);
}

/** Where a record is in the order rows are listed: its time and id. */
export interface RowKey {
  ts: number;
  id: string;
}

/**
 * One store's records, newest first, as the subjects that pass a test. Lanes are read together in
 * time order (`mergeLanes`): a record is tested only once it is the newest unread one of all
 * lanes, so a page reads the rows down to its last one and no further, even in a lane none of
 * whose rows match.
 */
export class Lane {
  /** The next record to read: they are oldest first, read from the end down to `low`. */
  private i: number;
  private low = 0;
  /** Records at or newer than a page's cursor, passed over untested (`seek`): `count` counts them last. */
  private skipped: { from: number; to: number } | null = null;
  /** How many of the subjects tested so far passed. */
  passed = 0;
  /** The next unread subject, not tested yet; null once the lane is read. */
  next: StreamSubject | null = null;

  constructor(
    size: number,
    /** The subject of record `i` (oldest first), or null for one never listed. */
    private readonly at: (i: number) => StreamSubject | null,
    private readonly test: (s: StreamSubject) => boolean,
    /** The time and id of record `i`, read without building its subject. */
    private readonly key: (i: number) => RowKey,
  ) {
    this.i = size - 1;
    this.peek();
  }

  private peek(): void {
    this.next = null;
    for (; this.i >= this.low && this.next === null; this.i--) this.next = this.at(this.i);
  }

  /** Passes over the unread records at or newer than `cursor`, untested (a binary search: the records are in order). */
  seek(cursor: RowKey): void {
    let lo = this.low;
    let hi = this.next ? this.i + 2 : this.low;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newestFirst(this.key(mid), cursor) > 0) lo = mid + 1;
      else hi = mid;
    }
    if (this.next && lo <= this.i + 1) this.skipped = { from: lo, to: this.i + 1 };
    this.i = lo - 1;
    this.peek();
  }

  /** Tests the next subject and moves past it: the subject when it passes, else null. */
  take(): StreamSubject | null {
    const s = this.next as StreamSubject;
    this.peek();
    if (!this.test(s)) return null;
    this.passed++;
    return s;
  }

  /**
   * Counts into `passed` the subjects that pass among those not read yet (those a seek passed
   * over last), until `stop`, asked after each record, says to; true when every one is counted.
   */
  count(stop: () => boolean = () => false): boolean {
    for (;;) {
      while (this.next) {
        this.take();
        if (this.next && stop()) return false;
      }
      if (!this.skipped) return true;
      if (stop()) return false;
      this.low = this.skipped.from;
      this.i = this.skipped.to;
      this.skipped = null;
      this.peek();
    }
  }
}

/** Up to `limit` subjects of the lanes, newest first, older than `before` when given. */
export function mergeLanes(lanes: readonly Lane[], limit: number, before: RowKey | null): StreamSubject[] {
  if (before) for (const lane of lanes) lane.seek(before);
  const out: StreamSubject[] = [];
  while (out.length < limit) {
    let best: Lane | null = null;
    for (const lane of lanes) if (lane.next && (!best || newestFirst(lane.next, best.next as StreamSubject) < 0)) best = lane;
    if (!best) break;
    const s = best.take();
    if (s) out.push(s);
  }
  return out;
}
