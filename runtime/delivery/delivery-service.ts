import path from 'node:path';
import { newId } from '../ids';
import type { StoredEvent } from '../events/event-store';
import { Dispatcher, type WebhookTarget } from './dispatcher';
import { Outbox } from './outbox';
import { ThreadedSender } from './sender-thread';

export interface DeliveryOptions {
  dataDir: string;
  retrySchedule: readonly number[];
  /** A receiver that has not answered within this is a failed attempt. */
  timeoutMs: number;
  webhook: (id: string) => WebhookTarget | undefined;
}

/** Webhook delivery: a durable outbox, and a dispatcher sending from it with retries and signatures. */
export class DeliveryService {
  private constructor(
    readonly outbox: Outbox,
    private readonly dispatcher: Dispatcher,
  ) {}

  /** Opens the outbox and resumes every delivery that was pending when the service stopped. */
  static async start(options: DeliveryOptions): Promise<DeliveryService> {
    const outbox = await Outbox.open(path.join(options.dataDir, 'deliveries.jsonl'));
    for (const m of outbox.messages.values()) if (!options.webhook(m.webhook_id)) outbox.dropWebhook(m.webhook_id);
    const sender = new ThreadedSender(options.timeoutMs);
    const dispatcher = new Dispatcher(outbox, sender, options.webhook, {
      retrySchedule: options.retrySchedule,
      concurrencyPerWebhook: 16,
    });
    dispatcher.start();
    return new DeliveryService(outbox, dispatcher);
  }

  /** Creates one message per webhook for the event; resolves once they are durable, then sends them. */
  async deliver(event: StoredEvent, webhookIds: readonly string[]): Promise<void> {
    if (webhookIds.length === 0) return;
    const messages = await this.outbox.add(
      webhookIds.map((webhook_id) => ({
        id: newId('msg', 20),
        webhook_id,
        event_id: event.id,
        emitter_id: event.emitter_id,
        event_name: event.meta.name,
        body: event.json,
        created_at: Date.now(),
      })),
    );
    this.dispatcher.enqueue(messages);
  }

  /** Forgets the messages of a deleted webhook. */
  dropWebhook(webhookId: string): void {
    this.outbox.dropWebhook(webhookId);
  }

  /** Resumes a webhook's deliveries (after it was enabled again). */
  wake(webhookId: string): void {
    this.dispatcher.wake(webhookId);
  }

  /** Waits for requests in flight, then closes the outbox. */
  async stop(): Promise<void> {
    await this.dispatcher.stop();
    await this.outbox.close();
  }
}
