// Budgets of what component code writes (log text, emitted events): so much per run, and so much
// per minute for code still running after its run ended (a timer, a stray promise). Counted in the
// host, where the code is told at once, and again in the service, which trusts no host.

/** What taking from a budget came to: within it, just over it (say so once), or over it already. */
export type Spend = 'ok' | 'over' | 'still-over';

/** Bytes used per run, and by code running outside any run, against their limits. */
export class RunBudget {
  private readonly used = new Map<string, number>();
  private stray = 0;
  private strayWindow = 0;

  constructor(
    /** Bytes one run may use. */
    readonly perRun: number,
    /** Bytes code outside any run may use per minute. */
    readonly strayPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes `bytes` from the budget of run `runId` (null: code outside any run). */
  take(runId: string | null, bytes: number): Spend {
    if (runId === null) {
      const window = Math.floor(this.now() / 60_000);
      if (window !== this.strayWindow) {
        this.strayWindow = window;
        this.stray = 0;
      }
      return spend(this.stray, (this.stray += bytes), this.strayPerMinute);
    }
    const before = this.used.get(runId) ?? 0;
    this.used.set(runId, before + bytes);
    return spend(before, before + bytes, this.perRun);
  }

  /** Forgets a run that ended. */
  end(runId: string): void {
    this.used.delete(runId);
  }
}

function spend(before: number, after: number, limit: number): Spend {
  if (after <= limit) return 'ok';
  return before <= limit ? 'over' : 'still-over';
}

/** The line that stands for log lines dropped past a budget. */
export function droppedLogsLine(budget: RunBudget, runId: string | null): string {
  return runId === null
    ? `… further log lines written outside a run are dropped until the minute is over: code left running after its run ended may log ${mb(budget.strayPerMinute)} a minute (docs/security.md)`
    : `… further log lines of this run are dropped: a run may log ${mb(budget.perRun)} (docs/security.md)`;
}

function mb(bytes: number): string {
  return `${bytes / (1024 * 1024)} MB`;
}
