// Timer interfaces through the real service: interval and cron schedules, configured schedules,
// run now, and no firing while inactive or after delete; schedules resume after a restart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** A source (written for this test) that emits each timer event it gets. */
const ticker = (schedule: string) => `
export default {
  name: "Ticker",
  version: "0.0.1",
  props: { timer: { type: "$.interface.timer", default: ${schedule} } },
  async run(event) { this.$emit(event, { summary: "tick" }); },
};`;

type TimerEvent = { timestamp: number; interval_seconds?: number; cron?: string };

describe('timers', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  const deploy = async (code: string, configured: Record<string, unknown> = {}) => {
    const res = await spout.api('POST', '/v1/sources', { component_code: code, configured_props: configured });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json.data as { id: string; timers: Record<string, { schedule: unknown; next_run_at: number | null }> };
  };
  const events = async (id: string): Promise<TimerEvent[]> => ((await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=100`)).json.data as Array<{ event: TimerEvent }>).map((e) => e.event).reverse();
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('fires a one-second interval timer once a second, with the spec’s event', async () => {
    const { id, timers } = await deploy(ticker('{ intervalSeconds: 1 }'));
    assert.deepEqual(timers.timer!.schedule, { intervalSeconds: 1 });
    assert.ok(timers.timer!.next_run_at! > Date.now() - 1000);
    const fired = await waitFor(async () => ((await events(id)).length >= 3 ? events(id) : null), 10_000, 'three firings');
    for (const e of fired) assert.equal(e.interval_seconds, 1);
    const seconds = fired.map((e) => e.timestamp);
    assert.equal(new Set(seconds).size, seconds.length, 'one firing per second, never two in the same second');
    await spout.api('DELETE', `/v1/sources/${id}`);
  });

  it('honours a cron schedule (seconds field) and carries the expression', async () => {
    const { id } = await deploy(ticker('{ cron: "*/2 * * * * *" }'));
    const fired = await waitFor(async () => ((await events(id)).length >= 2 ? events(id) : null), 10_000, 'two cron firings');
    for (const e of fired) {
      assert.equal(e.cron, '*/2 * * * * *');
      assert.equal(e.timestamp % 2, 0, 'fires on even seconds only');
    }
    await spout.api('DELETE', `/v1/sources/${id}`);
  });

  it('uses a configured schedule over the default, checks it, and runs now with the timer’s event', async () => {
    const bad = await spout.api('POST', '/v1/sources', { component_code: ticker('{ intervalSeconds: 1 }'), configured_props: { timer: { intervalSeconds: 0 } } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.errors[0].path, 'configured_props.timer');
    assert.match(bad.json.errors[0].message, /prop `timer`: intervalSeconds must be a whole number of seconds ≥ 1, not 0/);
    const noDefault = `export default { name: "Bare timer", version: "0.0.1", props: { timer: "$.interface.timer" }, async run() {} };`;
    const missing = await spout.api('POST', '/v1/sources', { component_code: noDefault });
    assert.equal(missing.status, 400);
    assert.match(missing.json.error, /prop `timer` has no default schedule; configure one/);

    const { id, timers } = await deploy(ticker('{ intervalSeconds: 1 }'), { timer: { intervalSeconds: 3600 } });
    assert.deepEqual(timers.timer!.schedule, { intervalSeconds: 3600 });
    assert.ok(timers.timer!.next_run_at! > Date.now() + 3_000_000, 'the next firing is an hour out');
    const run = await spout.api('POST', `/v1/sources/${id}/run`);
    assert.equal(run.json.data.error, null);
    const [event] = await events(id);
    assert.equal(event!.interval_seconds, 3600);
    assert.ok(Math.abs(event!.timestamp - Date.now() / 1000) < 60);
    await spout.api('DELETE', `/v1/sources/${id}`);
  });

  it('never fires while inactive or after delete, fires again when reactivated, and resumes after a restart', async () => {
    const { id } = await deploy(ticker('{ intervalSeconds: 1 }'));
    await waitFor(async () => (await events(id)).length >= 1, 10_000, 'a first firing');
    const off = await spout.api('PUT', `/v1/sources/${id}`, { active: false });
    assert.equal(off.json.data.timers.timer.next_run_at, null);
    const whileOff = (await events(id)).length;
    await pause(2500);
    assert.equal((await events(id)).length, whileOff, 'an inactive source’s timer does not fire');

    await spout.api('PUT', `/v1/sources/${id}`, { active: true });
    await waitFor(async () => (await events(id)).length > whileOff, 10_000, 'a firing after reactivation');

    await spout.stop();
    spout = await startSpout({ dataDir: spout.dataDir, apiKey: spout.apiKey });
    const atRestart = (await events(id)).length;
    await waitFor(async () => (await events(id)).length > atRestart, 10_000, 'a firing after the restart');

    assert.equal((await spout.api('DELETE', `/v1/sources/${id}`)).status, 204);
    // Deleted: its events are gone with it, and nothing fires into a new source with that id.
    await pause(2500);
    assert.equal((await spout.api('GET', `/v1/sources/${id}/event_summaries`)).status, 404);
  });
});
