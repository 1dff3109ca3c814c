// One memory budget for everything component hosts send the service at once. A message counts
// from the moment its length is read until the service is done with it (a run's result: until
// its events are stored and its record made); one that does not fit waits, and its host with it:
// the service stops reading that host's channel, so what it writes next waits in its own memory,
// under its own limit. Waiting messages are let in in the order they asked, so a host sending
// many small ones cannot starve one sending a large one. Events cost the service far more than
// their bytes (objects, stored lines, records, delivery messages: about 2 KB each for small ones,
// bench/host-flood.ts), so each event a message carries counts EVENT_BYTES more.

/** What each event in a host's message counts beyond its bytes: 200 000 small events (about 16 MB) count 118 MB, within the budget. */
export const EVENT_BYTES = 512;

/** A message waiting for room: its size, and who to tell once it is let in. */
interface Waiter {
  bytes: number;
  admit: () => void;
}

/** Bytes in flight from every host to the service, held to a capacity. */
export class HostBudget {
  private used = 0;
  private highest = 0;
  private readonly waiting: Waiter[] = [];
  /** True while `give` lets messages in: a message let in may give back at once (a log line), which must not let in out of order. */
  private admitting = false;

  constructor(readonly capacity: number) {}

  /** Bytes taken now. */
  get inFlight(): number {
    return this.used;
  }

  /** The most bytes taken at once since it started (or `resetPeak`): what the service held of what hosts sent. */
  get peak(): number {
    return this.highest;
  }

  /** Starts counting `peak` afresh from what is taken now. */
  resetPeak(): void {
    this.highest = this.used;
  }

  /**
   * Takes `bytes` and answers true if they fit now and nothing waits ahead; else answers false
   * and calls `admit` once they are taken. A message larger than the capacity comes in alone.
   */
  take(bytes: number, admit: () => void): boolean {
    if (this.waiting.length === 0 && this.fits(bytes)) {
      this.add(bytes);
      return true;
    }
    this.waiting.push({ bytes, admit });
    return false;
  }

  /** Counts `bytes` more for a message already in (what it costs beyond its size), even past the capacity: later ones wait. */
  charge(bytes: number): void {
    this.add(bytes);
  }

  private add(bytes: number): void {
    this.used += bytes;
    if (this.used > this.highest) this.highest = this.used;
  }

  /** Gives back what `take` and `charge` took, letting waiting messages in, in order. */
  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
    if (this.admitting) return;
    this.admitting = true;
    try {
      while (this.waiting.length > 0) {
        const next = this.waiting[0] as Waiter;
        if (!this.fits(next.bytes)) return;
        this.waiting.shift();
        this.add(next.bytes);
        next.admit();
      }
    } finally {
      this.admitting = false;
    }
  }

  private fits(bytes: number): boolean {
    return this.used === 0 || this.used + bytes <= this.capacity;
  }

  /** Forgets a message still waiting (its host ended). */
  cancel(admit: () => void): void {
    const at = this.waiting.findIndex((w) => w.admit === admit);
    if (at >= 0) this.waiting.splice(at, 1);
    // Those behind it may fit now.
    this.give(0);
  }
}
