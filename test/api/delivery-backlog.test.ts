// Delivery under load and crashes (docs/delivery.md, issue 5): a hanging receiver does not hold
// up other webhooks; a 1000-event backlog built while the receiver is down is delivered when it
// comes back, also across a SIGKILL, and so is one past the window in memory (waiting on disk);
// resend and recover survive a SIGKILL.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, startSpout, tempDir, waitFor } from '../helpers/service';
import { attempts, BATCH_SOURCE, createWebhook, messages, subscribe, verify } from '../helpers/webhooks';

/** Retries close together, long enough in total (about 20 s) to outlast the receiver's downtime. */
const ARGS = ['--retry-schedule', '0.2,0.2,0.5,1,1,1,1,2,2,2,3,3,3'];

describe('delivery backlog and isolation', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const step of cleanup.reverse()) await step();
  });
  const spoutAt = async (dataDir: string, env?: Record<string, string>) => {
    const spout = await startSpout({ dataDir, args: ARGS, env });
    cleanup.push(() => spout.stop());
    return spout;
  };
  const receiverAt = async (port = 0) => {
    const r = await startReceiver(port);
    cleanup.push(() => r.close());
    return r;
  };
  /** Emits `total` events `{i}` through the batch source, 100 per request. */
  const emitMany = async (endpoint: string, total: number) => {
    for (let from = 0; from < total; from += 100) {
      const res = await fetch(`${endpoint}?n=${Math.min(100, total - from)}&from=${from}`, { method: 'POST', body: '{}' });
      assert.equal(res.status, 200);
    }
  };
  const indexes = (r: Receiver, from = 0) => new Set(r.received.slice(from).map((x) => (JSON.parse(x.body) as { i: number }).i));

  it('keeps delivering to a second webhook on the same source while the first receiver hangs', async () => {
    const spout = await spoutAt(tempDir());
    const source = await deploySource(spout, BATCH_SOURCE);
    const hanging = await receiverAt();
    hanging.respond = () => 'hang';
    const healthy = await receiverAt();
    const stuck = await createWebhook(spout, hanging.url);
    const fine = await createWebhook(spout, healthy.url);
    await subscribe(spout, source.id, stuck.id);
    await subscribe(spout, source.id, fine.id);

    const started = Date.now();
    await emitMany(source.endpoint, 200);
    await waitFor(() => indexes(healthy).size === 200, 10_000, 'every event at the healthy receiver');
    const took = Date.now() - started;
    assert.ok(took < 10_000, `took ${took} ms`);
    // The hanging receiver holds only its own webhook's slots (16 requests in flight).
    assert.ok(hanging.received.length <= 16, `${hanging.received.length} requests reached the hanging receiver`);
    assert.equal((await messages(spout, fine.id, 'delivered')).total, 200);
    assert.equal((await messages(spout, stuck.id, 'pending')).total, 200);
    // Stop the hanging webhook before the receiver closes, so nothing retries against it.
    await spout.api('DELETE', `/v1/webhooks/${stuck.id}`);
  });

  it('delivers 1000 events emitted while the receiver was down once it is back', async () => {
    const spout = await spoutAt(tempDir());
    const source = await deploySource(spout, BATCH_SOURCE);
    const first = await startReceiver();
    const port = first.port;
    const url = first.url;
    await first.close(); // down: connections are refused
    const hook = await createWebhook(spout, url);
    await subscribe(spout, source.id, hook.id);

    await emitMany(source.endpoint, 1000);
    await waitFor(async () => (await messages(spout, hook.id, 'failing')).total === 1000, 15_000, 'a failed first attempt of every event');
    const back = await receiverAt(port);
    await waitFor(() => indexes(back).size === 1000, 30_000, 'all 1000 events after the receiver came back');
    await waitFor(async () => (await messages(spout, hook.id, 'delivered')).total === 1000, 5000, 'all 1000 messages delivered');
    verify(hook.secret, back.received[0]!);
  });

  it('delivers 1000 backlogged events across a SIGKILL in the middle of the backlog', async () => {
    const dataDir = tempDir();
    let spout = await spoutAt(dataDir);
    const source = await deploySource(spout, BATCH_SOURCE);
    const first = await startReceiver();
    const port = first.port;
    const url = first.url;
    await first.close();
    const hook = await createWebhook(spout, url);
    await subscribe(spout, source.id, hook.id);
    await emitMany(source.endpoint, 1000);
    await waitFor(async () => (await messages(spout, hook.id, 'failing')).total === 1000, 15_000, 'a failed first attempt of every event');

    // Back, but it takes only 300 deliveries before failing again: the kill lands mid-backlog.
    const back = await receiverAt(port);
    back.respond = (_r, i) => (i < 300 ? 200 : 503);
    await waitFor(() => back.received.length >= 300, 30_000, '300 deliveries after the receiver came back');
    await spout.kill();
    const beforeKill = back.received.length;
    const idOf = new Map(back.received.map((x) => [(JSON.parse(x.body) as { i: number }).i, x.headers['webhook-id']]));
    assert.ok(indexes(back).size < 1000, 'the kill came before the backlog was through');

    back.respond = () => 200;
    spout = await spoutAt(dataDir);
    await waitFor(() => indexes(back).size === 1000, 30_000, 'all 1000 events after the restart');
    // The same webhook-id as before the kill: the receiver can deduplicate.
    for (const x of back.received.slice(beforeKill)) {
      const i = (JSON.parse(x.body) as { i: number }).i;
      if (idOf.has(i)) assert.equal(x.headers['webhook-id'], idOf.get(i));
    }
    await waitFor(async () => (await messages(spout, hook.id, 'delivered')).total === 1000, 5000, 'all 1000 messages delivered');
  });

  it('lists a backlog past the delivery window with its statuses, and delivers it all across a SIGKILL', async () => {
    // A window of 16 undelivered messages in memory: the other 284 wait on disk.
    const env = { SPOUT_DELIVERY_WINDOW: '16' };
    const dataDir = tempDir();
    let spout = await spoutAt(dataDir, env);
    const source = await deploySource(spout, BATCH_SOURCE);
    const first = await startReceiver();
    const port = first.port;
    await first.close();
    const hook = await createWebhook(spout, first.url);
    await subscribe(spout, source.id, hook.id);
    await emitMany(source.endpoint, 300);
    await waitFor(async () => (await messages(spout, hook.id, 'failing')).total === 16, 15_000, 'a failed first attempt of the window');
    assert.equal((await messages(spout, hook.id, 'pending')).total, 284, 'the messages on disk are listed, pending');
    const page = await messages(spout, hook.id);
    assert.equal(page.total, 300);
    assert.equal(page.data[0]?.status, 'pending', 'the newest, on disk, first');
    // The stream reads an event's delivery from the spill file too: the newest 100 are pending.
    const streamed = await spout.api('GET', `/v1/stream?limit=100&filter=${encodeURIComponent('kind:event delivery:pending')}`);
    assert.equal(streamed.json.data.length, 100, JSON.stringify(streamed.json).slice(0, 300));

    await spout.kill();
    spout = await spoutAt(dataDir, env);
    assert.equal((await messages(spout, hook.id)).total, 300, 'nothing lost to the kill');
    const back = await receiverAt(port);
    await waitFor(() => indexes(back).size === 300, 30_000, 'all 300 events once the receiver is back');
    await waitFor(async () => (await messages(spout, hook.id, 'delivered')).total === 300, 5000, 'all 300 messages delivered');
  });

  it('makes a resend and a recover acknowledged before a SIGKILL after the restart', async () => {
    const dataDir = tempDir();
    let spout = await spoutAt(dataDir);
    const source = await deploySource(spout, BATCH_SOURCE);
    const r = await receiverAt();
    const hook = await createWebhook(spout, r.url, { retry_schedule: [] });
    await subscribe(spout, source.id, hook.id);

    r.respond = () => 500;
    await emitMany(source.endpoint, 5);
    await waitFor(async () => (await messages(spout, hook.id, 'failed')).total === 5, 10_000, 'five failed messages');
    r.respond = () => 200;
    const res = await fetch(`${source.endpoint}?n=1&from=5`, { method: 'POST', body: '{}' });
    assert.equal(res.status, 200);
    await waitFor(async () => (await messages(spout, hook.id, 'delivered')).total === 1, 10_000, 'one delivered message');
    const [delivered] = (await messages(spout, hook.id, 'delivered')).data;
    const bodies = new Map(r.received.map((x) => [String(x.headers['webhook-id']), x.body]));

    // The receiver hangs, so the manual attempts are in flight when the service is killed.
    r.respond = () => 'hang';
    const seen = r.received.length;
    assert.deepEqual((await spout.api('POST', `/v1/webhooks/${hook.id}/recover`, { since: 0 })).json.data, { recovered: 5 });
    assert.equal((await spout.api('POST', `/v1/webhooks/${hook.id}/messages/${delivered!.id}/resend`)).status, 202);
    await waitFor(() => r.received.length === seen + 6, 10_000, 'six manual attempts in flight');
    await spout.kill();

    r.respond = () => 200;
    const afterKill = r.received.length;
    spout = await spoutAt(dataDir);
    await waitFor(() => new Set(r.received.slice(afterKill).map((x) => x.headers['webhook-id'])).size === 6, 15_000, 'the six manual attempts after the restart');
    for (const x of r.received.slice(afterKill)) {
      assert.equal(x.body, bodies.get(String(x.headers['webhook-id'])), 'original webhook-id and body');
      verify(hook.secret, x);
    }
    await waitFor(async () => (await messages(spout, hook.id, 'delivered')).total === 6, 5000, 'all six delivered');
    const log = await attempts(spout, hook.id, delivered!.id);
    assert.deepEqual(
      log.map((a) => [a.trigger, a.status_code]),
      [
        ['manual', 200],
        ['scheduled', 200],
      ],
    );
  });
});
