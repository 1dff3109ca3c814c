/** Makes event ids `<ms>-<seq>` that increase strictly, even when the clock steps back. */
export class EventIdClock {
  private lastMs = 0;
  private seq = 0;

  /** Continues after an id already issued (read back from disk). */
  observe(id: string): void {
    const [ms, seq] = parseEventId(id);
    if (ms > this.lastMs || (ms === this.lastMs && seq >= this.seq)) {
      this.lastMs = ms;
      this.seq = seq + 1;
    }
  }

  /** The next id and the millisecond it stands for. */
  next(now = Date.now()): { id: string; ms: number } {
    if (now > this.lastMs) {
      this.lastMs = now;
      this.seq = 0;
    }
    const id = `${this.lastMs}-${this.seq}`;
    this.seq++;
    return { id, ms: this.lastMs };
  }
}

/** Splits `<ms>-<seq>`; NaN parts mean the id is malformed. */
export function parseEventId(id: string): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(id);
  return m ? [Number(m[1]), Number(m[2])] : [Number.NaN, Number.NaN];
}

/** True if `id` has the `<ms>-<seq>` form. */
export function isEventId(id: string): boolean {
  return /^\d+-\d+$/.test(id);
}

/** Orders two event ids; negative when `a` is older. */
export function compareEventIds(a: string, b: string): number {
  const [am, as] = parseEventId(a);
  const [bm, bs] = parseEventId(b);
  return am !== bm ? am - bm : as - bs;
}
