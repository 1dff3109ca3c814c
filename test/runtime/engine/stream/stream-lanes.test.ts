// The stream's merge: lanes read newest first, merged by time, paged with a cursor; runs a store
// keeps in the order they ended are put in the order they started.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Lane, mergeLanes, newestFirst } from '../../../../runtime/engine/stream/stream-lanes';
import type { StreamSubject } from '../../../../runtime/engine/stream/stream-match';
import { byStart } from '../../../../runtime/lib/start-order';

const subject = (id: string, ts: number) => ({ id, ts }) as StreamSubject;
const lane = (items: StreamSubject[], test: (s: StreamSubject) => boolean = () => true) =>
  new Lane(
    items.length,
    (i) => items[i] ?? null,
    test,
    (i) => items[i] as StreamSubject,
  );

describe('stream lanes', () => {
  it('merges lanes newest first, and pages older than a cursor', () => {
    const a = [subject('a1', 1), subject('a3', 3), subject('a5', 5)];
    const b = [subject('b2', 2), subject('b4', 4), subject('b6', 6)];
    assert.deepEqual(
      mergeLanes([lane(a), lane(b)], 4, null).map((s) => s.id),
      ['b6', 'a5', 'b4', 'a3'],
    );
    assert.deepEqual(
      mergeLanes([lane(a), lane(b)], 10, { id: 'b4', ts: 4 }).map((s) => s.id),
      ['a3', 'b2', 'a1'],
    );
    assert.deepEqual(
      mergeLanes([lane(a, (s) => s.ts > 2), lane(b)], 10, null).map((s) => s.id),
      ['b6', 'a5', 'b4', 'a3', 'b2'],
    );
    // A lane counts every subject that passes, those a page already read included.
    const counted = lane(b, (s) => s.ts % 2 === 0);
    assert.equal(counted.take()?.id, 'b6');
    assert.equal(counted.next?.id, 'b4');
    assert.equal(counted.count(), true);
    assert.equal(counted.passed, 3);
    assert.equal(counted.next, null);
  });

  it('reads a lane no further than the page needs, even when none of its rows match', () => {
    const read: string[] = [];
    const tested = (items: StreamSubject[], pass: boolean) => lane(items, (s) => (read.push(s.id), pass));
    const none = Array.from({ length: 100 }, (_, i) => subject(`n${i}`, i * 2));
    const some = Array.from({ length: 100 }, (_, i) => subject(`s${i}`, i * 2 + 1));
    assert.deepEqual(
      mergeLanes([tested(none, false), tested(some, true)], 3, null).map((s) => s.id),
      ['s99', 's98', 's97'],
    );
    // Each lane was read down to the page's last row, not through its 100 rows.
    assert.ok(read.length <= 6, `read ${read.length} rows`);
  });

  it('counts the rows a cursor passed over, and stops counting when told, to go on later', () => {
    const items = Array.from({ length: 10 }, (_, i) => subject(`r${i}`, i));
    const even = lane(items, (s) => s.ts % 2 === 0);
    assert.deepEqual(
      mergeLanes([even], 2, { id: 'r6', ts: 6 }).map((s) => s.id),
      ['r4', 'r2'],
    );
    let asked = 0;
    assert.equal(
      even.count(() => ++asked >= 2),
      false,
    );
    assert.equal(even.count(), true);
    // r0, r2, r4 below the cursor; r6, r8 passed over by it.
    assert.equal(even.passed, 5);
  });

  it('orders event ids of one millisecond by their sequence, not as text', () => {
    assert.ok(newestFirst({ id: '100-10', ts: 100 }, { id: '100-9', ts: 100 }) < 0);
    assert.ok(newestFirst({ id: '100-9', ts: 100 }, { id: '101-0', ts: 101 }) > 0);
  });

  it('puts runs kept in the order they ended in the order they started', () => {
    const inOrder = [
      { id: 'r1', started_at: 1 },
      { id: 'r2', started_at: 2 },
    ];
    assert.equal(byStart(inOrder), inOrder, 'a list in order is used as it is');
    const ended = [
      { id: 'r2', started_at: 2 },
      { id: 'r1', started_at: 1 },
      { id: 'r3', started_at: 3 },
    ];
    assert.deepEqual(
      byStart(ended).map((r) => r.id),
      ['r1', 'r2', 'r3'],
    );
  });
});
