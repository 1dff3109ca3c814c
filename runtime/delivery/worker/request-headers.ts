import { HOPS_HEADER, type Message } from '../../contract/delivery-protocol';

/**
 * The headers of a message's request, in the order sent, for one attempt's timestamp and
 * signature. The dispatcher sends them and the attempt log rebuilds them here from what the
 * outbox keeps, so the log shows what went out without writing it out on every attempt. undici
 * adds `host`, `connection` and `content-length` on the wire; these are the message's own.
 */
export function requestHeaders(m: Pick<Message, 'id' | 'emitter_id' | 'event_id' | 'event_name' | 'hops'>, timestamp: number, signature: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Spout-Webhooks/1',
    'webhook-id': m.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
    'x-spout-emitter-id': m.emitter_id,
    'x-spout-event-id': m.event_id,
    [HOPS_HEADER]: String(m.hops),
  };
  // The default channel has no name: the header is left out rather than sent empty.
  if (m.event_name) headers['x-spout-event-name'] = m.event_name;
  return headers;
}
