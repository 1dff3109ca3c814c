import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { NewMessage, WebhookTarget } from '../../../../runtime/contract/delivery-protocol';
import { Dispatcher } from '../../../../runtime/delivery/worker/dispatcher';
import { Outbox } from '../../../../runtime/delivery/worker/outbox';
import { signMessage } from '../../../../runtime/delivery/worker/signing';
import type { HttpSender, SendOutcome } from '../../../../runtime/delivery/worker/webhook-sender';
import { batchOf } from '../../../helpers/message-batch';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const message = (n: number): NewMessage => ({ id: `msg_${n}`, webhook_id: 'wh_a', event_id: `1000-${n}`, emitter_id: 'dc_a', event_name: null, body: `{"n":${n}}`, created_at: Date.now(), hops: 1 });

interface Sent {
  headers: Record<string, string>;
  body: string;
  answer: (status: number | null) => void;
}

/** A sender whose requests wait until the test answers them. */
function fakeSender() {
  const sent: Sent[] = [];
  const sender = {
    post: (_url: string, headers: Record<string, string>, body: string) =>
      new Promise<SendOutcome>((resolve) => {
        sent.push({
          headers,
          body,
          answer: (status) => resolve({ status_code: status, duration_ms: 1, response_body: '', response_headers: status === null ? null : {}, error: status === null ? 'ECONNREFUSED' : null }),
        });
      }),
    close: async () => {},
  };
  return { sent, sender: sender as unknown as HttpSender };
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), what);
};

describe('Dispatcher', () => {
  let outbox: Outbox;
  let target: WebhookTarget;
  let disabled: string[];

  beforeEach(async () => {
    outbox = await Outbox.open(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-dispatch-')), 'deliveries.jsonl'));
    target = { id: 'wh_a', url: 'http://127.0.0.1:9/hook', secret: SECRET, previous_secrets: [], active: true, paused: false, retry_schedule: null, failures_counted_from: 0 };
    disabled = [];
  });
  afterEach(() => outbox.close());

  const dispatcher = (sender: HttpSender, options: { retrySchedule?: number[]; concurrency?: number; disableAfterMs?: number } = {}) =>
    new Dispatcher(outbox, sender, (id) => (id === target.id ? target : undefined), {
      retrySchedule: options.retrySchedule ?? [0.02],
      concurrencyPerWebhook: options.concurrency ?? 16,
      disableAfterMs: options.disableAfterMs ?? 0,
      onDisable: (id) => {
        disabled.push(id);
        target.active = false;
      },
    });

  it('sends each message signed (Standard Webhooks) and records the delivery', async () => {
    const { sent, sender } = fakeSender();
    const d = dispatcher(sender);
    const [m] = await outbox.add(batchOf([message(1)]));
    d.enqueue([m!]);
    await until(() => sent.length === 1, 'the message is sent');
    const { headers, body } = sent[0]!;
    assert.equal(body, '{"n":1}');
    assert.equal(headers['webhook-id'], 'msg_1');
    assert.equal(headers['webhook-signature'], signMessage(SECRET, 'msg_1', Number(headers['webhook-timestamp']), body));
    assert.equal(headers['x-spout-event-id'], '1000-1');
    assert.equal('x-spout-event-name' in headers, false, 'the default channel sends no event-name header');
    sent[0]!.answer(204);
    await until(() => m!.status === 'delivered', 'the message is delivered');
    assert.equal(m!.attempts.length, 1);
    await d.stop();
  });

  it('keeps at most its concurrency in flight to one webhook, and sends the rest as slots free', async () => {
    const { sent, sender } = fakeSender();
    const d = dispatcher(sender, { concurrency: 3 });
    d.enqueue(await outbox.add(batchOf(Array.from({ length: 7 }, (_, n) => message(n)))));
    await until(() => sent.length === 3, 'three in flight');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(sent.length, 3, 'no more than three at once');
    sent[0]!.answer(200);
    await until(() => sent.length === 4, 'a freed slot takes the next');
    for (let i = 1; i < 7; i++) {
      await until(() => sent.length > i, `message ${i} sent`);
      sent[i]!.answer(200);
    }
    await until(() => [...outbox.messages.values()].every((m) => m.status === 'delivered'), 'all delivered');
    await d.stop();
  });

  it("holds a paused webhook's messages, then sends them in creation order, one at a time, on resume", async () => {
    const { sent, sender } = fakeSender();
    const d = dispatcher(sender);
    target.paused = true;
    const at = (n: number) => ({ ...message(n), created_at: 1_000 + n });
    // Made ready out of creation order, as a retry coming due after newer messages would be.
    d.enqueue(await outbox.add(batchOf([at(2), at(0), at(1)])));
    assert.equal(sent.length, 0, 'nothing is sent while paused');

    target.paused = false;
    d.resume(target.id);
    for (let n = 0; n < 3; n++) {
      await until(() => sent.length === n + 1, `held message ${n} sent`);
      assert.equal(sent.length, n + 1, 'one at a time while draining what was held');
      assert.equal(sent[n]!.body, `{"n":${n}}`);
      sent[n]!.answer(200);
    }
    await until(() => [...outbox.messages.values()].every((m) => m.status === 'delivered'), 'all delivered');
    d.enqueue(await outbox.add(batchOf([message(3), message(4)])));
    assert.equal(sent.length, 5, 'then the usual concurrency again');
    for (const s of sent.slice(3)) s.answer(200);
    await d.stop();
  });

  it('retries a failed attempt on the schedule, and marks the message failed when the schedule is spent', async () => {
    const { sent, sender } = fakeSender();
    const d = dispatcher(sender, { retrySchedule: [0.02] });
    const [m] = await outbox.add(batchOf([message(1)]));
    d.enqueue([m!]);
    await until(() => sent.length === 1, 'first attempt');
    sent[0]!.answer(500);
    await until(() => m!.status === 'failing', 'failing after the first attempt');
    assert.ok(m!.next_attempt_at !== null && m!.next_attempt_at >= Date.now() - 5);
    await until(() => sent.length === 2, 'the retry is sent once due');
    sent[1]!.answer(null);
    await until(() => m!.status === 'failed', 'failed when no retry is left');
    assert.equal(m!.next_attempt_at, null);
    assert.deepEqual(
      m!.attempts.map((a) => a.status_code),
      [500, null],
    );
    await d.stop();
  });

  it('disables a webhook that answers 410 Gone, and holds its messages until it is enabled again', async () => {
    const { sent, sender } = fakeSender();
    const d = dispatcher(sender, { concurrency: 1 });
    d.enqueue(await outbox.add(batchOf([message(1), message(2)])));
    await until(() => sent.length === 1, 'first attempt');
    sent[0]!.answer(410);
    await until(() => disabled.length === 1, 'the webhook is disabled');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(sent.length, 1, 'nothing is sent to a disabled webhook');
    target.active = true;
    d.wake('wh_a');
    await until(() => sent.length === 2, 'sending resumes once enabled');
    sent[1]!.answer(200);
    await d.stop();
  });
});
