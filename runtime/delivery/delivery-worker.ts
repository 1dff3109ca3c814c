// Entry of the delivery thread: owns the outbox, schedules attempts, signs and sends them, and
// records the outcome, so a delivery never waits on the service's event loop and delivery load
// never slows the API, the UI or ingest.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { paginate } from '../pagination';
import { Dispatcher } from './dispatcher';
import { HttpSender } from './http-sender';
import { Outbox, type Message } from './outbox';
import type { DeliveryAnswer, DeliveryQuery, DeliveryWorkerData, FromDelivery, MessageSummary, ToDelivery, WebhookTarget } from './protocol';

const port = parentPort!;
const options = workerData as DeliveryWorkerData;
const post = (message: FromDelivery) => port.postMessage(message);

function summary(m: Message): MessageSummary {
  const { body: _body, attempts, ...rest } = m;
  return { ...rest, attempts: attempts.length };
}

function answer(outbox: Outbox, query: DeliveryQuery): DeliveryAnswer {
  if (query.kind === 'messages') {
    const list = [...outbox.messages.values()].filter((m) => m.webhook_id === query.webhookId).reverse();
    return paginate(list, query.page, summary);
  }
  const m = outbox.messages.get(query.messageId);
  if (!m || m.webhook_id !== query.webhookId) return null;
  const attempts = m.attempts.map((a, i) => ({ id: `${m.id}.${i + 1}`, ...a })).reverse();
  return paginate(attempts, query.page, (a) => a);
}

async function main(): Promise<void> {
  const outbox = await Outbox.open(path.join(options.dataDir, 'deliveries.jsonl'));
  const webhooks = new Map<string, WebhookTarget>();
  const dispatcher = new Dispatcher(outbox, new HttpSender(options.timeoutMs), (id) => webhooks.get(id), {
    retrySchedule: options.retrySchedule,
    concurrencyPerWebhook: options.concurrencyPerWebhook,
  });
  let started = false;

  port.on('message', (message: ToDelivery) => {
    switch (message.type) {
      case 'webhooks': {
        const previous = new Map(webhooks);
        webhooks.clear();
        for (const w of message.webhooks) webhooks.set(w.id, w);
        for (const id of new Set([...outbox.messages.values()].map((m) => m.webhook_id))) if (!webhooks.has(id)) outbox.dropWebhook(id);
        if (!started) {
          started = true;
          dispatcher.start();
          post({ type: 'ready' });
        }
        for (const w of message.webhooks) if (w.active && previous.get(w.id)?.active === false) dispatcher.wake(w.id);
        break;
      }
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
        post({ type: 'answer', seq: message.seq, answer: answer(outbox, message.query) });
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
