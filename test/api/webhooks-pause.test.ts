// Pausing a webhook's queue (held messages listed `paused`, retries held too, delivered in creation
// order on resume, kept across a restart), bulk retry with filters, and message filters (issue 47).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MessageView } from '../../runtime/contract/webhook-api';
import { type Receiver, receiverPool } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';
import { createWebhook, messages, subscribe, untilMessages } from '../helpers/webhooks';

describe('webhook queue: pause, resume, bulk retry, filters', () => {
  let spout: SpoutProcess;
  let source: { id: string; endpoint: string };
  const pool = receiverPool();
  const receiver = pool.start;
  const emit = async (endpoint: string, body: unknown) => {
    const res = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200);
  };
  /** The `n` each request to `r` carried, in the order they arrived. */
  const ns = (r: Receiver) => r.received.map((x) => (JSON.parse(x.body) as { body: { n: string } }).body.n);
  const untilCount = (hookId: string, status: string, count: number) => untilMessages(spout, hookId, status, count);

  before(async () => {
    spout = await startSpout();
    source = await deploySource(spout);
  });
  after(async () => {
    await spout.stop();
    await pool.closeAll();
  });

  it('holds new messages and retries while paused, then delivers them in creation order', async () => {
    const r = await receiver();
    r.respond = (_req, i) => (i === 0 ? 500 : 200);
    const hook = await createWebhook(spout, r.url, { retry_schedule: [0.3, 0.3] });
    await subscribe(spout, source.id, hook.id);
    await emit(source.endpoint, { n: 'a' });
    await untilCount(hook.id, 'failing', 1);

    const paused = await spout.api('POST', `/v1/webhooks/${hook.id}/pause`);
    assert.equal(paused.status, 200, JSON.stringify(paused.json));
    assert.equal(paused.json.data.paused, true);
    assert.equal((await spout.api('GET', `/v1/webhooks/${hook.id}`)).json.data.paused, true);
    for (const n of ['b', 'c', 'd']) await emit(source.endpoint, { n });
    await untilCount(hook.id, 'paused', 4);

    // The held retry's time comes and goes: nothing is sent.
    const retry = (await messages(spout, hook.id)).data.find((m) => m.attempts === 1) as MessageView;
    // Times are whole seconds: the retry is surely due a second after the one shown.
    await waitFor(() => Date.now() > ((retry.next_attempt_at as number) + 1) * 1000 + 100 || null, 10_000, 'the retry to come due');
    const held = await messages(spout, hook.id, 'paused');
    assert.equal(held.total, 4);
    assert.equal(r.received.length, 1, 'nothing reached the receiver while paused');
    assert.equal(held.data.find((m) => m.id === retry.id)?.attempts, 1);

    const resumed = await spout.api('POST', `/v1/webhooks/${hook.id}/resume`);
    assert.equal(resumed.json.data.paused, false);
    await untilCount(hook.id, 'delivered', 4);
    assert.deepEqual(ns(r), ['a', 'a', 'b', 'c', 'd'], 'the held retry first, then the rest in the order they were created');
  });

  it('stays paused across a restart and delivers what it held once resumed', async () => {
    const r = await receiver();
    const hook = await createWebhook(spout, r.url);
    await subscribe(spout, source.id, hook.id);
    await spout.api('POST', `/v1/webhooks/${hook.id}/pause`);
    await emit(source.endpoint, { n: 'before restart' });
    await untilCount(hook.id, 'paused', 1);

    await spout.stop();
    // The same port, so the source's endpoint URL stays the same.
    spout = await startSpout({ dataDir: spout.dataDir, apiKey: spout.apiKey, port: Number(new URL(spout.url).port) });
    assert.equal((await spout.api('GET', `/v1/webhooks/${hook.id}`)).json.data.paused, true);
    await emit(source.endpoint, { n: 'after restart' });
    await untilCount(hook.id, 'paused', 2);
    assert.equal(r.received.length, 0);

    await spout.api('POST', `/v1/webhooks/${hook.id}/resume`);
    await untilCount(hook.id, 'delivered', 2);
    assert.deepEqual(ns(r), ['before restart', 'after restart']);
  });

  it('retries in bulk only the failed messages the filters take, and lists messages by filter', async () => {
    const other = await deploySource(spout);
    const r = await receiver();
    r.respond = () => 500;
    const hook = await createWebhook(spout, r.url, { retry_schedule: [] });
    await subscribe(spout, source.id, hook.id);
    await subscribe(spout, other.id, hook.id);
    const since = Math.floor(Date.now() / 1000);
    await emit(source.endpoint, { n: 'one' });
    await emit(source.endpoint, { n: 'two' });
    await emit(other.endpoint, { n: 'three' });
    await untilCount(hook.id, 'failed', 3);

    const bySource = await spout.api('GET', `/v1/webhooks/${hook.id}/messages?source=${other.id}`);
    assert.equal(bySource.json.page_info.total_count, 1);
    const [third] = bySource.json.data as MessageView[];
    assert.equal(third?.source_id, other.id, 'a message says where its event is shown');
    assert.match(String(third?.run_id), /./, 'and the run that emitted it');
    const byEvent = await spout.api('GET', `/v1/webhooks/${hook.id}/messages?event_id=${third?.event_id}&since=${since}&status=failed,delivered`);
    assert.deepEqual(
      byEvent.json.data.map((m: MessageView) => m.id),
      [third?.id],
    );
    assert.equal((await spout.api('GET', `/v1/webhooks/${hook.id}/messages?until=${since - 60}`)).json.page_info.total_count, 0);

    r.respond = () => 200;
    const none = await spout.api('POST', `/v1/webhooks/${hook.id}/recover`, { since: since - 3600, until: since - 60 });
    assert.deepEqual(none.json.data, { recovered: 0 });
    const some = await spout.api('POST', `/v1/webhooks/${hook.id}/recover`, { since, source: source.id, status: 'failed' });
    assert.equal(some.status, 202, JSON.stringify(some.json));
    assert.deepEqual(some.json.data, { recovered: 2 });
    await untilCount(hook.id, 'delivered', 2);
    assert.deepEqual(ns(r).slice(3).sort(), ['one', 'two']);
    const left = await messages(spout, hook.id, 'failed');
    assert.deepEqual(
      left.data.map((m) => m.id),
      [third?.id],
    );
  });

  it('answers 400 naming the filter for bad values', async () => {
    const r = await receiver();
    const hook = await createWebhook(spout, r.url);
    for (const [route, pattern] of [
      ['messages?status=bogus', /status must be one of pending, delivered, failing, failed, paused/],
      ['messages?since=yesterday', /since must be epoch seconds .* or an ISO 8601 time/],
      ['messages?since=200&until=100', /until must not be before since/],
      ['messages?source=', /source must be a source or workflow id/],
    ] as const) {
      const res = await spout.api('GET', `/v1/webhooks/${hook.id}/${route}`);
      assert.equal(res.status, 400, `${route}: ${JSON.stringify(res.json)}`);
      assert.match(res.json.detail, pattern);
    }
    const bad = await spout.api('POST', `/v1/webhooks/${hook.id}/recover`, { since: 0, status: 'delivered' });
    assert.equal(bad.status, 400);
    assert.match(bad.json.detail, /status must be one of failed, failing/);
    const iso = await spout.api('GET', `/v1/webhooks/${hook.id}/messages?since=2026-01-01T00:00:00Z`);
    assert.equal(iso.status, 200, 'an ISO time is taken');
    assert.equal((await spout.api('POST', '/v1/webhooks/wh_nope/pause')).status, 404);
  });
});
