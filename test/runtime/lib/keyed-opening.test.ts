import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedOpening } from '../../../runtime/lib/keyed-opening';

/** An opening whose keys open only when the test says, recording the order they began in. */
function controlled() {
  const began: string[] = [];
  const finish = new Map<string, { resolve: () => void; reject: (err: Error) => void }>();
  const opening = new KeyedOpening(
    (key) =>
      new Promise<void>((resolve, reject) => {
        began.push(key);
        finish.set(key, { resolve, reject });
      }),
  );
  return { opening, began, finish: (key: string) => finish.get(key) as { resolve: () => void; reject: (err: Error) => void } };
}

/** A few turns of the event loop: the background pass takes one before each key. */
const tick = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

describe('KeyedOpening', () => {
  it('opens a key once for everyone who waits, and costs nothing once open', async () => {
    const { opening, began, finish } = controlled();
    const waits = [opening.ready('a'), opening.ready('a'), opening.pending('a')];
    assert.deepEqual(began, ['a']);
    finish('a').resolve();
    await Promise.all(waits);
    await tick();
    assert.equal(opening.pending('a'), null);
    assert.deepEqual(began, ['a']);
  });

  it('opens in the background one key at a time, and a key asked for jumps the queue', async () => {
    const { opening, began, finish } = controlled();
    opening.inBackground(['a', 'b', 'c'], () => assert.fail('no key fails'));
    await tick();
    assert.deepEqual(began, ['a']);
    const c = opening.ready('c');
    assert.deepEqual(began, ['a', 'c']);
    finish('c').resolve();
    await c;
    finish('a').resolve();
    await tick();
    assert.deepEqual(began, ['a', 'c', 'b']);
    finish('b').resolve();
    await opening.settled();
    assert.deepEqual(began, ['a', 'c', 'b'], 'c, opened on demand, is not opened again');
  });

  it('tries a failed key again when next asked, and the background pass goes on past it', async () => {
    const { opening, began, finish } = controlled();
    const failed: string[] = [];
    opening.inBackground(['a', 'b'], (key) => failed.push(key));
    await tick();
    finish('a').reject(new Error('unreadable'));
    await tick();
    finish('b').resolve();
    await opening.settled();
    assert.deepEqual(failed, ['a']);
    const again = opening.ready('a');
    assert.deepEqual(began, ['a', 'b', 'a']);
    finish('a').resolve();
    await again;
  });

  it('stops the background pass and waits for the opening under way', async () => {
    const { opening, began, finish } = controlled();
    opening.inBackground(['a', 'b'], () => {});
    await tick();
    let stopped = false;
    const stop = opening.stop().then(() => (stopped = true));
    await tick();
    assert.equal(stopped, false, 'a is still opening');
    finish('a').resolve();
    await stop;
    assert.deepEqual(began, ['a']);
  });

  it('passes by a key forgotten (removed) before the background pass reached it', async () => {
    const { opening, began, finish } = controlled();
    opening.inBackground(['a', 'b', 'c'], () => {});
    await tick();
    opening.forget('b');
    finish('a').resolve();
    await tick();
    assert.deepEqual(began, ['a', 'c']);
    finish('c').resolve();
    await opening.settled();
  });
});
