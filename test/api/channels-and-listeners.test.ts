// Channels and listeners (docs/runtime.md): `$errors` and `$logs`, auto-subscriptions,
// sources listening to other sources, and deleting event ranges.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** Emits what it is sent on the channel the body names, logs, and fails when asked (written for this test). */
const EMITTER = `
export default {
  name: "Emitter",
  version: "0.0.1",
  props: { http: "$.interface.http" },
  async run(event) {
    console.log("got", event.body?.n);
    if (event.body?.fail) throw new Error("asked to fail");
    this.$emit({ n: event.body?.n }, { name: event.body?.channel });
  },
};`;

/** Runs with each event it listens to and emits it doubled (written for this test). */
const DOUBLER = `
export default {
  name: "Doubler",
  version: "0.0.1",
  props: {},
  async run(event) { this.$emit({ doubled: event.n * 2 }); },
};`;

describe('channels and listeners', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  let webhook: string;
  before(async () => {
    spout = await startSpout({ args: ['--retry-schedule', '0.2,0.2'] });
    receiver = await startReceiver();
    webhook = (await spout.api('POST', `/v1/webhooks?url=${encodeURIComponent(receiver.url)}&name=channels`)).json.data.id;
  });
  after(async () => {
    await spout.stop();
    await receiver.close();
  });

  const send = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const events = async (id: string, query = '') => (await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=100${query}`)).json.data as Array<{ id: string; event: any; metadata: { name: string | null } }>;

  it('delivers run errors on $errors and log lines on $logs to their subscribers only, via auto-subscription', async () => {
    const auto = await spout.api('POST', '/v1/auto_subscriptions', { event_name: '$errors', listener_id: webhook });
    assert.equal(auto.status, 200, JSON.stringify(auto.json));
    assert.equal((await spout.api('POST', '/v1/auto_subscriptions', { event_name: '$errors', listener_id: webhook })).json.data.id, auto.json.data.id, 'idempotent');
    assert.equal((await spout.api('POST', '/v1/auto_subscriptions', { event_name: '$errors', listener_id: 'wh_missing' })).status, 404);

    const source = await deploySource(spout, EMITTER);
    const subs = (await spout.api('GET', '/v1/users/me/subscriptions')).json.data as Array<{ emitter_id: string; listener_id: string; event_name: string }>;
    assert.ok(
      subs.some((s) => s.emitter_id === source.id && s.listener_id === webhook && s.event_name === '$errors'),
      'a source deployed later is subscribed',
    );
    await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: webhook, event_name: '$logs' });

    await send(source.endpoint, { n: 1, fail: true });
    const bodies = await waitFor(
      () => {
        const parsed = receiver.received.map((r) => JSON.parse(r.body));
        return parsed.some((b) => b.error) && parsed.some((b) => b.level) ? parsed : null;
      },
      10_000,
      'the $errors and $logs deliveries',
    );
    const error = bodies.find((b) => b.error);
    assert.equal(error.error.message, 'asked to fail');
    assert.match(error.error.stack, /asked to fail\n\s+at /);
    assert.ok(bodies.some((b) => b.level === 'log' && b.message === 'got 1'));
    // They are not the source's own events.
    assert.equal((await events(source.id)).length, 0);
    assert.equal((await events(source.id, '&event_name=%24errors')).length, 1);
  });

  it('runs a source subscribed to another with each event, on the channel it chose', async () => {
    const emitter = await deploySource(spout, EMITTER);
    const doubler = (await spout.api('POST', '/v1/sources', { component_code: DOUBLER })).json.data.id as string;
    const res = await spout.api('POST', '/v1/subscriptions', { emitter_id: emitter.id, listener_id: doubler, event_name: 'numbers' });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    await send(emitter.endpoint, { n: 21, channel: 'numbers' });
    await send(emitter.endpoint, { n: 5 }); // default channel: not listened to
    const got = await waitFor(async () => ((await events(doubler)).length ? events(doubler) : null), 10_000, 'the listener to run');
    assert.deepEqual(
      got.map((e) => e.event),
      [{ doubled: 42 }],
    );
    assert.equal((await spout.api('POST', '/v1/subscriptions', { emitter_id: emitter.id, listener_id: 'dc_missing' })).status, 404);
  });

  it('stops a subscription loop after a bounded number of hops', async () => {
    const echo = `export default { name: "Loop", version: "0.0.1", props: { http: "$.interface.http" },
      async run(event) { this.$emit({ n: (event.n ?? event.body?.n ?? 0) + 1 }); } };`;
    const loop = await deploySource(spout, echo);
    await spout.api('POST', '/v1/subscriptions', { emitter_id: loop.id, listener_id: loop.id });
    await send(loop.endpoint, { n: 0 });
    const logs = await waitFor(
      async () => {
        const lines = (await spout.api('GET', `/v1/sources/${loop.id}/logs`)).json.data as Array<{ message: string }>;
        return lines.some((l) => /not run: listeners passed events on 8 times in a row/.test(l.message)) ? lines : null;
      },
      10_000,
      'the loop guard',
    );
    assert.ok(logs.length > 0);
    assert.equal((await events(loop.id)).length, 9, 'the first run and eight listener hops');
  });

  it('re-delivers one stored event to a chosen webhook, subscribed or not, as a new message', async () => {
    const source = await deploySource(spout, EMITTER);
    await send(source.endpoint, { n: 77 });
    const [event] = await events(source.id);
    const before = receiver.received.length;
    const res = await spout.api('POST', `/v1/sources/${source.id}/events/${event!.id}/redeliver`, { webhook_id: webhook });
    assert.equal(res.status, 202, JSON.stringify(res.json));
    const got = await waitFor(() => receiver.received.slice(before).find((r) => JSON.parse(r.body).n === 77), 10_000, 'the re-delivery');
    assert.match(String(got.headers['webhook-id']), /^msg_/);
    assert.equal((await spout.api('POST', `/v1/sources/${source.id}/events/1-0/redeliver`, { webhook_id: webhook })).status, 404);
    assert.equal((await spout.api('POST', `/v1/sources/${source.id}/events/${event!.id}/redeliver`, { webhook_id: 'wh_missing' })).status, 404);
    assert.equal((await spout.api('POST', `/v1/sources/${source.id}/events/${event!.id}/redeliver`, {})).status, 400);
  });

  it('deletes a range of events, and only one channel when named', async () => {
    const source = await deploySource(spout, EMITTER);
    for (const [n, channel] of [[1], [2, 'b'], [3], [4, 'b'], [5]] as Array<[number, string?]>) await send(source.endpoint, { n, channel });
    const ids = (await events(source.id))
      .filter((e) => e.metadata.name === null)
      .map((e) => e.id)
      .reverse();
    assert.equal(ids.length, 3);
    const onlyB = await spout.api('DELETE', `/v1/sources/${source.id}/events?event_name=b`);
    assert.equal(onlyB.status, 202);
    assert.equal(onlyB.json.data.deleted, 2);
    const range = await spout.api('DELETE', `/v1/sources/${source.id}/events?start_id=${ids[0]}&end_id=${ids[1]}`);
    assert.equal(range.json.data.deleted, 2);
    assert.deepEqual(
      (await events(source.id)).map((e) => e.event.n),
      [5],
    );
    assert.equal((await spout.api('DELETE', `/v1/sources/${source.id}/events?start_id=nope`)).status, 400);

    // Gone for good: a restart does not bring them back.
    await spout.stop();
    spout = await startSpout({ dataDir: spout.dataDir, apiKey: spout.apiKey, args: ['--retry-schedule', '0.2,0.2'] });
    assert.deepEqual(
      (await events(source.id)).map((e) => e.event.n),
      [5],
    );
    assert.equal((await spout.api('DELETE', `/v1/sources/${source.id}/events`)).json.data.deleted, 1);
    assert.equal((await events(source.id)).length, 0);
  });
});
