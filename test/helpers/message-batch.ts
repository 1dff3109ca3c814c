import type { NewMessage, NewMessageBatch } from '../../runtime/contract/delivery-protocol';
import { MessageBatchBuilder } from '../../runtime/delivery/message-batch';

/** New messages as the batch the delivery thread receives them in. */
export function batchOf(messages: readonly NewMessage[]): NewMessageBatch {
  const builder = new MessageBatchBuilder();
  for (const m of messages) builder.push(m);
  return builder.take();
}
