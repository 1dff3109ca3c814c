// The service spec's call sequence (section 4.4) against the real `spout serve` process.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';
import { readSse } from '../helpers/sse';

async function createWebhook(spout: SpoutProcess, url: string): Promise<{ id: string; secret: string }> {
  const res = await spout.api('POST', `/v1/webhooks?url=${encodeURIComponent(url)}&name=test&description=${encodeURIComponent('a test receiver')}`);
  assert.equal(res.status, 200, JSON.stringify(res.json));
  assert.match(res.json.data.id, /^wh_/);
  assert.match(res.json.data.signing_secret, /^whsec_/);
  return { id: res.json.data.id, secret: res.json.data.signing_secret };
}

async function subscribe(spout: SpoutProcess, emitter: string, listener: string, eventName?: string) {
  const q = new URLSearchParams({ emitter_id: emitter, listener_id: listener, ...(eventName ? { event_name: eventName } : {}) });
  const res = await spout.api('POST', `/v1/subscriptions?${q}`);
  assert.equal(res.status, 200, JSON.stringify(res.json));
  return res.json.data as { id: string };
}

/** Reads SSE messages from the emits stream until `count` arrived. */

describe('a deployed source emits and the event reaches a webhook', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  let second: Receiver;

  before(async () => {
    spout = await startSpout({ args: ['--retry-schedule', '0.2,0.2,0.2,0.2'] });
    receiver = await startReceiver();
    second = await startReceiver();
  });
  after(async () => {
    await spout.stop();
    await receiver.close();
    await second.close();
  });

  it('delivers once with a Standard Webhooks signature, stores the event and streams it', async () => {
    const source = await deploySource(spout);
    assert.match(source.id, /^dc_/);
    assert.match(source.endpoint, /\/e\/en_/);
    const hook = await createWebhook(spout, receiver.url);
    const sub = await subscribe(spout, source.id, hook.id);
    assert.match(sub.id, /^sub_/);

    const list = await spout.api('GET', '/v1/users/me/subscriptions');
    assert.equal(list.json.data.length, 1);
    assert.equal(list.json.data[0].emitter_id, source.id);

    const stream = new AbortController();
    const sse = readSse(`${spout.url}/sse/dc/${source.id}/emits`, spout.apiKey, 1, stream.signal);
    await new Promise((r) => setTimeout(r, 200));

    const sent = await fetch(`${source.endpoint}/orders?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order":42}' });
    assert.equal(sent.status, 200);
    assert.deepEqual(await sent.json(), { success: true });

    await waitFor(() => receiver.received.length === 1, 10_000, 'the delivery');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.received.length, 1, 'delivered exactly once');
    const delivery = receiver.received[0]!;
    const payload = new Webhook(hook.secret).verify(delivery.body, {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    });
    assert.deepEqual(payload, { method: 'POST', path: '/orders', body: { order: 42 } });
    assert.equal(delivery.headers['content-type'], 'application/json');
    assert.equal(delivery.headers['x-spout-emitter-id'], source.id);

    const summaries = await spout.api('GET', `/v1/sources/${source.id}/event_summaries`);
    assert.equal(summaries.json.page_info.total_count, 1);
    const item = summaries.json.data[0];
    assert.match(item.id, /^\d+-\d+$/);
    assert.equal(delivery.headers['x-spout-event-id'], item.id);
    assert.deepEqual(item.event, payload);
    assert.equal(item.metadata.emitter_id, source.id);
    assert.equal(item.metadata.summary, 'POST /orders');

    const streamed = await sse;
    stream.abort();
    assert.equal(streamed[0]!.id, item.id);
    assert.deepEqual(streamed[0]!.data.event, payload);
  });

  it('delivers each event to every subscribed webhook', async () => {
    const source = await deploySource(spout);
    const a = await startReceiver();
    const b = await startReceiver();
    try {
      const ha = await createWebhook(spout, a.url);
      const hb = await createWebhook(spout, b.url);
      await subscribe(spout, source.id, ha.id);
      await subscribe(spout, source.id, hb.id);
      for (let i = 0; i < 3; i++) await fetch(source.endpoint, { method: 'POST', body: `n=${i}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      await waitFor(() => a.received.length === 3 && b.received.length === 3, 10_000, 'both receivers');
      const bodies = (r: Receiver) => r.received.map((x) => JSON.parse(x.body).body.n).sort();
      assert.deepEqual(bodies(a), ['0', '1', '2']);
      assert.deepEqual(bodies(b), ['0', '1', '2']);
      // One webhook-id per event and webhook.
      const ids = new Set([...a.received, ...b.received].map((x) => x.headers['webhook-id']));
      assert.equal(ids.size, 6);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('routes by the dc_* glob and by event_name', async () => {
    const code = `export default { name: "Channels", version: "1.0.0", props: { http: "$.interface.http" },
      async run(event) { this.$emit({ n: 1 }); this.$emit({ n: 2 }, { name: "alerts" }); } };`;
    const source = await deploySource(spout, code);
    const glob = await startReceiver();
    const channel = await startReceiver();
    try {
      const hg = await createWebhook(spout, glob.url);
      const hc = await createWebhook(spout, channel.url);
      await subscribe(spout, 'dc_*', hg.id);
      await subscribe(spout, source.id, hc.id, 'alerts');
      await fetch(source.endpoint, { method: 'POST' });
      await waitFor(() => glob.received.length >= 1 && channel.received.length === 1, 10_000, 'routed deliveries');
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(
        glob.received.map((r) => JSON.parse(r.body)),
        [{ n: 1 }],
      );
      assert.deepEqual(
        channel.received.map((r) => JSON.parse(r.body)),
        [{ n: 2 }],
      );
      assert.equal(channel.received[0]!.headers['x-spout-event-name'], 'alerts');
      // The default channel has no name: no empty header.
      assert.equal('x-spout-event-name' in glob.received[0]!.headers, false);
    } finally {
      await glob.close();
      await channel.close();
    }
  });

  it('retries a failing receiver with the same webhook-id and records each attempt', async () => {
    const source = await deploySource(spout);
    const flaky = await startReceiver();
    flaky.respond = (_r, i) => (i < 2 ? 500 : 200);
    try {
      const hook = await createWebhook(spout, flaky.url);
      await subscribe(spout, source.id, hook.id);
      await fetch(source.endpoint, { method: 'POST', body: 'x' });
      await waitFor(() => flaky.received.length === 3, 10_000, 'three attempts');
      const ids = new Set(flaky.received.map((r) => r.headers['webhook-id']));
      assert.equal(ids.size, 1, 'the same webhook-id on every attempt');
      assert.equal(new Set(flaky.received.map((r) => r.body)).size, 1, 'the same body bytes on every attempt');
      const messages = await waitFor(async () => {
        const res = await spout.api('GET', `/v1/webhooks/${hook.id}/messages`);
        return res.json.data[0]?.status === 'delivered' ? res.json.data : null;
      });
      assert.equal(messages[0].id, [...ids][0]);
      assert.equal(messages[0].attempts, 3);
      const attempts = await spout.api('GET', `/v1/webhooks/${hook.id}/messages/${messages[0].id}/attempts`);
      assert.deepEqual(
        attempts.json.data.map((a: { status_code: number }) => a.status_code),
        [200, 500, 500],
      );
      assert.equal(attempts.json.data[2].response_body, 'failing on purpose');
    } finally {
      await flaky.close();
    }
  });

  it('updates a source in place and deletes it with its subscriptions', async () => {
    const source = await deploySource(spout);
    const hook = await createWebhook(spout, receiver.url);
    await subscribe(spout, source.id, hook.id);
    const code = `export default { name: "Echo v2", version: "0.2.0", props: { http: { type: "$.interface.http" } },
      async run(event) { this.$emit({ v: 2 }); } };`;
    const updated = await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: code, name: 'renamed' });
    assert.equal(updated.status, 200, JSON.stringify(updated.json));
    assert.equal(updated.json.data.id, source.id);
    assert.equal(updated.json.data.name_slug, 'renamed');
    assert.equal(updated.json.data.configured_props.http.endpoint_url, source.endpoint, 'the endpoint survives an update');
    await fetch(source.endpoint, { method: 'POST' });
    const events = await spout.api('GET', `/v1/sources/renamed/event_summaries`);
    assert.deepEqual(events.json.data[0].event, { v: 2 });

    assert.equal((await spout.api('DELETE', `/v1/sources/${source.id}`)).status, 204);
    assert.equal((await spout.api('GET', `/v1/sources/${source.id}`)).status, 404);
    assert.equal((await fetch(source.endpoint, { method: 'POST' })).status, 404);
    const subs = await spout.api('GET', '/v1/users/me/subscriptions?limit=100');
    assert.ok(!subs.json.data.some((s: { emitter_id: string }) => s.emitter_id === source.id));
  });
});
