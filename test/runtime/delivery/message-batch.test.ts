import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NewMessage } from '../../../runtime/contract/delivery-protocol';
import { MessageBatchBuilder } from '../../../runtime/delivery/message-batch';
import { batchMessages } from '../../../runtime/delivery/worker/outbox-message';

const message = (n: number, webhook: string, body: string, event_name: string | null = null): NewMessage => ({
  id: `msg_${n}`,
  webhook_id: webhook,
  event_id: `1000-${n}`,
  emitter_id: 'dc_a',
  event_name,
  body,
  created_at: 1000 + n,
  hops: n,
});

describe('MessageBatchBuilder', () => {
  it('sends each repeated name once and one event’s body once for all of its webhooks', () => {
    const builder = new MessageBatchBuilder();
    const shared = JSON.stringify({ n: 1, text: 'ünïcødé' });
    builder.push(message(1, 'wh_a', shared, 'new'));
    builder.push(message(2, 'wh_b', shared, 'new'));
    builder.push(message(3, 'wh_a', '{"n":3}'));
    assert.equal(builder.size, 3);
    const batch = builder.take();
    assert.deepEqual(batch.names, ['wh_a', 'dc_a', 'new', 'wh_b']);
    assert.deepEqual(
      [batch.webhook, batch.emitter, batch.channel],
      [
        [0, 3, 0],
        [1, 1, 1],
        [2, 2, -1],
      ],
    );
    assert.equal(batch.bodies, `${shared}{"n":3}`);
    assert.equal(builder.size, 0, 'take() starts a new batch');
    assert.deepEqual(builder.take().names, []);
  });

  it('reads back as the messages it was given', () => {
    const given = [message(1, 'wh_a', '{"a":1}', 'new'), message(2, 'wh_b', '{"a":1}', 'new'), message(3, 'wh_a', '"\ud800 lone"'), message(4, 'wh_c', '{}')];
    const builder = new MessageBatchBuilder();
    for (const m of given) builder.push(m);
    const read = batchMessages(builder.take()).map(({ id, webhook_id, event_id, emitter_id, event_name, body, created_at, hops }) => ({ id, webhook_id, event_id, emitter_id, event_name, body, created_at, hops }));
    assert.deepEqual(read, given);
  });
});
