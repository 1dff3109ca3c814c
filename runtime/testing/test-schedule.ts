// When a loaded source's timers fire as a test moves its clock: an interval timer at
// `loaded + k × interval` (a deployed source's are in phase with its last change), a cron timer at
// each time its expression matches (UTC unless it names a timezone), as the service fires them.
import type { ConfigurableProp } from '../contract/component-shape';
import { cronTask, parseTimerSpec, type TimerSpec } from '../props/timer/timer-spec';

/** A timer prop's schedule. */
export interface TestTimer {
  prop: string;
  spec: TimerSpec;
}

/** The timers of a prop set: each `$.interface.timer` prop's configured schedule, else its default. */
export function timersOf(props: readonly ConfigurableProp[], values: Record<string, unknown>): TestTimer[] {
  const timers: TestTimer[] = [];
  for (const prop of props) {
    if (prop.type !== '$.interface.timer') continue;
    const parsed = parseTimerSpec(values[prop.name] ?? prop.default, `prop \`${prop.name}\``);
    if ('spec' in parsed) timers.push({ prop: prop.name, spec: parsed.spec });
    else throw new Error(parsed.problem);
  }
  return timers;
}

/** Most firings one `advance` may run: a schedule of seconds over a year is a mistake, not a test. */
const MAX_FIRINGS = 10_000;

/** The firings in (fromMs, toMs], in time order (a timer's own before another's at the same ms). */
export function firingsBetween(timers: readonly TestTimer[], anchorMs: number, fromMs: number, toMs: number): Array<{ timer: TestTimer; atMs: number }> {
  const out: Array<{ timer: TestTimer; atMs: number }> = [];
  for (const timer of timers) {
    for (const atMs of times(timer.spec, anchorMs, fromMs, toMs)) {
      out.push({ timer, atMs });
      if (out.length > MAX_FIRINGS) throw new RangeError(`clock.advance: more than ${MAX_FIRINGS} timer firings; advance by less at a time`);
    }
  }
  return out.sort((a, b) => a.atMs - b.atMs);
}

function times(spec: TimerSpec, anchorMs: number, fromMs: number, toMs: number): number[] {
  if ('intervalSeconds' in spec) {
    const every = spec.intervalSeconds * 1000;
    const out: number[] = [];
    for (let k = Math.floor((fromMs - anchorMs) / every) + 1, at = anchorMs + k * every; at <= toMs; k++, at = anchorMs + k * every) if (at > fromMs) out.push(at);
    return out;
  }
  // node-cron only walks from the real clock: this walks the test's, a step at a time (a second when the expression has seconds).
  const task = cronTask(spec);
  const step = spec.cron.trim().split(/\s+/).length === 6 ? 1000 : 60_000;
  const out: number[] = [];
  for (let at = Math.floor(fromMs / step) * step + step; at <= toMs; at += step) if (task.match(new Date(at))) out.push(at);
  return out;
}
