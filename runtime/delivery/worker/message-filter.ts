import type { ListedStatus, Message, MessageFilter } from '../../contract/delivery-protocol';

/** How a message is listed: held (`paused`) while its webhook is paused and it still waits for delivery. */
export function listedStatus(m: Pick<Message, 'status'>, webhookPaused: boolean): ListedStatus {
  return webhookPaused && (m.status === 'pending' || m.status === 'failing') ? 'paused' : m.status;
}

/** Whether the filter takes a message listed with `status`. */
export function matchesFilter(m: Message, status: ListedStatus, f: MessageFilter): boolean {
  if (f.statuses && !f.statuses.includes(status)) return false;
  if (f.emitterId !== undefined && m.emitter_id !== f.emitterId) return false;
  if (f.eventId !== undefined && m.event_id !== f.eventId) return false;
  if (f.eventName !== undefined && m.event_name !== f.eventName) return false;
  if (f.since !== undefined && m.created_at < f.since) return false;
  return f.until === undefined || m.created_at <= f.until;
}
