// The clock a component sees under `spout/testing`: `Date` stands still at the test's time and
// moves only when the test advances it, and the component's timers (`setTimeout`, `setInterval`,
// `timers/promises`) run on it. While a run is under way and waits on nothing but its timers
// (no host call, no live request, no file or DNS work), the clock jumps to the next timer and
// fires it: a retry that sleeps 2 s returns at once, with `Date.now()` 2 s later, as
// `@sinonjs/fake-timers`' runAll would, but only when nothing else could come first.
// Installed only when the service asks for it (a test); a deployed source keeps the real clock.
import { syncBuiltinESMExports } from 'node:module';
import timers from 'node:timers';
import timersPromises from 'node:timers/promises';

const RealDate = Date;
const realSetTimeout = setTimeout;
const realSetImmediate = setImmediate;

/** Kinds of handles that stay open while nothing is under way (the host's channel, idle sockets, timers); any other means work in progress. */
const IDLE_RESOURCES = new Set(['PipeWrap', 'TTYWrap', 'Timeout', 'Immediate', 'TCPWrap', 'TCPServerWrap', 'UDPWrap', 'SignalWrap', 'MessagePort', 'FSEventWrap', 'StatWatcher']);

/** Other I/O (files, DNS, zlib) holds the clock at most this long at a time (real ms), so a handle left open cannot stop time. */
const MAX_HOLD_MS = 250;

interface VirtualTimer {
  id: number;
  due: number;
  seq: number;
  fn: (...args: unknown[]) => void;
  args: unknown[];
  /** Repeats every this many ms (`setInterval`), else null. */
  every: number | null;
  handle: VirtualHandle;
}

/** What `setTimeout` returns: the methods Node's Timeout has, so code calling `unref()` or `refresh()` works. */
class VirtualHandle {
  constructor(
    private readonly clock: TestClock,
    readonly id: number,
  ) {}
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  hasRef(): boolean {
    return true;
  }
  refresh(): this {
    this.clock.refresh(this.id);
    return this;
  }
  close(): this {
    this.clock.clear(this);
    return this;
  }
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

/** A clock that stands still, and the timers that run on it. */
export class TestClock {
  private current: number;
  private readonly timers = new Map<number, VirtualTimer>();
  private nextId = 1;
  private seq = 0;
  /** Set while a run lets the clock jump to its timers; true while its own calls (to the service, live requests) are under way. */
  private busy: (() => boolean) | null = null;
  private driving = false;
  /** When the I/O under way now was first seen (real ms). */
  private ioSince: number | null = null;

  constructor(nowMs: number) {
    this.current = nowMs;
  }

  /** Epoch ms on this clock. */
  now(): number {
    return this.current;
  }

  /** Replaces Date and the timer functions of the global object and of `timers` and `timers/promises`. */
  install(): void {
    globalThis.Date = fakeDate(() => this.current);
    const set = (fn: unknown, ms: unknown, args: unknown[], every: boolean) => this.add(fn, ms, args, every);
    const api = {
      setTimeout: (fn: unknown, ms?: unknown, ...args: unknown[]) => set(fn, ms, args, false),
      setInterval: (fn: unknown, ms?: unknown, ...args: unknown[]) => set(fn, ms, args, true),
      clearTimeout: (handle: unknown) => this.clear(handle),
      clearInterval: (handle: unknown) => this.clear(handle),
    };
    Object.assign(globalThis, api);
    Object.assign(timers, api);
    const sleep = (ms?: number, value?: unknown, options?: { signal?: AbortSignal }) =>
      new Promise((resolve, reject) => {
        const signal = options?.signal;
        if (signal?.aborted) return reject(signal.reason ?? abortError());
        const handle = this.add(() => resolve(value), ms, [], false);
        signal?.addEventListener(
          'abort',
          () => {
            this.clear(handle);
            reject(signal.reason ?? abortError());
          },
          { once: true },
        );
      });
    (timersPromises as { setTimeout: unknown }).setTimeout = sleep;
    syncBuiltinESMExports();
  }

  /** Moves the clock to `targetMs` (never back), firing the timers due on the way, in order, each at its own time. */
  async advanceTo(targetMs: number): Promise<void> {
    for (let next = this.earliest(); next && next.due <= targetMs; next = this.earliest()) {
      await this.fire(next);
    }
    this.current = Math.max(this.current, targetMs);
  }

  /** Lets the clock jump to the component's timers while nothing else is under way (`busy()`: the run's own calls), until the returned stop is called. */
  drive(busy: () => boolean): () => void {
    this.busy = busy;
    this.ioSince = null;
    this.wake();
    return () => {
      this.busy = null;
    };
  }

  /** Called by a handle's `refresh()`: the timer starts over from now. */
  refresh(id: number): void {
    const timer = this.timers.get(id);
    if (!timer) return;
    timer.due = this.current + delayOf(timer.every ?? timer.due - this.current);
  }

  /** Clears a timer by its handle or id. */
  clear(handle: unknown): void {
    const id = handle instanceof VirtualHandle ? handle.id : Number(handle);
    this.timers.delete(id);
  }

  private add(fn: unknown, ms: unknown, args: unknown[], repeat: boolean): VirtualHandle {
    if (typeof fn !== 'function') throw new TypeError(`The "callback" argument must be of type function. Received ${typeof fn}`);
    const id = this.nextId++;
    const delay = delayOf(ms);
    const handle = new VirtualHandle(this, id);
    this.timers.set(id, { id, due: this.current + delay, seq: this.seq++, fn: fn as VirtualTimer['fn'], args, every: repeat ? delay : null, handle });
    this.wake();
    return handle;
  }

  private earliest(): VirtualTimer | undefined {
    let best: VirtualTimer | undefined;
    for (const t of this.timers.values()) if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    return best;
  }

  /** Runs one timer at its time, then lets what it started (promises, immediates) run before the next. */
  private async fire(timer: VirtualTimer): Promise<void> {
    this.current = Math.max(this.current, timer.due);
    if (timer.every === null) this.timers.delete(timer.id);
    else {
      timer.due = this.current + timer.every;
      timer.seq = this.seq++;
    }
    try {
      timer.fn.apply(timer.handle, timer.args);
    } finally {
      await new Promise((resolve) => realSetImmediate(resolve));
    }
  }

  /** Starts the driving loop if a run lets the clock jump and a timer waits. */
  private wake(): void {
    if (this.driving || !this.busy || this.timers.size === 0) return;
    this.driving = true;
    realSetImmediate(() => void this.step());
  }

  /** One look: fires the next timer once nothing has been under way for two looks in a row. */
  private async step(): Promise<void> {
    const next = this.earliest();
    if (!this.busy || !next) {
      this.driving = false;
      return;
    }
    if (this.holding()) {
      realSetTimeout(() => void this.step(), 2);
      return;
    }
    // Settled: what was under way has had a turn (its callbacks, their promises) and started nothing new.
    await new Promise((resolve) => realSetTimeout(resolve, 1));
    // The run may have ended during the wait.
    if (this.driven() && !this.holding() && this.earliest() === next) await this.fire(next);
    realSetImmediate(() => void this.step());
  }

  private driven(): boolean {
    return this.busy !== null;
  }

  /** True while the clock must wait: on the run's own calls always, on other I/O for at most MAX_HOLD_MS at a time. */
  private holding(): boolean {
    if (this.busy?.()) return true;
    if (!ioUnderWay()) {
      this.ioSince = null;
      return false;
    }
    const now = performance.now();
    this.ioSince ??= now;
    return now - this.ioSince <= MAX_HOLD_MS;
  }
}

/** True when handles other than idle ones are open: a file read, a DNS lookup, a connection being made. */
export function ioUnderWay(): boolean {
  return process.getActiveResourcesInfo().some((kind) => !IDLE_RESOURCES.has(kind));
}

/** A timer delay as Node reads one: a number of ms from 1 to 2^31-1, else 1. */
function delayOf(ms: unknown): number {
  const n = Number(ms);
  return Number.isFinite(n) && n >= 1 && n <= 2 ** 31 - 1 ? Math.floor(n) : 1;
}

function abortError(): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** A Date whose "now" is the test's: `new Date()`, `Date()` and `Date.now()` read `now()`; everything else is the real Date. */
function fakeDate(now: () => number): DateConstructor {
  function TestDate(this: unknown, ...args: unknown[]): unknown {
    if (!new.target) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  }
  Object.setPrototypeOf(TestDate, RealDate);
  TestDate.prototype = RealDate.prototype;
  TestDate.now = now;
  return TestDate as unknown as DateConstructor;
}
