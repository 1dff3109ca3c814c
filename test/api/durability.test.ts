// At-least-once delivery across a SIGKILL of the service (docs/delivery.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startReceiver } from '../helpers/receiver';
import { deploySource, startSpout, tempDir, waitFor } from '../helpers/service';

describe('durable delivery', () => {
  it('delivers every accepted event after the service is killed with SIGKILL mid-backlog', async () => {
    const dataDir = tempDir();
    const args = ['--retry-schedule', '0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3'];
    const receiver = await startReceiver();
    let spout = await startSpout({ dataDir, args });
    try {
      const source = await deploySource(spout);
      const hook = await spout.api('POST', `/v1/webhooks?url=${encodeURIComponent(receiver.url)}`);
      await spout.api('POST', `/v1/subscriptions?emitter_id=${source.id}&listener_id=${hook.json.data.id}`);

      // The receiver is down: every attempt fails, so the backlog builds up.
      receiver.respond = () => 503;
      const total = 40;
      for (let i = 0; i < total; i++) {
        const res = await fetch(source.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i }) });
        assert.equal(res.status, 200);
      }
      const attempted = () => new Set(receiver.received.map((r) => JSON.parse(r.body).body.i)).size;
      await waitFor(() => attempted() === total, 10_000, 'a first attempt of every event');
      await spout.kill();

      // Back up: the receiver accepts, and a new service on the same data dir resumes the backlog.
      receiver.respond = () => 200;
      const failedBefore = receiver.received.length;
      spout = await startSpout({ dataDir, args });
      await waitFor(
        () => {
          const ok = new Set(receiver.received.slice(failedBefore).map((r) => JSON.parse(r.body).body.i));
          return ok.size === total;
        },
        20_000,
        'every event delivered after restart',
      );

      // The same webhook-id as before the crash: the receiver can deduplicate.
      const before = new Map(receiver.received.slice(0, failedBefore).map((r) => [JSON.parse(r.body).body.i, r.headers['webhook-id']]));
      for (const r of receiver.received.slice(failedBefore)) assert.equal(r.headers['webhook-id'], before.get(JSON.parse(r.body).body.i));
      const events = await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=100`);
      assert.equal(events.json.page_info.total_count, total, 'events survive the crash');
    } finally {
      await spout.stop();
      await receiver.close();
    }
  });

  it('resumes a delivery whose event was accepted just before SIGKILL', async () => {
    const dataDir = tempDir();
    const receiver = await startReceiver();
    receiver.respond = () => 500;
    let spout = await startSpout({ dataDir, args: ['--retry-schedule', '3600'] });
    try {
      const source = await deploySource(spout);
      const hook = await spout.api('POST', `/v1/webhooks?url=${encodeURIComponent(receiver.url)}`);
      await spout.api('POST', `/v1/subscriptions?emitter_id=${source.id}&listener_id=${hook.json.data.id}`);
      await fetch(source.endpoint, { method: 'POST', body: 'accepted' });
      await waitFor(() => receiver.received.length === 1, 10_000, 'the failed first attempt');
      await spout.kill();
      // An hour-long retry is still due at its time after restart, not lost and not sent early.
      spout = await startSpout({ dataDir, args: ['--retry-schedule', '3600'] });
      const messages = await spout.api('GET', `/v1/webhooks/${hook.json.data.id}/messages`);
      assert.equal(messages.json.data.length, 1);
      assert.equal(messages.json.data[0].status, 'failing');
      assert.ok(messages.json.data[0].next_attempt_at > Date.now() / 1000 + 2000);
    } finally {
      await spout.stop();
      await receiver.close();
    }
  });
});
