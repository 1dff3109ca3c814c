import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TimerScheduler } from '../../../../runtime/props/timer/timer-scheduler';
import { parseTimerSpec, type TimerSpec, timerEvent } from '../../../../runtime/props/timer/timer-spec';

const WHERE = 'prop `timer`';
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** 2025-01-01T00:00:00Z, a whole day, so cron matches are easy to read. */
const START = Date.UTC(2025, 0, 1);

const spec = (value: unknown): TimerSpec => {
  const parsed = parseTimerSpec(value, WHERE);
  if ('problem' in parsed) assert.fail(parsed.problem);
  return parsed.spec;
};
const problem = (value: unknown): string => {
  const parsed = parseTimerSpec(value, WHERE);
  if ('spec' in parsed) assert.fail(`accepted ${JSON.stringify(value)}`);
  return parsed.problem;
};

/**
 * Advances the mocked clock in steps. MockTimers.tick moves the clock to the end of the tick before
 * running what fell due, so each step is a firing's resolution; steps must divide the schedule.
 */
function advance(ms: number, step = 1000): void {
  const end = Date.now() + ms;
  while (Date.now() < end) mock.timers.tick(Math.min(step, end - Date.now()));
}

describe('parseTimerSpec', () => {
  it('accepts the shapes registry components use', () => {
    assert.deepEqual(spec({ intervalSeconds: 60 * 15 }), { intervalSeconds: 900 });
    assert.deepEqual(spec({ cron: '0 0 * * *' }), { cron: '0 0 * * *' });
    assert.deepEqual(spec({ cron: '0 9 * * 1-5', timezone: 'America/New_York' }), { cron: '0 9 * * 1-5', timezone: 'America/New_York' });
    assert.deepEqual(spec({ cron: '*/10 * * * * *' }), { cron: '*/10 * * * * *' }, 'node-cron takes a leading seconds field');
    assert.deepEqual(spec({ cron: '@daily' }), { cron: '@daily' });
  });

  it('names the prop and the fix for a bad interval', () => {
    assert.equal(problem({ intervalSeconds: 0.5 }), 'prop `timer`: intervalSeconds must be a whole number of seconds ≥ 1, not 0.5');
    assert.equal(problem({ intervalSeconds: 0 }), 'prop `timer`: intervalSeconds must be a whole number of seconds ≥ 1, not 0');
    assert.equal(problem({ intervalSeconds: -60 }), 'prop `timer`: intervalSeconds must be a whole number of seconds ≥ 1, not -60');
    assert.equal(problem({ intervalSeconds: '900' }), 'prop `timer`: intervalSeconds must be a whole number of seconds ≥ 1, not "900" (a string)');
    assert.equal(problem({ intervalSeconds: Number.NaN }), 'prop `timer`: intervalSeconds must be a whole number of seconds ≥ 1, not NaN');
    assert.match(problem({ intervalSeconds: 1e12 }), /^prop `timer`: intervalSeconds must be at most \d+ \(ten years\), not 1000000000000$/);
  });

  it('names the prop, the reason and an example for a bad cron', () => {
    assert.equal(problem({ cron: '61 * * * *' }), 'prop `timer`: cron "61 * * * *" is not a valid cron expression (minute 61 is out of range 0-59); use 5 fields such as "*/15 * * * *"');
    assert.match(problem({ cron: '0 24 * * *' }), /\(hour 24 is out of range 0-23\)/);
    assert.match(problem({ cron: '* * *' }), /^prop `timer`: cron "\* \* \*" is not a valid cron expression \(it has 3 fields; cron takes 5, or 6 with seconds first\); use 5 fields/);
    assert.match(problem({ cron: 'often * * * *' }), /\(minute "often" is not valid\)/);
    assert.match(problem({ cron: '*/0 * * * *' }), /\(minute "\*\/0" is not valid\)/);
    assert.match(problem({ cron: '0 0 31 2 *' }), /\(day of month 31 never occurs in the given month\)/);
    assert.match(problem({ cron: '0 0 * * * !' }), /\(it contains characters other than/);
    assert.equal(problem({ cron: '  ' }), 'prop `timer`: cron is empty; use 5 fields such as "*/15 * * * *"');
    assert.equal(problem({ cron: 15 }), 'prop `timer`: cron must be a string such as "*/15 * * * *", not 15');
  });

  it('names an unknown timezone', () => {
    assert.equal(problem({ cron: '0 0 * * *', timezone: 'Mars/Olympus_Mons' }), 'prop `timer`: unknown timezone "Mars/Olympus_Mons"; use an IANA name such as "UTC" or "America/New_York"');
    assert.match(problem({ cron: '0 0 * * *', timezone: 5 }), /^prop `timer`: unknown timezone 5;/);
  });

  it('says what to give when the shape is wrong', () => {
    for (const value of [undefined, null]) assert.match(problem(value), /^prop `timer`: no schedule given; give \{ intervalSeconds: 900 \} or \{ cron: /);
    assert.match(problem('*/5 * * * *'), /^prop `timer`: expected \{ intervalSeconds: 900 \} or \{ cron: .*, not "\*\/5 \* \* \* \*" \(a string\)$/);
    assert.match(problem(900), /, not 900$/);
    assert.match(problem([]), /, not an array$/);
    assert.match(problem({}), /^prop `timer`: neither intervalSeconds nor cron is set; give \{ intervalSeconds: 900 \}/);
    assert.match(problem({ interval: 60 }), /^prop `timer`: neither intervalSeconds nor cron is set \(found interval\); give /);
    assert.equal(problem({ intervalSeconds: 60, cron: '* * * * *' }), 'prop `timer`: give either intervalSeconds or cron, not both');
  });

  it('names unknown keys', () => {
    assert.match(problem({ intervalSeconds: 60, every: 1 }), /^prop `timer`: unknown key every; a timer takes /);
    assert.match(problem({ cron: '* * * * *', foo: 1, bar: 2 }), /^prop `timer`: unknown keys foo, bar; a timer takes /);
    assert.match(problem({ intervalSeconds: 60, timezone: 'UTC' }), /^prop `timer`: unknown key timezone \(timezone applies only to cron timers\);/);
  });
});

describe('timerEvent', () => {
  it('carries the epoch-seconds timestamp and the schedule', () => {
    assert.deepEqual(timerEvent({ intervalSeconds: 900 }, 1_700_000_000_999), { timestamp: 1_700_000_000, interval_seconds: 900 });
    assert.deepEqual(timerEvent({ cron: '0 0 * * *', timezone: 'UTC' }, 1_700_000_000_000), { timestamp: 1_700_000_000, cron: '0 0 * * *' });
  });
});

describe('TimerScheduler', () => {
  let scheduler: TimerScheduler;
  let errors: { key: string; error: unknown }[];

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: START });
    errors = [];
    scheduler = new TimerScheduler({ onError: (key, error) => errors.push({ key, error }) });
  });
  afterEach(() => {
    scheduler.clearAll();
    mock.timers.reset();
    mock.restoreAll();
  });

  /** Records each firing's clock time and event. */
  const recorder = () => {
    const fired: { at: number; event: Record<string, unknown> }[] = [];
    return { fired, fire: (event: Record<string, unknown>) => void fired.push({ at: Date.now(), event }) };
  };

  it('fires an interval on the anchor phase', () => {
    const { fired, fire } = recorder();
    const anchor = START - 25_000; // deployed 25 s ago: phase points at :35 of each minute
    scheduler.set('dc_a', { intervalSeconds: 60 }, anchor, fire);
    assert.equal(scheduler.nextFireAt('dc_a'), START + 35_000);
    advance(35_000 - 1000);
    assert.equal(fired.length, 0);
    advance(1000 + 3 * MIN);
    assert.deepEqual(
      fired.map((f) => f.at),
      [35_000, 95_000, 155_000, 215_000].map((ms) => START + ms),
    );
    assert.deepEqual(fired[0]!.event, { timestamp: (START + 35_000) / 1000, interval_seconds: 60 });
    assert.equal(scheduler.nextFireAt('dc_a'), START + 275_000);
  });

  it('does not drift when firings run late', () => {
    const fired: number[] = [];
    const planned: (number | null)[] = [];
    scheduler.set('dc_a', { intervalSeconds: 60 }, START, () => {
      fired.push(Date.now());
      planned.push(scheduler.nextFireAt('dc_a'));
    });
    // 7 s steps: each firing is seen up to 6 s late, yet the schedule stays on the minute.
    advance(10 * MIN, 7000);
    assert.equal(fired.length, 10);
    assert.ok(
      fired.some((at) => at % MIN !== 0),
      'some firings ran late',
    );
    assert.deepEqual(
      planned,
      Array.from({ length: 10 }, (_, i) => START + (i + 2) * MIN),
    );
    assert.ok(fired.every((at, i) => at >= START + (i + 1) * MIN && at < START + (i + 1) * MIN + 7000));
  });

  it('keeps the phase across a restart and does not replay missed firings', () => {
    const anchor = START;
    const first = recorder();
    scheduler.set('dc_a', { intervalSeconds: 60 }, anchor, first.fire);
    advance(2 * MIN + 30_000);
    assert.equal(first.fired.length, 2);
    scheduler.clearAll(); // the process stops…
    advance(3 * MIN); // …and misses the firings at 3, 4 and 5 minutes

    const restarted = new TimerScheduler();
    const second = recorder();
    restarted.set('dc_a', { intervalSeconds: 60 }, anchor, second.fire);
    assert.equal(restarted.nextFireAt('dc_a'), START + 6 * MIN);
    advance(29_000);
    assert.equal(second.fired.length, 0, 'missed firings are not replayed');
    advance(1000);
    assert.deepEqual(
      second.fired.map((f) => f.event),
      [{ timestamp: (START + 6 * MIN) / 1000, interval_seconds: 60 }],
    );
    restarted.clearAll();
  });

  it('fires an interval longer than setTimeout allows', () => {
    const delays: number[] = [];
    const { fired, fire } = recorder();
    const real = globalThis.setTimeout;
    mock.method(globalThis, 'setTimeout', (fn: () => void, ms: number) => {
      delays.push(ms);
      return real(fn, ms);
    });
    scheduler.set('dc_a', { intervalSeconds: 30 * 24 * 60 * 60 }, START, fire);
    assert.equal(scheduler.nextFireAt('dc_a'), START + 30 * DAY);
    advance(30 * DAY - 60 * MIN, 60 * MIN);
    assert.equal(fired.length, 0);
    advance(60 * MIN, 60 * MIN);
    assert.deepEqual(
      fired.map((f) => f.at),
      [START + 30 * DAY],
    );
    assert.equal(scheduler.nextFireAt('dc_a'), START + 60 * DAY);
    assert.ok(delays.length > 2, 'the wait was chained');
    assert.ok(
      delays.every((ms) => ms <= 2 ** 31 - 1),
      `every delay fits setTimeout: ${delays.join(', ')}`,
    );
  });

  it('fires a cron timer at each match with the cron in the event', () => {
    const { fired, fire } = recorder();
    advance(90_000); // 00:01:30
    scheduler.set('dc_c', { cron: '*/5 * * * *' }, Date.now(), fire);
    assert.equal(scheduler.nextFireAt('dc_c'), START + 5 * MIN);
    advance(20 * MIN);
    assert.deepEqual(
      fired.map((f) => f.at),
      [5, 10, 15, 20].map((m) => START + m * MIN),
    );
    assert.deepEqual(fired[0]!.event, { timestamp: (START + 5 * MIN) / 1000, cron: '*/5 * * * *' });
    assert.equal(scheduler.nextFireAt('dc_c'), START + 25 * MIN);
  });

  it('reads cron in UTC unless a timezone is given', () => {
    const noop = () => undefined;
    scheduler.set('utc', { cron: '0 9 * * *' }, START, noop);
    scheduler.set('ny', { cron: '0 9 * * *', timezone: 'America/New_York' }, START, noop);
    assert.equal(scheduler.nextFireAt('utc'), Date.UTC(2025, 0, 1, 9));
    assert.equal(scheduler.nextFireAt('ny'), Date.UTC(2025, 0, 1, 14), '09:00 EST is 14:00 UTC');
  });

  it('replaces the timer when set again under the same key', () => {
    const old = recorder();
    const current = recorder();
    scheduler.set('dc_a', { intervalSeconds: 60 }, START, old.fire);
    scheduler.set('dc_a', { cron: '*/10 * * * * *' }, START, current.fire);
    advance(MIN);
    assert.equal(old.fired.length, 0);
    assert.equal(current.fired.length, 6);
    assert.deepEqual(current.fired.at(-1)!.event, { timestamp: (START + MIN) / 1000, cron: '*/10 * * * * *' });
  });

  it('stops a cleared timer for good, even from inside fire', () => {
    const { fired, fire } = recorder();
    scheduler.set('dc_a', { intervalSeconds: 10 }, START, fire);
    advance(25_000);
    scheduler.clear('dc_a');
    assert.equal(scheduler.nextFireAt('dc_a'), null);
    advance(10 * MIN, 10_000);
    assert.equal(fired.length, 2);

    let count = 0;
    scheduler.set('dc_b', { intervalSeconds: 10 }, Date.now(), () => {
      count++;
      scheduler.clear('dc_b');
    });
    advance(MIN);
    assert.equal(count, 1);
    scheduler.clear('unknown'); // ignored
  });

  it('keeps firing after fire throws or rejects', async () => {
    let calls = 0;
    scheduler.set('dc_a', { intervalSeconds: 10 }, START, () => {
      calls++;
      throw new Error(`boom ${calls}`);
    });
    scheduler.set('dc_b', { intervalSeconds: 10 }, START, async () => {
      throw new Error('async boom');
    });
    advance(30_000);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls, 3);
    assert.deepEqual(
      errors.filter((e) => e.key === 'dc_a').map((e) => (e.error as Error).message),
      ['boom 1', 'boom 2', 'boom 3'],
    );
    assert.equal(errors.filter((e) => e.key === 'dc_b').length, 3);
    assert.equal(scheduler.nextFireAt('dc_a'), START + 40_000);
  });

  it('answers nextFireAt and rejects an invalid spec', () => {
    assert.equal(scheduler.nextFireAt('nothing'), null);
    assert.throws(() => scheduler.set('dc_a', { intervalSeconds: 0 }, START, () => undefined), /^Error: timer dc_a: intervalSeconds must be/);
    assert.throws(() => scheduler.set('dc_a', { cron: 'nope' }, START, () => undefined), /not a valid cron expression/);
    assert.equal(scheduler.nextFireAt('dc_a'), null);
    scheduler.set('dc_a', { intervalSeconds: 3600 }, START - 90 * MIN, () => undefined);
    assert.equal(scheduler.nextFireAt('dc_a'), START + 30 * MIN);
  });
});

describe('TimerScheduler process lifetime', () => {
  it('never keeps the process alive', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
    const script = `
      import { TimerScheduler } from './runtime/props/timer/timer-scheduler.ts';
      const s = new TimerScheduler();
      s.set('a', { intervalSeconds: 3600 }, Date.now(), () => {});
      s.set('b', { cron: '0 0 * * *' }, Date.now(), () => {});
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    assert.equal(child.signal, null, 'the process exited by itself');
    assert.equal(child.status, 0, child.stderr);
  });
});
