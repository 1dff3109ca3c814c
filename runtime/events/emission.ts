import type { DeliveryService } from '../delivery/delivery-service';
import type { EmitPayload } from '../sandbox/protocol';
import type { SubscriptionRecord } from '../store/metadata';
import type { EventStore, NewEvent, StoredEvent } from './event-store';
import { listenersFor } from './routing';

/**
 * Puts what a run emitted in order, stores it and hands each event to the webhooks subscribed to
 * it. Resolves once events and their deliveries are durable: from then on nothing is lost.
 */
/** Listener runs passing events on to further listeners stop after this many hops. */
export const MAX_LISTENER_HOPS = 8;

/** Runs a listener that is not a webhook (a `dc_` source, a `p_` workflow) with an event; `depth` counts listener hops so far. */
export type Listener = (listenerId: string, event: StoredEvent, depth: number) => void;

export class Emission {
  /** Who runs listeners, by id prefix (`dc_`, `p_`). */
  private readonly listeners = new Map<string, Listener>();

  constructor(
    private readonly events: EventStore,
    private readonly delivery: DeliveryService,
    private readonly subscriptions: () => readonly SubscriptionRecord[],
  ) {}

  /** Sets who runs the listeners whose ids start with `prefix` (managers created after this). */
  onListener(prefix: 'dc_' | 'p_', listener: Listener): void {
    this.listeners.set(prefix, listener);
  }

  /**
   * Stores and routes the emits of one run of `emitterId`, in emit order (see inEmitOrder): to
   * subscribed webhooks durably, then to subscribed sources. `depth` is how many listener hops led
   * to this run; `invocationId` is the run's, kept with each event.
   */
  async accept(emitterId: string, emits: readonly EmitPayload[], depth = 0, invocationId: string | null = null): Promise<StoredEvent[]> {
    if (emits.length === 0) return [];
    const now = Date.now();
    const batch: NewEvent[] = inEmitOrder(emits).map((e) => ({
      json: e.json,
      meta: {
        id: e.meta.id,
        name: e.meta.name ?? null,
        summary: e.meta.summary ?? null,
        ts: e.meta.ts ?? now,
        ...(invocationId ? { invocation_id: invocationId } : {}),
      },
    }));
    const { stored, durable } = this.events.append(emitterId, batch, now);
    const subs = this.subscriptions();
    const routed = stored.map((event) => ({ event, listeners: listenersFor(subs, emitterId, event.meta.name) }));
    // Events and their delivery messages go to disk side by side, not one after the other.
    await Promise.all([durable, ...routed.map(({ event, listeners }) => this.delivery.deliver(event, listeners.filter((id) => id.startsWith('wh_'))))]);
    for (const { event, listeners } of routed) {
      for (const id of listeners) this.listeners.get(id.slice(0, id.indexOf('_') + 1))?.(id, event, depth + 1);
    }
    return stored;
  }
}

/** With `ts` on every event, a run's events are emitted oldest first (spec 6.1); otherwise as emitted. */
export function inEmitOrder(emits: readonly EmitPayload[]): readonly EmitPayload[] {
  return emits.every((e) => typeof e.meta.ts === 'number') ? [...emits].sort((a, b) => (a.meta.ts as number) - (b.meta.ts as number)) : emits;
}
