import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { ComponentLibrary } from '../../../../runtime/components/library';
import { SourceRecords } from '../../../../runtime/engine/sources/source-records';
import type { InvokeOptions, SourceRun, SourceRunner } from '../../../../runtime/engine/sources/source-runner';
import { SourceTimers } from '../../../../runtime/engine/sources/source-timers';
import type { ComponentRecord, SourceRecord } from '../../../../runtime/store/metadata';
import { type EngineStores, openEngineStores } from '../../../helpers/engine';

const START = Date.UTC(2025, 0, 1, 12, 0, 0);

const component: ComponentRecord = {
  id: 'sc_timer',
  key: null,
  name: 'Ticker',
  version: '0.0.1',
  type: 'source',
  description: null,
  code: '',
  filename: 'ticker.mjs',
  bundle: '',
  code_hash: 'x',
  configurable_props: [{ name: 'timer', type: '$.interface.timer', default: { intervalSeconds: 60 } }],
  created_at: 0,
};

let stores: EngineStores;
let timers: SourceTimers;
let source: SourceRecord;
/** Each run the timers asked for, and a way to end it. */
let runs: Array<{ event: unknown; options: InvokeOptions; end: () => void }>;

beforeEach(async () => {
  stores = await openEngineStores();
  // The scheduler reads the clock it is built with: fake timers come first.
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: START });
  runs = [];
  source = { id: 'dc_timer', component_id: component.id, name: 'Ticker', name_slug: 'ticker', configured_props: {}, endpoints: {}, active: true, created_at: START / 1000, updated_at: START / 1000 };
  stores.metadata.data.components.push(component);
  stores.metadata.data.sources.push(source);
  await stores.logs.open(source.id);
  const runner = {
    invoke: (_source: SourceRecord, event: unknown, options: InvokeOptions) => new Promise<SourceRun>((resolve) => runs.push({ event, options, end: () => resolve({} as SourceRun) })),
  } as unknown as SourceRunner;
  timers = new SourceTimers(new SourceRecords(stores.metadata, new ComponentLibrary(stores.metadata)), runner, stores.logs);
});

afterEach(async () => {
  timers.stop();
  mock.timers.reset();
  await stores.close();
});

describe('SourceTimers', () => {
  it('fires an active source’s timer on its schedule, in phase with its last change, with the timer’s event', () => {
    timers.schedule(source);
    assert.deepEqual(timers.timersOf(source), { timer: { schedule: { intervalSeconds: 60 }, next_run_at: START + 60_000 } });
    mock.timers.tick(59_999);
    assert.equal(runs.length, 0);
    mock.timers.tick(1);
    assert.equal(runs.length, 1);
    assert.deepEqual(runs[0]!.event, { timestamp: START / 1000 + 60, interval_seconds: 60 });
    assert.deepEqual(runs[0]!.options, { trigger: { kind: 'timer' } });
  });

  it('skips a firing while the timer’s previous run has not ended, and says so in the logs', async () => {
    timers.schedule(source);
    mock.timers.tick(60_000);
    mock.timers.tick(60_000);
    assert.equal(runs.length, 1, 'no second run queued behind the first');
    assert.match(stores.logs.list(source.id)[0]!.message, /timer timer: skipped a firing, the previous run has not ended/);
    runs[0]!.end();
    await Promise.resolve();
    await Promise.resolve();
    mock.timers.tick(60_000);
    assert.equal(runs.length, 2);
  });

  it('uses a configured schedule over the default, and has none while inactive or after unschedule', () => {
    source.configured_props = { timer: { intervalSeconds: 15 } };
    timers.schedule(source);
    mock.timers.tick(15_000);
    assert.equal(runs.length, 1);
    timers.unschedule(source.id);
    mock.timers.tick(60_000);
    assert.equal(runs.length, 1);
    source.active = false;
    timers.schedule(source);
    mock.timers.tick(60_000);
    assert.equal(runs.length, 1);
    assert.equal(timers.timersOf(source).timer!.next_run_at, null);
  });

  it('runs now with the first timer’s event', () => {
    mock.timers.tick(5_000);
    void timers.runNow(source);
    assert.deepEqual(runs[0]!.event, { timestamp: START / 1000 + 5, interval_seconds: 60 });
    assert.deepEqual(runs[0]!.options, { trigger: { kind: 'run_now' }, replayOf: undefined });
  });
});
