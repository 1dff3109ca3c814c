// Timer props of deployed sources: each active source's schedules, their firings (never a second
// run queued behind a timer's own), and "run now", which runs with its first timer's event.

import type { SourceView } from '../../contract/source-api';
import { TimerScheduler } from '../../props/timer/timer-scheduler';
import { parseTimerSpec, type TimerSpec, timerEvent } from '../../props/timer/timer-spec';
import type { LogStore } from '../../store/log-store';
import type { SourceRecord } from '../../store/metadata';
import { sourceProps } from './dynamic-props';
import type { SourceRecords } from './source-records';
import type { SourceRun, SourceRunner } from './source-runner';

/** Schedules and fires the timers of deployed sources. */
export class SourceTimers {
  private readonly timers = new TimerScheduler({
    onError: (key, err) => console.error(`timer ${key}: ${(err as Error).message}`),
  });
  /** Timer keys (`<source id>/<prop>`) of each source. */
  private readonly keys = new Map<string, string[]>();
  /** Timers whose run has not ended. */
  private readonly firing = new Set<string>();

  constructor(
    private readonly records: SourceRecords,
    private readonly runner: SourceRunner,
    private readonly logs: LogStore,
  ) {}

  /**
   * (Re)starts a source's timers, in phase with its last change (`updated_at`) so a restart keeps
   * the schedule; an inactive source has none.
   */
  schedule(source: SourceRecord): void {
    this.unschedule(source.id);
    if (!source.active) return;
    const keys = this.specs(source).map(({ prop, spec }) => {
      const key = `${source.id}/${prop}`;
      this.timers.set(key, spec, source.updated_at * 1000, (event) => this.fire(source.id, key, event));
      return key;
    });
    this.keys.set(source.id, keys);
  }

  /** Stops a source's timers. */
  unschedule(sourceId: string): void {
    for (const key of this.keys.get(sourceId) ?? []) this.timers.clear(key);
    this.keys.delete(sourceId);
  }

  /** Each timer prop's schedule and next firing (epoch ms; null while inactive). */
  timersOf(source: SourceRecord): SourceView['timers'] {
    return Object.fromEntries(this.specs(source).map(({ prop, spec }) => [prop, { schedule: spec, next_run_at: this.timers.nextFireAt(`${source.id}/${prop}`) }]));
  }

  /** Runs a source by hand ("run now"): with its first timer's event, or `{timestamp}` if it has no timer. */
  runNow(source: SourceRecord, replayOf?: string): Promise<SourceRun> {
    const timer = this.specs(source)[0];
    const now = Date.now();
    return this.runner.invoke(source, timer ? timerEvent(timer.spec, now) : { timestamp: Math.floor(now / 1000) }, { trigger: { kind: 'run_now' }, replayOf });
  }

  /** Stops every timer. */
  stop(): void {
    this.timers.clearAll();
  }

  /** The schedule of each timer prop: the configured one, else the prop's default. */
  private specs(source: SourceRecord): Array<{ prop: string; spec: TimerSpec }> {
    const specs: Array<{ prop: string; spec: TimerSpec }> = [];
    for (const prop of sourceProps(source, this.records.component(source))) {
      if (prop.type !== '$.interface.timer') continue;
      const parsed = parseTimerSpec(source.configured_props[prop.name] ?? prop.default, `prop \`${prop.name}\``);
      if ('spec' in parsed) specs.push({ prop: prop.name, spec: parsed.spec });
    }
    return specs;
  }

  private fire(sourceId: string, key: string, event: Record<string, unknown>): void {
    const source = this.records.find(sourceId);
    if (!source?.active) return;
    if (this.firing.has(key)) {
      this.logs.add(sourceId, { level: 'warn', message: `timer ${key.slice(sourceId.length + 1)}: skipped a firing, the previous run has not ended`, invocation_id: null });
      return;
    }
    this.firing.add(key);
    this.runner
      .invoke(source, event, { trigger: { kind: 'timer' } })
      .catch((err: Error) => this.logs.add(sourceId, { level: 'error', message: `timer run failed: ${err.message}`, invocation_id: null }))
      .finally(() => this.firing.delete(key));
  }
}
