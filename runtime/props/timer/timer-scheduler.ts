import type { ScheduledTask } from 'node-cron';
import { cronNextAfter, cronTask, parseTimerSpec, type TimerSpec, timerEvent } from './timer-spec';

/** setTimeout clamps longer delays to 1 ms, so longer waits are chained in pieces of this size. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The first phase point anchor + k·period (k any integer) strictly after `afterMs`. */
function intervalNextAfter(anchorMs: number, periodMs: number, afterMs: number): number {
  const next = anchorMs + (Math.floor((afterMs - anchorMs) / periodMs) + 1) * periodMs;
  return next > afterMs ? next : next + periodMs;
}

interface Entry {
  spec: TimerSpec;
  anchorMs: number;
  fire: (event: Record<string, unknown>) => void;
  task: ScheduledTask | null;
  nextAt: number | null;
  timeout: NodeJS.Timeout | null;
}

/** Options of a {@link TimerScheduler}. */
export interface TimerSchedulerOptions {
  /**
   * The wall clock (epoch ms), Date.now by default. Cron match times come from node-cron, which
   * reads the global Date, so an injected clock must agree with it (node:test's mock timers fake both).
   */
  now?: () => number;
  /** Told about a `fire` that threw or rejected; the timer keeps running. Logs to stderr by default. */
  onError?: (key: string, error: unknown) => void;
}

/** Runs interval and cron timers, each under a key, on unref'ed timeouts. */
export class TimerScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly onError: (key: string, error: unknown) => void;

  constructor(options: TimerSchedulerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? ((key, error) => console.error(`timer ${key}: fire failed:`, error));
  }

  /**
   * (Re)schedules the timer under `key`. Intervals fire at anchorMs + k·interval, first the next
   * such point after now (missed points are not replayed); cron timers fire at each match and
   * ignore the anchor. Throws if `spec` is invalid (see {@link parseTimerSpec}).
   */
  set(key: string, spec: TimerSpec, anchorMs: number, fire: (event: Record<string, unknown>) => void): void {
    const parsed = parseTimerSpec(spec, `timer ${key}`);
    if ('problem' in parsed) throw new Error(parsed.problem);
    if (!Number.isFinite(anchorMs)) throw new TypeError(`timer ${key}: anchorMs must be a finite epoch-ms number, not ${anchorMs}`);
    this.clear(key);
    const entry: Entry = {
      spec: parsed.spec,
      anchorMs,
      fire,
      task: 'cron' in parsed.spec ? cronTask(parsed.spec) : null,
      nextAt: null,
      timeout: null,
    };
    this.entries.set(key, entry);
    entry.nextAt = this.following(entry, this.now());
    this.arm(key, entry);
  }

  /** Stops the timer under `key` for good; unknown keys are ignored. */
  clear(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (entry.timeout) clearTimeout(entry.timeout);
    entry.timeout = null;
    entry.nextAt = null;
    // Destroying also drops the task from node-cron's global registry.
    if (entry.task) void entry.task.destroy();
  }

  /** Stops every timer. */
  clearAll(): void {
    for (const key of [...this.entries.keys()]) this.clear(key);
  }

  /** When the timer under `key` fires next (epoch ms), or null if there is none. */
  nextFireAt(key: string): number | null {
    return this.entries.get(key)?.nextAt ?? null;
  }

  private following(entry: Entry, afterMs: number): number | null {
    if ('intervalSeconds' in entry.spec) return intervalNextAfter(entry.anchorMs, entry.spec.intervalSeconds * 1000, afterMs);
    return entry.task ? cronNextAfter(entry.task, afterMs) : null;
  }

  private arm(key: string, entry: Entry): void {
    if (entry.nextAt === null) return;
    const delay = Math.min(Math.max(entry.nextAt - this.now(), 0), MAX_TIMEOUT_MS);
    entry.timeout = setTimeout(() => this.wake(key, entry), delay);
    // A pending timer must never be what keeps the process alive.
    entry.timeout.unref?.();
  }

  private wake(key: string, entry: Entry): void {
    entry.timeout = null;
    if (this.entries.get(key) !== entry || entry.nextAt === null) return;
    const now = this.now();
    // Woken early: one link of a chained long wait, a timer a hair early, or the clock stepped back.
    if (now < entry.nextAt) return this.arm(key, entry);
    // Computed from the schedule, not from this firing, so intervals never drift; points missed
    // while the loop was blocked are skipped rather than fired in a burst.
    entry.nextAt = this.following(entry, now);
    this.deliver(key, entry, now);
    // `fire` may have cleared or replaced this timer.
    if (this.entries.get(key) === entry) this.arm(key, entry);
  }

  private deliver(key: string, entry: Entry, firedAtMs: number): void {
    try {
      const result: unknown = entry.fire(timerEvent(entry.spec, firedAtMs));
      // An async `fire` is assignable to the void signature; its rejection must not go unhandled.
      if (result instanceof Promise) result.catch((error: unknown) => this.onError(key, error));
    } catch (error) {
      this.onError(key, error);
    }
  }
}
