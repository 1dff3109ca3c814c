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
  const dash = id.indexOf('-');
  const ms = digitsValue(id, 0, dash);
  const seq = digitsValue(id, dash + 1, id.length);
  return Number.isNaN(ms) || Number.isNaN(seq) ? [Number.NaN, Number.NaN] : [ms, seq];
}

/**
 * The number the decimal digits `text[from, to)` spell; NaN if that is empty or not all digits.
 * Read by hand: ids are compared for every delivery message and every cursor, and a regular
 * expression match costs twice as much.
 */
function digitsValue(text: string, from: number, to: number): number {
  if (from >= to) return Number.NaN;
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  // Past 15 digits the running sum can round differently from Number(): take Number()'s value.
  return to - from > 15 ? Number(text.slice(from, to)) : value;
}

/** True if `id` has the `<ms>-<seq>` form. */
export function isEventId(id: string): boolean {
  const [ms, seq] = parseEventId(id);
  return !Number.isNaN(ms) && !Number.isNaN(seq);
}

/** Orders two event ids; negative when `a` is older. */
export function compareEventIds(a: string, b: string): number {
  const [am, as] = parseEventId(a);
  const [bm, bs] = parseEventId(b);
  return am !== bm ? am - bm : as - bs;
}
