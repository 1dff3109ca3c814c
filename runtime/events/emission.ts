import type { DeliveryService } from '../delivery/delivery-service';
import type { EmitPayload } from '../sandbox/protocol';
import type { SubscriptionRecord } from '../store/metadata';
import type { EventStore, NewEvent, StoredEvent } from './event-store';
import { listenersFor } from './routing';

/**
 * Puts what a run emitted in order, stores it and hands each event to the webhooks subscribed to
 * it. Resolves once events and their deliveries are durable: from then on nothing is lost.
 */
/** Runs a listening source (`dc_…` listener) with an event; `depth` counts listener hops so far. */
export type SourceListener = (listenerId: string, event: StoredEvent, depth: number) => void;

export class Emission {
  private sourceListener: SourceListener = () => {};

  constructor(
    private readonly events: EventStore,
    private readonly delivery: DeliveryService,
    private readonly subscriptions: () => readonly SubscriptionRecord[],
  ) {}

  /** Sets who runs `dc_…` listeners (the source manager, created after this). */
  onSourceListener(listener: SourceListener): void {
    this.sourceListener = listener;
  }

  /**
   * Stores and routes the emits of one run of `emitterId`, in emit order (see inEmitOrder): to
   * subscribed webhooks durably, then to subscribed sources. `depth` is how many listener hops led
   * to this run.
   */
  async accept(emitterId: string, emits: readonly EmitPayload[], depth = 0): Promise<StoredEvent[]> {
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
    const routed = stored.map((event) => ({ event, listeners: listenersFor(subs, emitterId, event.meta.name) }));
    // Events and their delivery messages go to disk side by side, not one after the other.
    await Promise.all([durable, ...routed.map(({ event, listeners }) => this.delivery.deliver(event, listeners.filter((id) => id.startsWith('wh_'))))]);
    for (const { event, listeners } of routed) {
      for (const id of listeners) if (id.startsWith('dc_')) this.sourceListener(id, event, depth + 1);
    }
    return stored;
  }
}

/** With `ts` on every event, a run's events are emitted oldest first (spec 6.1); otherwise as emitted. */
export function inEmitOrder(emits: readonly EmitPayload[]): readonly EmitPayload[] {
  return emits.every((e) => typeof e.meta.ts === 'number') ? [...emits].sort((a, b) => (a.meta.ts as number) - (b.meta.ts as number)) : emits;
}
