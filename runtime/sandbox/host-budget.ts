// One memory budget for everything component hosts send the service at once. A message counts
// from the moment its length is read until the service is done with it (a run's result: until
// its events are stored and its record made); one that does not fit waits, and its host with it:
// the service stops reading that host's channel, so what it writes next waits in its own memory,
// under its own limit. Waiting messages are let in in the order they asked, so a host sending
// many small ones cannot starve one sending a large one.

/** A message waiting for room: its size, and who to tell once it is let in. */
interface Waiter {
  bytes: number;
  admit: () => void;
}

/** Bytes in flight from every host to the service, held to a capacity. */
export class HostBudget {
  private used = 0;
  private readonly waiting: Waiter[] = [];
  /** True while `give` lets messages in: a message let in may give back at once (a log line), which must not let in out of order. */
  private admitting = false;

  constructor(readonly capacity: number) {}

  /** Bytes taken now. */
  get inFlight(): number {
    return this.used;
  }

  /**
   * Takes `bytes` and answers true if they fit now and nothing waits ahead; else answers false
   * and calls `admit` once they are taken. No message is larger than the capacity: one that is
   * counts as the whole of it.
   */
  take(bytes: number, admit: () => void): boolean {
    const size = Math.min(bytes, this.capacity);
    if (this.waiting.length === 0 && this.used + size <= this.capacity) {
      this.used += size;
      return true;
    }
    this.waiting.push({ bytes: size, admit });
    return false;
  }

  /** Gives back what `take` took, letting waiting messages in, in order. */
  give(bytes: number): void {
    this.used = Math.max(0, this.used - Math.min(bytes, this.capacity));
    if (this.admitting) return;
    this.admitting = true;
    try {
      while (this.waiting.length > 0) {
        const next = this.waiting[0] as Waiter;
        if (this.used + next.bytes > this.capacity) return;
        this.waiting.shift();
        this.used += next.bytes;
        next.admit();
      }
    } finally {
      this.admitting = false;
    }
  }

  /** Forgets a message still waiting (its host ended). */
  cancel(admit: () => void): void {
    const at = this.waiting.findIndex((w) => w.admit === admit);
    if (at >= 0) this.waiting.splice(at, 1);
    // Those behind it may fit now.
    this.give(0);
  }
}
