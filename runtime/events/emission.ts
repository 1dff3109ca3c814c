import type { DeliveryService } from '../delivery/delivery-service';
import type { EmitPayload } from '../sandbox/protocol';
import type { SubscriptionRecord } from '../store/metadata';
import type { EventStore, NewEvent, StoredEvent } from './event-store';
import { listenersFor } from './routing';

/**
 * Puts what a run emitted in order, stores it and hands each event to the webhooks subscribed to
 * it. Resolves once events and their deliveries are durable: from then on nothing is lost.
 */
export class Emission {
  constructor(
    private readonly events: EventStore,
    private readonly delivery: DeliveryService,
    private readonly subscriptions: () => readonly SubscriptionRecord[],
  ) {}

  /** Stores and routes the emits of one run of `emitterId`, in emit order (see inEmitOrder). */
  async accept(emitterId: string, emits: readonly EmitPayload[]): Promise<StoredEvent[]> {
    if (emits.length === 0) return [];
    const now = Date.now();
    const batch: NewEvent[] = inEmitOrder(emits).map((e) => ({
      json: e.json,
      meta: {
        id: e.meta.id,
        name: e.meta.name ?? null,
        summary: e.meta.summary ?? null,
        ts: e.meta.ts ?? now,
      },
    }));
    const { stored, durable } = this.events.append(emitterId, batch, now);
    const subs = this.subscriptions();
    // Events and their delivery messages go to disk side by side, not one after the other.
    await Promise.all([
      durable,
      ...stored.map((event) => {
        const webhooks = listenersFor(subs, emitterId, event.meta.name).filter((id) => id.startsWith('wh_'));
        return this.delivery.deliver(event, webhooks);
      }),
    ]);
    return stored;
  }
}

/** With `ts` on every event, a run's events are emitted oldest first (spec 6.1); otherwise as emitted. */
export function inEmitOrder(emits: readonly EmitPayload[]): readonly EmitPayload[] {
  return emits.every((e) => typeof e.meta.ts === 'number') ? [...emits].sort((a, b) => (a.meta.ts as number) - (b.meta.ts as number)) : emits;
}
