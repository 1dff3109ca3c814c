// The delivery backlog past a webhook's window waits on disk (outbox.ts, backlog-spill.ts): memory
// holds at most the window, the backlog is delivered whole and in order, and a restart (as after a
// kill -9) finds it all again from deliveries.jsonl.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import type { Attempt, NewMessage, WebhookTarget } from '../../../../runtime/contract/delivery-protocol';
import { Dispatcher } from '../../../../runtime/delivery/worker/dispatcher';
import { Outbox } from '../../../../runtime/delivery/worker/outbox';
import type { HttpSender, SendOutcome } from '../../../../runtime/delivery/worker/webhook-sender';
import { batchOf } from '../../../helpers/message-batch';
import { everyMessage } from '../../../helpers/outbox-messages';
import { tempFiles } from '../../../helpers/service';

const tmpFile = tempFiles('spout-backlog-', 'deliveries.jsonl');
const WINDOW = 8;

const message = (n: number, webhook = 'wh_a'): NewMessage => ({ id: `msg_${webhook}_${n}`, webhook_id: webhook, event_id: `1000-${n}`, emitter_id: 'dc_a', event_name: null, body: JSON.stringify({ n, text: 'ünïcødé' }), created_at: 1000 + n, hops: 1 });
const attempt = (status_code: number, created_at: number): Attempt => ({ timestamp: 1, signature: 'v1,x', status_code, duration_ms: 1, response_body: '', response_headers: {}, error: null, trigger: 'scheduled', created_at });
const target = (paused = false): WebhookTarget => ({ id: 'wh_a', url: 'http://127.0.0.1:9/hook', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previous_secrets: [], active: true, paused, retry_schedule: null, failures_counted_from: 0 });

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 1_000_000 && !check(); i++) await new Promise((r) => setImmediate(r));
  assert.ok(check(), what);
};

describe('delivery backlog on disk', () => {
  it('delivers a backlog far past the window completely and in order once the receiver is back, never holding more than the window', async () => {
    const outbox = await Outbox.open(tmpFile(), undefined, WINDOW);
    let down = true;
    let mostHeld = 0;
    const delivered: number[] = [];
    const sender = {
      post: (_url: string, _headers: Record<string, string>, body: string) => {
        mostHeld = Math.max(mostHeld, outbox.heldInMemory('wh_a'));
        const ok = !down;
        if (ok) delivered.push((JSON.parse(body) as { n: number }).n);
        return new Promise<SendOutcome>((resolve) => setImmediate(() => resolve({ status_code: ok ? 200 : null, duration_ms: 1, response_body: '', response_headers: ok ? {} : null, error: ok ? null : 'ECONNREFUSED' })));
      },
      close: async () => {},
    } as unknown as HttpSender;
    const hook = target();
    // A long retry schedule: the window's messages keep failing while the receiver is down.
    const d = new Dispatcher(outbox, sender, () => hook, { retrySchedule: [3600], concurrencyPerWebhook: 4, disableAfterMs: 0, onDisable: () => {} });
    for (let from = 0; from < 300; from += 50) d.enqueue(await outbox.add(batchOf(Array.from({ length: 50 }, (_, i) => message(from + i)))));
    await until(() => [...outbox.messages.values()].every((m) => m.status === 'failing'), 'a failed attempt of every message in the window');
    assert.equal(outbox.heldInMemory('wh_a'), WINDOW);
    assert.equal(outbox.spilledCount('wh_a'), 300 - WINDOW);
    assert.deepEqual(
      everyMessage(outbox).map((m) => m.id),
      Array.from({ length: 300 }, (_, n) => `msg_wh_a_${n}`),
      'the spill holds the rest, in order',
    );

    down = false;
    // The window's messages come back on their retry; the ones on disk go out as it drains.
    for (const m of outbox.messages.values()) m.next_attempt_at = 0;
    d.enqueue([...outbox.messages.values()]);
    await until(() => delivered.length === 300, 'all 300 delivered');
    assert.deepEqual(
      delivered.slice(WINDOW),
      Array.from({ length: 300 - WINDOW }, (_, i) => WINDOW + i),
      'the backlog read back from disk in the order it was created',
    );
    assert.ok(mostHeld <= WINDOW, `at most the window in memory (${mostHeld})`);
    assert.equal(outbox.spilledCount('wh_a'), 0);
    await d.stop();
    await outbox.close();
  });

  it('lists spilled messages as pending, resends one ahead of its turn, and reads the backlog again after a restart', async () => {
    const file = tmpFile();
    const outbox = await Outbox.open(file, undefined, WINDOW);
    const kept = await outbox.add(batchOf(Array.from({ length: 40 }, (_, n) => message(n))));
    assert.equal(kept.length, WINDOW, 'only the window is handed out for sending');
    outbox.recordAttempt(kept[0]!, attempt(200, 5000), 'delivered', null);
    outbox.recordAttempt(kept[1]!, attempt(500, 5001), 'failed', null);
    // Two left the window, a quarter of it: two are read back from disk in their place.
    assert.equal(outbox.heldInMemory('wh_a'), WINDOW);
    assert.equal(outbox.spilledCount('wh_a'), 40 - WINDOW - 2);
    assert.deepEqual([...outbox.messages.keys()].slice(-2), [`msg_wh_a_${WINDOW}`, `msg_wh_a_${WINDOW + 1}`]);
    const spilled = everyMessage(outbox).filter((m) => !outbox.messages.has(m.id));
    assert.equal(spilled.length, 40 - WINDOW - 2);
    assert.ok(
      spilled.every((m) => m.status === 'pending' && m.attempts.length === 0),
      'spilled messages are pending',
    );
    assert.equal(spilled[3]!.body, JSON.stringify({ n: WINDOW + 5, text: 'ünïcødé' }), 'the body reads back byte for byte');

    // A resend takes a spilled message into memory; it is not read back a second time.
    const taken = outbox.takeSpilled(spilled[3]!);
    await outbox.requestManual([taken]);
    assert.equal(outbox.spilledCount('wh_a'), 40 - WINDOW - 3);
    await outbox.close();

    // A restart (after a kill -9 too: deliveries.jsonl is the record) finds every message with its state.
    const reopened = await Outbox.open(file, undefined, WINDOW);
    const all = everyMessage(reopened);
    assert.deepEqual(new Set(all.map((m) => m.id)), new Set(Array.from({ length: 40 }, (_, n) => `msg_wh_a_${n}`)));
    assert.equal(all.length, 40, 'each message once');
    assert.equal(reopened.messages.get(kept[0]!.id)?.status, 'delivered');
    assert.equal(reopened.messages.get(kept[1]!.id)?.status, 'failed');
    assert.notEqual(reopened.messages.get(taken.id)?.manual_at, null, 'the resend asked for is still owed, in memory');
    assert.ok(reopened.heldInMemory('wh_a') <= WINDOW + 1, `the window (and the resent one) in memory: ${reopened.heldInMemory('wh_a')}`);
    await reopened.close();
  });

  it('keeps the spilled messages in the record across a compaction, and forgets them with their webhook', async () => {
    const file = tmpFile();
    const outbox = await Outbox.open(file, undefined, WINDOW);
    await outbox.add(batchOf(Array.from({ length: 30 }, (_, n) => message(n))));
    // Compaction is private: reached the way the outbox does it once the file is big.
    await (outbox as unknown as { log: { rewrite: (s: () => unknown) => Promise<void> } }).log.rewrite(() => (outbox as unknown as { snapshot: () => unknown }).snapshot());
    await outbox.close();
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(lines.filter((l) => l.startsWith('{"t":"m"')).length, 30, 'every message line, spilled ones included');

    const reopened = await Outbox.open(file, undefined, WINDOW);
    assert.equal(everyMessage(reopened).length, 30);
    reopened.dropWebhook('wh_a');
    assert.equal(everyMessage(reopened).length, 0);
    assert.equal(reopened.heldInMemory('wh_a'), 0);
    await reopened.close();
  });
});
