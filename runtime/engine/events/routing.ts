import type { SubscriptionRecord } from '../../store/metadata';

/** True if a subscription's emitter (an id or a `dc_*`/`p_*` glob) covers `emitterId`. */
export function emitterMatches(pattern: string, emitterId: string): boolean {
  return pattern.endsWith('*') ? emitterId.startsWith(pattern.slice(0, -1)) : pattern === emitterId;
}

/**
 * Listener ids subscribed to events of `emitterId` on `channel` (null: the default channel). A
 * subscription without `event_name` listens to the default channel only.
 */
export function listenersFor(subscriptions: readonly SubscriptionRecord[], emitterId: string, channel: string | null): string[] {
  const out = new Set<string>();
  for (const s of subscriptions) {
    if (s.event_name === channel && emitterMatches(s.emitter_id, emitterId)) out.add(s.listener_id);
  }
  return [...out];
}
