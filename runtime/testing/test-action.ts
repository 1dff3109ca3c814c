// An action loaded for a test: `run()` runs it once as a test run in the UI does (`$.context.JIT`
// true), resolving with its `$summary`, return value, exports, logs, calls and error.
import type { ActionResult as HostActionResult } from '../contract/host-protocol';
import { durationMs, timeMs } from './durations';
import type { ActionLoadOptions, ActionResult, LoadedAction, SourceResult, TestClock, TestNetwork } from './public-api';
import { openTestComponent, resolveLoad, type TestComponent, testError } from './test-component';
import { assertRecorded } from './test-network';

/** Loads an action for a test; it loads on its first `run()` (load errors reject that run). */
export function loadTestAction(file: string, given: ActionLoadOptions): LoadedAction {
  // Resolved now: paths are relative to the test file calling this.
  const { file: absolute, options } = resolveLoad(file, given);
  let opened: Promise<TestComponent> | null = null;
  // Faults asked for before the first run wait for the network to exist.
  const faults: Array<(n: TestNetwork) => void> = [];
  let runs = 0;
  const network: TestNetwork = {
    fail: (pattern, fault) => {
      faults.push((n) => n.fail(pattern, fault));
    },
    reset: () => {
      faults.push((n) => n.reset());
    },
  };
  const ready = async () => {
    const c = await (opened ??= openTestComponent(absolute, options, 'action'));
    for (const apply of faults.splice(0)) apply(c.network);
    return c;
  };
  // The test clock's time: as given, until the host reports it moved.
  let now = options.now === undefined ? Date.now() : timeMs(options.now);
  const clock: TestClock = {
    now: () => now,
    // An action has no timers of its own to fire: the clock moves (its code's pending timers run).
    advance: async (duration): Promise<SourceResult[]> => {
      const c = await ready();
      await c.invoke({ kind: 'clock', nowMs: c.clock.nowMs + durationMs(duration) });
      now = c.clock.nowMs;
      return [];
    },
  };
  return {
    network,
    clock,
    async run(runOptions = {}): Promise<ActionResult> {
      const c = await ready();
      const steps = { trigger: { event: {} }, ...(runOptions.steps ?? {}) };
      const started = c.clock.nowMs;
      const { result, logs } = await c.invoke({ kind: 'action', stepsJson: JSON.stringify(steps), jit: true, deadlineMs: started + (options.timeoutMs ?? 30_000), runId: `run_test_${++runs}` });
      now = c.clock.nowMs;
      const outcome = result.error ? null : (result.value as HostActionResult);
      const exports = outcome?.exports ?? {};
      const summary = exports.$summary;
      return assertRecorded({
        summary: typeof summary === 'string' ? summary : summary === undefined ? null : JSON.stringify(summary),
        returnValue: outcome?.ret ?? null,
        exports,
        logs,
        calls: c.network.keep(result.calls),
        error: testError(result.error, c.file),
      });
    },
    async close() {
      if (opened) await (await opened).close();
    },
  };
}
