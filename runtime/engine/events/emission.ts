import type { EmitPayload } from '../../contract/host-protocol';
import type { EventStore, KeptEvent, NewEvent, StoredEvent } from '../../store/event-store';
import type { SubscriptionRecord } from '../../store/metadata';
import { listenersFor } from './routing';

/** Listener runs passing events on to further listeners stop after this many hops. */
export const MAX_LISTENER_HOPS = 8;

/** Runs a listener that is not a webhook (a `dc_` source, a `p_` workflow) with an event; `depth` counts listener hops so far. */
export type Listener = (listenerId: string, event: StoredEvent, depth: number) => void;

/**
 * What emission needs of webhook delivery (implemented by delivery/, wired by service.ts): each
 * call resolves once the delivery messages are durable.
 */
export interface DeliveryPort {
  /** Creates one delivery message of `event` per webhook. */
  deliver(event: StoredEvent, webhookIds: readonly string[]): Promise<void>;
  /** After a crash: creates the messages of kept events (read with `read`) that lack them; resolves how many. */
  deliverUnrecorded(emitterId: string, events: readonly KeptEvent[], read: (kept: KeptEvent) => StoredEvent): Promise<number>;
}

/** One stored event and where it went: the webhooks it is delivered to, and the sources and workflows run with it. */
export interface RoutedEvent {
  event: StoredEvent;
  webhooks: readonly string[];
  listeners: readonly string[];
}

/**
 * Puts what a run emitted in order, stores it and hands each event to the webhooks subscribed to
 * it. Resolves once events and their deliveries are durable: from then on nothing is lost.
 */
export class Emission {
  /**
   * @param subscriptions who listens to what, read on each emit
   * @param listen runs the sources and workflows subscribed to an event (service.ts wires it)
   */
  constructor(
    private readonly events: EventStore,
    private readonly delivery: DeliveryPort,
    private readonly subscriptions: () => readonly SubscriptionRecord[],
    private readonly listen: Listener,
  ) {
    // A crash can fall between an event reaching disk and its delivery messages doing so.
    events.onOpen((emitterId, kept) => {
      this.delivery.deliverUnrecorded(emitterId, kept, (k) => events.read(k)).catch((err: Error) => console.error(`recovering the deliveries of ${emitterId} failed: ${err.message}`));
    });
  }

  /** True when something subscribes to `emitterId`'s events on `channel` (null: the default channel). */
  isHeard(emitterId: string, channel: string | null): boolean {
    return listenersFor(this.subscriptions(), emitterId, channel).length > 0;
  }

  /**
   * Stores and routes the emits of one run of `emitterId`, in the order given (a run's come in
   * emit order, lib/emit-order.ts): to
   * subscribed webhooks durably, then to subscribed sources and workflows. `depth` is how many
   * listener hops led to this run; `invocationId` is the run's, kept with each event; `hops` how
   * many webhook deliveries in a row did (kept with each event, see StoredEvent). Resolves each
   * stored event with where it went.
   */
  async accept(emitterId: string, emits: readonly EmitPayload[], depth = 0, invocationId: string | null = null, hops = 0): Promise<RoutedEvent[]> {
    if (emits.length === 0) return [];
    const now = Date.now();
    const subs = this.subscriptions();
    const routes: Array<Omit<RoutedEvent, 'event'>> = [];
    // A run's events mostly share a channel: each channel's route is worked out once.
    const routeByChannel = new Map<string | null, Omit<RoutedEvent, 'event'>>();
    const batch: NewEvent[] = emits.map((e) => {
      const name = e.meta.name ?? null;
      let route = routeByChannel.get(name);
      if (!route) {
        const webhooks: string[] = [];
        const listeners: string[] = [];
        for (const id of listenersFor(subs, emitterId, name)) (id.startsWith('wh_') ? webhooks : listeners).push(id);
        routeByChannel.set(name, (route = { webhooks, listeners }));
      }
      const { webhooks } = route;
      routes.push(route);
      const meta: NewEvent['meta'] = { id: e.meta.id, name, summary: e.meta.summary ?? null, ts: e.meta.ts ?? now };
      if (invocationId) meta.invocation_id = invocationId;
      const event: NewEvent = { json: e.json, meta, deliver_to: webhooks };
      if (hops > 0) event.hops = hops;
      return event;
    });
    const { stored, durable } = this.events.append(emitterId, batch, now);
    // Events and their delivery messages go to disk side by side, not one after the other; each
    // event's line names its webhooks, so a crash between the two is mended on restart.
    // The port answers the deliveries of one tick with one promise: each is waited for once.
    const waits = new Set<Promise<void>>([durable]);
    stored.forEach((event, i) => waits.add(this.delivery.deliver(event, routes[i]!.webhooks)));
    await Promise.all(waits);
    const routed = stored.map((event, i) => ({ event, ...routes[i]! }));
    for (const { event, listeners } of routed) for (const id of listeners) this.listen(id, event, depth + 1);
    return routed;
  }
}
