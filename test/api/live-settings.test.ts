// Settings changed through PATCH /v1/settings (issue 47, point 6): saved in the data dir, applied
// without a restart (the delivery thread's retry schedule, the run timeout, retention), kept across
// a restart, overridden by a flag given at start, and refused with a 400 naming the setting and its range.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';
import { createWebhook, messages, subscribe } from '../helpers/webhooks';

/** An HTTP source (written for this test) that emits each request, and whose run waits forever when asked to `?wait=1`. */
const WAITER = `export default { name: "Waiter", version: "0.0.1", props: { http: "$.interface.http" },
  async run(event) {
    if (event.query.wait) await new Promise(() => {});
    this.$emit({ n: event.body?.n ?? null });
  } };`;

describe('live settings', () => {
  const started: SpoutProcess[] = [];
  const receivers: Receiver[] = [];
  const start = async (options: Parameters<typeof startSpout>[0] = {}) => {
    const spout = await startSpout(options);
    started.push(spout);
    return spout;
  };
  after(async () => {
    for (const spout of started) await spout.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });
  const post = (url: string, body: unknown = {}) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('uses a retry schedule changed while running for the next delivery, without a restart', async () => {
    const spout = await start();
    const before = (await spout.api('GET', '/v1/settings')).json.data;
    assert.equal(before.editable.retry_schedule.origin, 'default');
    assert.equal(before.editable.retry_schedule.restart_required, false);
    // The default schedule waits 5 s, then 5 min: a message could not fail within this test by it.
    const patched = await spout.api('PATCH', '/v1/settings', { retry_schedule: [0.1, 0.1] });
    assert.equal(patched.status, 200, JSON.stringify(patched.json));
    assert.deepEqual(patched.json.data.retry_schedule, [0.1, 0.1]);
    assert.equal(patched.json.data.editable.retry_schedule.origin, 'saved');

    const receiver = await startReceiver();
    receivers.push(receiver);
    receiver.respond = () => 500;
    const source = await deploySource(spout, WAITER);
    const hook = await createWebhook(spout, receiver.url);
    await subscribe(spout, source.id, hook.id);
    assert.equal((await post(source.endpoint)).status, 200);
    await waitFor(async () => (await messages(spout, hook.id, 'failed')).total === 1, 20_000, 'the message to fail after the new schedule');
    assert.equal(receiver.received.length, 3, 'one attempt and the two retries of the new schedule');
  });

  it('stops a run at a run timeout changed while its host runs', async () => {
    const spout = await start();
    const source = await deploySource(spout, WAITER);
    assert.equal((await post(source.endpoint)).status, 200, 'the host is loaded with the old timeout');
    const patched = await spout.api('PATCH', '/v1/settings', { run_timeout_seconds: 1 });
    assert.equal(patched.json.data.run_timeout_seconds, 1);
    await post(`${source.endpoint}?wait=1`);
    const run = await waitFor(
      async () => {
        const runs = (await spout.api('GET', `/v1/sources/${source.id}/invocations?limit=1`)).json.data as Array<{ status: string; error: { message: string } | null }>;
        return runs[0]?.status === 'timeout' ? runs[0] : null;
      },
      30_000,
      'the waiting run to time out',
    );
    assert.match(run.error?.message ?? '', /timed out after 1 s/);
  });

  it('applies retention at once, keeps it across a restart, and lets a flag given at start win', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir });
    const source = await deploySource(first, WAITER);
    for (const n of [1, 2, 3, 4]) assert.equal((await post(source.endpoint, { n })).status, 200);
    const count = async (spout: SpoutProcess, what: 'event_summaries' | 'invocations') => (await spout.api('GET', `/v1/sources/${source.id}/${what}?limit=100`)).json.page_info.total_count as number;
    assert.equal(await count(first, 'event_summaries'), 4);
    const patched = await first.api('PATCH', '/v1/settings', { event_retention: 2, invocation_retention: 3 });
    assert.equal(patched.status, 200, JSON.stringify(patched.json));
    assert.equal(await count(first, 'event_summaries'), 2, 'the oldest events went at once');
    assert.equal(await count(first, 'invocations'), 3, 'the oldest runs went at once');
    assert.equal((await post(source.endpoint, { n: 5 })).status, 200);
    // New events keep to it too (trimmed in batches: a tenth of the retention, at least one, over it at most).
    const kept = (await first.api('GET', `/v1/sources/${source.id}/event_summaries?limit=100&expand=event`)).json.data as Array<{ event: { n: number } }>;
    assert.equal(kept[0]?.event.n, 5);
    assert.ok(kept.length <= 3, `${kept.length} events kept`);
    await first.stop();

    const second = await start({ dataDir });
    const after = (await second.api('GET', '/v1/settings')).json.data;
    assert.equal(after.event_retention, 2);
    assert.equal(after.invocation_retention, 3);
    assert.equal(after.editable.event_retention.origin, 'saved');
    assert.equal(await count(second, 'event_summaries'), 2);
    // Back to the default.
    const reset = await second.api('PATCH', '/v1/settings', { invocation_retention: null });
    assert.equal(reset.json.data.invocation_retention, 1000);
    assert.equal(reset.json.data.editable.invocation_retention.origin, 'default');
    await second.stop();

    const flagged = await start({ dataDir, args: ['--event-retention', '7'] });
    const withFlag = (await flagged.api('GET', '/v1/settings')).json.data;
    assert.equal(withFlag.event_retention, 7, 'the flag wins over the saved value');
    assert.deepEqual(withFlag.editable.event_retention, { origin: 'flag', saved: 2, restart_required: false, flag: '--event-retention' });
    const saved = await flagged.api('PATCH', '/v1/settings', { event_retention: 5 });
    assert.equal(saved.json.data.event_retention, 7, 'still the flag for this run');
    assert.equal(saved.json.data.editable.event_retention.saved, 5);
  });

  it('refuses a value out of range or unknown, naming the setting and what it takes', async () => {
    const spout = await start();
    const cases: Array<[unknown, RegExp]> = [
      [{ run_timeout_seconds: 0 }, /run_timeout_seconds.*from 1 to 3600/],
      [{ event_retention: 2.5 }, /event_retention.*whole number of events from 1 to 1000000/],
      [{ retry_schedule: [] }, /retry_schedule.*1 to 20 waits/],
      [{ retry_schedule: [1, -1] }, /retry_schedule.*from 0 to 604800/],
      [{ warm_hosts: 'many' }, /warm_hosts.*whole number of hosts/],
      [{ port: 1 }, /port/],
    ];
    for (const [body, message] of cases) {
      const res = await spout.api('PATCH', '/v1/settings', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(JSON.stringify(res.json), message);
    }
    assert.equal((await spout.api('GET', '/v1/settings')).json.data.run_timeout_seconds, 60, 'nothing was changed');
  });
});
