// A start with a delivery backlog past the window (outbox.ts: spilled as the replay meets it): the
// service answers at once, lists the whole backlog, and delivers every message exactly once and
// in the order it was created, also after a SIGKILL during a start.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startReceiver } from '../helpers/receiver';
import { deploySource, startSpout, tempDir } from '../helpers/service';
import { BATCH_SOURCE, createWebhook, messages, subscribe, untilMessages } from '../helpers/webhooks';

/** A window of 16 undelivered messages in memory: the rest of a backlog waits on disk. */
const env = { SPOUT_DELIVERY_WINDOW: '16' };

describe('a start with a delivery backlog', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const step of cleanup.reverse()) await step();
  });
  const spoutAt = async (dataDir: string) => {
    const spout = await startSpout({ dataDir, env });
    cleanup.push(() => spout.stop());
    return spout;
  };

  it('delivers a backlog held across restarts (one killed as it started) exactly once each, in the order it was created', async () => {
    const dataDir = tempDir();
    let spout = await spoutAt(dataDir);
    const source = await deploySource(spout, BATCH_SOURCE);
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const hook = await createWebhook(spout, receiver.url);
    await subscribe(spout, source.id, hook.id);
    // Paused: nothing is attempted, so once resumed the backlog goes out one at a time, in order.
    assert.equal((await spout.api('POST', `/v1/webhooks/${hook.id}/pause`)).status, 200);
    for (let from = 0; from < 300; from += 100) assert.equal((await fetch(`${source.endpoint}?n=100&from=${from}`, { method: 'POST', body: '{}' })).status, 200);
    await untilMessages(spout, hook.id, 'paused', 300);
    await spout.kill();

    // Killed as soon as it answers: the delivery thread may still be replaying the outbox.
    spout = await spoutAt(dataDir);
    await spout.kill();

    spout = await spoutAt(dataDir);
    // A delivery question right after the start waits for the thread instead of failing.
    const listed = await spout.api('GET', `/v1/webhooks/${hook.id}/messages?limit=1`);
    assert.equal(listed.status, 200, JSON.stringify(listed.json));
    assert.equal((await messages(spout, hook.id, 'paused')).total, 300, 'the whole backlog, most of it on disk');
    assert.equal(receiver.received.length, 0);
    assert.equal((await spout.api('POST', `/v1/webhooks/${hook.id}/resume`)).status, 200);
    await untilMessages(spout, hook.id, 'delivered', 300, 30_000);
    assert.deepEqual(
      receiver.received.map((x) => (JSON.parse(x.body) as { i: number }).i),
      Array.from({ length: 300 }, (_, i) => i),
      'each message once, in the order it was created',
    );
  });
});
