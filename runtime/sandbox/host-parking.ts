// Hosts on demand (docs/runtime.md, "How hosts live and park"): the hosts of deployed sources stop
// ("park") once idle for `--host-idle`, and at most `--warm-hosts` stay running, the least recently
// used parking first. Nothing a source keeps lives only in its host, so a park loses nothing; the
// next invocation starts a fresh host, loaded and configured as the parked one was (sandbox.ts).

/** A sandbox whose host can be parked; `park` refuses (false) while an invocation waits or runs. */
export interface Parkable {
  park(): boolean;
}

/** When hosts park. */
export interface ParkingRules {
  /** A host idle this long is parked. */
  idleMs: number;
  /** Most hosts kept running; over it, the least recently used idle ones park. */
  warmHosts: number;
}

/** Tracks running hosts by last use, parks idle ones after `idleMs`, and keeps at most `warmHosts` running. */
export class HostParking {
  /** Sandboxes whose host runs, with when each was last used: a Map keeps insertion order, so the least recently used come first. */
  private readonly warm = new Map<Parkable, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(readonly rules: ParkingRules) {}

  /** Hosts running now (busy ones included). */
  get running(): number {
    return this.warm.size;
  }

  /**
   * A host started, or its last invocation ended: its idle time starts now, and the least recently
   * used idle hosts park while over the limit (busy ones could not park before).
   */
  used(sandbox: Parkable): void {
    this.warm.delete(sandbox);
    this.warm.set(sandbox, Date.now());
    if (!this.timer) this.arm(this.rules.idleMs);
    this.trim(sandbox);
  }

  /** Changes when hosts park (the settings): idle ones are measured against the new time, and those over the new limit park, now. */
  setRules(rules: ParkingRules): void {
    Object.assign(this.rules, rules);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.sweep();
    this.trim(null);
  }

  /** Its host ended (parked, crashed, closed). */
  forget(sandbox: Parkable): void {
    this.warm.delete(sandbox);
  }

  /** Stops the idle timer (the service is stopping). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Parks the least recently used idle hosts (never `except`, the one just used) while over the limit. */
  private trim(except: Parkable | null): void {
    let over = this.warm.size - this.rules.warmHosts;
    for (const sandbox of this.warm.keys()) {
      if (over <= 0) return;
      if (sandbox !== except && sandbox.park()) over--;
    }
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.sweep(), Math.max(ms, 0));
    // Parking never keeps the service (or a test's process) alive.
    this.timer.unref();
  }

  /** Parks every host idle for `idleMs`; a busy one is skipped (it is touched when its runs end). */
  private sweep(): void {
    this.timer = null;
    const now = Date.now();
    for (const [sandbox, usedAt] of this.warm) {
      const due = usedAt + this.rules.idleMs - now;
      if (due > 0) return this.arm(due);
      sandbox.park();
    }
  }
}
