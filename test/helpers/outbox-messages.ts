import type { Outbox } from '../../runtime/delivery/worker/outbox';
import type { OutboxMessage } from '../../runtime/delivery/worker/outbox-message';

/** Every message of a webhook the outbox knows, in memory or spilled, in the order held. */
export function everyMessage(outbox: Outbox, webhookId = 'wh_a'): OutboxMessage[] {
  const all = [...outbox.messages.values()].filter((m) => m.webhook_id === webhookId);
  outbox.scanSpilled(webhookId, (m) => (all.push(m), true));
  return all;
}
