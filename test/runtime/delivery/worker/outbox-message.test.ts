import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BatchBodies, OutboxMessage } from '../../../../runtime/delivery/worker/outbox-message';

/** A batch of 16 messages whose bodies, all as long, are slices of one string; the first holds a lone surrogate. */
function batch() {
  const bodies = Array.from({ length: 16 }, (_, n) => `"${n === 0 ? '\udc00' : 'x'}${String(n).padStart(2, '0')}${'y'.repeat(40)}"`);
  const shared = new BatchBodies(bodies.join(''));
  let at = 0;
  const messages = bodies.map((body, n) => {
    const m = new OutboxMessage(`msg_${n}`, 'wh_a', `1000-${n}`, 'dc_a', null, '', 1000, 1);
    m.sliceBody(shared, at, (at += body.length));
    return m;
  });
  return { bodies, shared, messages };
}

describe('BatchBodies', () => {
  it('is held while the messages kept use an eighth of it or more', () => {
    const { shared, messages } = batch();
    for (const m of messages.slice(2)) m.forget();
    assert.equal(shared.members.length, 16, 'two of sixteen kept: an eighth');
    assert.equal(shared.used * 8, shared.text.length);
  });

  it('gives the messages still kept bodies of their own once they use less, every code unit the same', () => {
    const { bodies, shared, messages } = batch();
    for (const m of messages.slice(1)) m.forget();
    assert.equal(shared.members.length, 0, 'let go');
    assert.equal(messages[0]!.body, bodies[0]);
    assert.equal(messages[0]!.kept, true);
    const used = shared.used;
    messages[0]!.forget();
    assert.equal(shared.used, used, 'a body of its own no longer counts against the batch');
  });

  it('does not track a body that is the whole string', () => {
    const shared = new BatchBodies('{"only":1}');
    const m = new OutboxMessage('msg_1', 'wh_a', '1000-1', 'dc_a', null, '', 1000, 1);
    m.sliceBody(shared, 0, shared.text.length);
    assert.deepEqual([m.body, shared.members.length, shared.used], ['{"only":1}', 0, 0]);
  });
});
