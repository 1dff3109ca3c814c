// Crash supervision: a source whose component host keeps ending on its own is deactivated, so it
// cannot restart in a loop; a user's update or activation starts its count over.
import type { HostExit } from '../../sandbox/host-process';
import type { LogStore } from '../../store/log-store';
import type { SourceHosts } from './source-hosts';
import { nowSeconds, type SourceRecords } from './source-records';
import type { SourceTimers } from './source-timers';

/** A source whose host ends this many times within CRASH_WINDOW_MS is deactivated. */
const CRASH_LIMIT = 5;
const CRASH_WINDOW_MS = 5 * 60_000;

/** Counts the ends of sources' hosts, and deactivates a source that crashes too often. */
export class CrashGuard {
  /** When each source's host last ended on its own (crashes, memory), newest last. */
  private readonly crashes = new Map<string, number[]>();

  constructor(
    private readonly records: SourceRecords,
    private readonly hosts: SourceHosts,
    private readonly timers: SourceTimers,
    private readonly logs: LogStore,
  ) {}

  /**
   * Counts a host that ended on its own (not a timeout: that is one slow run, and the service
   * stopped it). A source whose host keeps ending is deactivated.
   */
  hostExited(sourceId: string, exit: HostExit): void {
    if (exit.cause === 'timeout' || exit.cause === 'stopped') return;
    const now = Date.now();
    const recent = (this.crashes.get(sourceId) ?? []).filter((t) => now - t < CRASH_WINDOW_MS);
    recent.push(now);
    this.crashes.set(sourceId, recent);
    const source = this.records.find(sourceId);
    if (recent.length < CRASH_LIMIT || !source?.active) return;
    this.crashes.delete(sourceId);
    source.active = false;
    source.deactivated_reason = `deactivated after its component host ended ${CRASH_LIMIT} times within ${CRASH_WINDOW_MS / 60_000} minutes (last: ${exit.message}); update its code or set it active again`;
    source.updated_at = nowSeconds();
    this.timers.unschedule(sourceId);
    this.hosts.suspend(sourceId);
    this.logs.add(sourceId, { level: 'error', message: source.deactivated_reason, invocation_id: null });
    this.records.save().catch((err: Error) => console.error(`saving ${sourceId}: ${err.message}`));
  }

  /** Starts a source's count over (it was activated again, or removed). */
  forget(sourceId: string): void {
    this.crashes.delete(sourceId);
  }
}
