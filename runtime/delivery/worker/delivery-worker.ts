// Entry of the delivery thread: owns the outbox, schedules attempts, signs and sends them, and
// records the outcome, so a delivery never waits on the service's event loop and delivery load
// never slows the API, the UI or ingest.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { Attempt, DeliveryAnswer, DeliveryQuery, DeliveryWorkerData, FromDelivery, ListedAttempt, Message, MessageFilter, MessageSummary, ToDelivery, WebhookHealth, WebhookTarget } from '../../contract/delivery-protocol';
import { paginate } from '../../lib/pagination';
import { Dispatcher } from './dispatcher';
import { listedStatus, matchesFilter } from './message-filter';
import { Outbox } from './outbox';
import type { OutboxMessage } from './outbox-message';
import { requestHeaders } from './request-headers';
import { HttpSender } from './webhook-sender';

const port = parentPort!;
const options = workerData as DeliveryWorkerData;
const post = (message: FromDelivery) => port.postMessage(message);

/** Webhooks known to this thread, as the main thread last sent them. */
const webhooks = new Map<string, WebhookTarget>();

function summary(m: Message): MessageSummary {
  const { id, webhook_id, event_id, emitter_id, event_name, created_at, next_attempt_at } = m;
  const status = listedStatus(m, webhooks.get(webhook_id)?.paused === true);
  return { id, webhook_id, event_id, emitter_id, event_name, created_at, status, next_attempt_at, attempts: m.attempts.length };
}

/**
 * A webhook's messages the filter takes, oldest first: those in memory, then those waiting in its
 * spill file (newer than any in memory but the ones taken early), read for the answer and let go.
 */
function matching(outbox: Outbox, webhookId: string, filter: MessageFilter): OutboxMessage[] {
  const paused = webhooks.get(webhookId)?.paused === true;
  const found: OutboxMessage[] = [];
  for (const m of outbox.messages.values()) if (m.webhook_id === webhookId && matchesFilter(m, listedStatus(m, paused), filter)) found.push(m);
  // Spilled messages are all pending (listed paused while the webhook is): a filter for other statuses reads none.
  if (!filter.statuses || filter.statuses.includes(paused ? 'paused' : 'pending')) outbox.scanSpilled(webhookId, (m) => (matchesFilter(m, listedStatus(m, paused), filter) && found.push(m), true));
  return found;
}

/** A webhook's message by id, in memory or in its spill file. */
function messageById(outbox: Outbox, webhookId: string, id: string): OutboxMessage | null {
  const m = outbox.messages.get(id);
  if (m) return m.webhook_id === webhookId ? m : null;
  let found: OutboxMessage | null = null;
  outbox.scanSpilled(
    webhookId,
    (s) => ((found = s), false),
    (lineId) => lineId === id,
  );
  return found;
}

/** Attempt `n` of a message as the attempt log lists it, with the request it sent. */
function listedAttempt(m: Message, a: Attempt, n: number): ListedAttempt {
  const { timestamp, signature, ...outcome } = a;
  const request_headers = timestamp !== null && signature !== null ? requestHeaders(m, timestamp, signature) : null;
  // Every attempt sends the message's body: each shows it as its payload.
  return { id: `${m.id}.${n}`, request_headers, ...outcome, request_body: m.body };
}

/** Each webhook's health from the attempt log its messages keep. */
function health(outbox: Outbox): Record<string, WebhookHealth> {
  const out: Record<string, WebhookHealth> = {};
  const failures = new Map<string, number[]>();
  for (const m of outbox.messages.values()) {
    const h = (out[m.webhook_id] ??= { last_success_at: null, last_failure_at: null, failing_since: null, pending: 0, failing: 0, failed: 0 });
    if (m.status === 'pending' || m.status === 'failing' || m.status === 'failed') h[m.status]++;
    for (const a of m.attempts) {
      if (a.status_code !== null && a.status_code >= 200 && a.status_code < 300) h.last_success_at = Math.max(h.last_success_at ?? 0, a.created_at);
      else {
        h.last_failure_at = Math.max(h.last_failure_at ?? 0, a.created_at);
        let list = failures.get(m.webhook_id);
        if (!list) failures.set(m.webhook_id, (list = []));
        list.push(a.created_at);
      }
    }
  }
  // Spilled messages are pending, with no attempt yet.
  for (const id of outbox.spilledWebhooks()) {
    const h = (out[id] ??= { last_success_at: null, last_failure_at: null, failing_since: null, pending: 0, failing: 0, failed: 0 });
    h.pending += outbox.spilledCount(id);
  }
  for (const [id, times] of failures) {
    const h = out[id] as WebhookHealth;
    const after = times.filter((t) => t > (h.last_success_at ?? -Infinity));
    h.failing_since = after.length ? Math.min(...after) : null;
  }
  return out;
}

async function answer(outbox: Outbox, dispatcher: Dispatcher, query: DeliveryQuery): Promise<DeliveryAnswer> {
  switch (query.kind) {
    case 'health':
      return health(outbox);
    case 'messages':
      return paginate(matching(outbox, query.webhookId, query.filter).reverse(), query.page, summary);
    case 'for-events': {
      const wanted = new Set(query.eventIds);
      const found: MessageSummary[] = [];
      for (const m of outbox.messages.values()) if (wanted.has(m.event_id)) found.push(summary(m));
      for (const id of outbox.spilledWebhooks()) {
        outbox.scanSpilled(
          id,
          (m) => (found.push(summary(m)), true),
          (_id, eventId) => wanted.has(eventId),
        );
      }
      return found;
    }
    case 'attempts': {
      const m = messageById(outbox, query.webhookId, query.messageId);
      if (!m) return null;
      return paginate(m.attempts.map((a, i) => listedAttempt(m, a, i + 1)).reverse(), query.page, (a) => a);
    }
    case 'resend': {
      const found = messageById(outbox, query.webhookId, query.messageId);
      if (!found) return null;
      // A spilled message is taken into memory for its manual attempt, ahead of its turn.
      const m = outbox.takeSpilled(found);
      await outbox.requestManual([m]);
      dispatcher.sendManual([m]);
      return summary(m);
    }
    case 'recover': {
      const failed = matching(outbox, query.webhookId, query.filter).map((m) => outbox.takeSpilled(m));
      await outbox.requestManual(failed);
      dispatcher.sendManual(failed);
      return { recovered: failed.length };
    }
  }
}

async function main(): Promise<void> {
  // SPOUT_DELIVERY_WINDOW: a smaller window, for tests that make a backlog spill without thousands of events.
  const window = Number(process.env.SPOUT_DELIVERY_WINDOW) || undefined;
  const outbox = await Outbox.open(path.join(options.dataDir, 'deliveries.jsonl'), (problem) => post({ type: 'problem', problem }), window);
  // Webhooks this thread disabled that the main thread has not yet confirmed as inactive: a table
  // sent before it heard of the disable must not switch them back on.
  const disabling = new Set<string>();
  const sender = new HttpSender(options.timeoutMs);
  const dispatcher = new Dispatcher(outbox, sender, (id) => webhooks.get(id), {
    retrySchedule: options.retrySchedule,
    concurrencyPerWebhook: options.concurrencyPerWebhook,
    disableAfterMs: options.disableAfterMs,
    onDisable: (webhookId, reason) => {
      const w = webhooks.get(webhookId);
      if (!w?.active) return;
      w.active = false;
      disabling.add(webhookId);
      post({ type: 'disable', webhookId, reason });
    },
  });
  let started = false;

  port.on('message', (message: ToDelivery) => {
    switch (message.type) {
      case 'webhooks': {
        const previous = new Map(webhooks);
        webhooks.clear();
        sender.servicePort = message.servicePort;
        for (const w of message.webhooks) {
          if (disabling.has(w.id)) {
            if (w.active) w.active = false;
            else disabling.delete(w.id);
          }
          webhooks.set(w.id, w);
        }
        for (const id of disabling) if (!webhooks.has(id)) disabling.delete(id);
        for (const id of new Set([...outbox.messages.values()].map((m) => m.webhook_id).concat(outbox.spilledWebhooks()))) if (!webhooks.has(id)) outbox.dropWebhook(id);
        if (!started) {
          started = true;
          dispatcher.start();
          post({ type: 'ready', marks: outbox.deliveryMarks() });
        }
        for (const w of webhooks.values()) {
          const was = previous.get(w.id);
          // Resumed: what was held goes first, in the order it was created.
          if (was?.paused && !w.paused) dispatcher.resume(w.id);
          else if (w.active && was?.active === false) dispatcher.wake(w.id);
        }
        break;
      }
      case 'rules':
        // Changed in the settings: the next attempt scheduled, sent or judged uses them.
        dispatcher.setRules(message);
        sender.timeoutMs = message.timeoutMs;
        break;
      case 'add':
        outbox.add(message.messages).then(
          (created) => {
            post({ type: 'added', seq: message.seq, error: null });
            dispatcher.enqueue(created);
          },
          (err: Error) => post({ type: 'added', seq: message.seq, error: err.message }),
        );
        break;
      case 'query':
        answer(outbox, dispatcher, message.query).then(
          (result) => post({ type: 'answer', seq: message.seq, answer: result }),
          (err: Error) => post({ type: 'answer', seq: message.seq, answer: null, error: err.message }),
        );
        break;
      case 'stop':
        void dispatcher
          .stop()
          .then(() => outbox.close())
          .then(() => port.close());
        break;
    }
  });
}

void main();
