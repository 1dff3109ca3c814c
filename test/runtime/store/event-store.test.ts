import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { listenersFor } from '../../../runtime/engine/events/routing';
import { compareEventIds, EventIdClock } from '../../../runtime/store/event-id';
import { type EventMeta, EventStore, eventLine, type StoredEvent } from '../../../runtime/store/event-store';

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'spout-events-'));
const ev = (n: number, name: string | null = null) => ({ json: JSON.stringify({ n }), meta: { name, summary: null, ts: n } });

describe('event ids', () => {
  it('increase strictly within a millisecond and when the clock steps back', () => {
    const clock = new EventIdClock();
    const ids = [clock.next(1000).id, clock.next(1000).id, clock.next(999).id, clock.next(1001).id];
    assert.deepEqual(ids, ['1000-0', '1000-1', '1000-2', '1001-0']);
    for (let i = 1; i < ids.length; i++) assert.ok(compareEventIds(ids[i - 1]!, ids[i]!) < 0);
  });
});

describe('eventLine', () => {
  /** The line as a generic JSON.stringify of the same fields writes it. */
  const generic = (e: StoredEvent) => JSON.stringify({ id: e.id, indexed_at_ms: e.indexed_at_ms, emitter_id: e.emitter_id, meta: e.meta, ...(e.deliver_to?.length ? { to: e.deliver_to } : {}), event: JSON.parse(e.json) });
  /** A meta with its keys in the order `EventStore.append` gives them. */
  const inAppendOrder = ({ id, name, summary, ts, invocation_id, emit_id }: Record<string, unknown>) => ({ id, name, summary, ts, ...(invocation_id === undefined ? {} : { invocation_id }), emit_id }) as EventMeta;
  const event = (meta: Record<string, unknown>, deliver_to?: string[]): StoredEvent => ({
    id: '1764054000000-7',
    indexed_at_ms: 1764054000000,
    emitter_id: 'dc_abc',
    json: JSON.stringify({ text: 'a "quoted" \\ line\u2028', n: [1, 2.5, null] }),
    meta: inAppendOrder({ id: '1764054000000-7', name: null, summary: null, ts: 1764054000000, emit_id: '1764054000000-7', ...meta }),
    ...(deliver_to ? { deliver_to } : {}),
  });

  it('writes what JSON.stringify writes, for every kind of meta value', () => {
    const metas: Array<Record<string, unknown>> = [
      {},
      { id: 42, name: 'orders', summary: 'New order #1' },
      { id: -0, ts: 1.5e21 },
      { id: 'dé"dupe\\\n', name: '\u0000ctrl\t', summary: 'lone \ud800 surrogate, emoji 😀' },
      { id: Number.NaN, ts: Number.POSITIVE_INFINITY },
      { invocation_id: 'inv_0123456789abcdef' },
    ];
    for (const meta of metas) {
      for (const to of [undefined, [], ['wh_a', 'wh_"b']]) {
        const e = event(meta, to);
        assert.equal(eventLine(e), generic(e), JSON.stringify(meta));
      }
    }
  });

  it('falls back to JSON.stringify for a meta of another shape', () => {
    for (const meta of [{ name: undefined }, { summary: 7 }, { ts: '5' }, { invocation_id: null }, { id: { nested: true } }]) {
      const e = event(meta);
      assert.equal(eventLine(e), generic(e), JSON.stringify(meta));
    }
  });
});

describe('EventStore', () => {
  it('keeps events across a reopen, newest first, with cursors and channel filter', async () => {
    const d = dir();
    const store = new EventStore(d, 100);
    await store.openSource('dc_a');
    const { stored, durable } = store.append('dc_a', [ev(1), ev(2, 'alerts'), ev(3)], 5000);
    await durable;
    assert.equal(stored[0]!.meta.id, stored[0]!.id, 'without an id the event id is used');
    await store.close();

    const again = new EventStore(d, 100);
    await again.openSource('dc_a');
    const all = again.list('dc_a');
    assert.deepEqual(
      all.map((e) => JSON.parse(e.json).n),
      [3, 2, 1],
    );
    assert.deepEqual(
      again.list('dc_a', { before: all[0]!.id }).map((e) => JSON.parse(e.json).n),
      [2, 1],
    );
    assert.deepEqual(
      again.list('dc_a', { after: all[2]!.id }).map((e) => JSON.parse(e.json).n),
      [3, 2],
    );
    assert.deepEqual(
      again.list('dc_a', { eventName: 'alerts' }).map((e) => JSON.parse(e.json).n),
      [2],
    );
    // New ids continue after the stored ones.
    const next = again.append('dc_a', [ev(4)], 5000);
    await next.durable;
    assert.ok(compareEventIds(next.stored[0]!.id, all[0]!.id) > 0);
    await again.close();
  });

  it('keeps only the retention limit, in memory and on disk', async () => {
    const d = dir();
    const store = new EventStore(d, 10);
    await store.openSource('dc_b');
    for (let i = 0; i < 100; i++) await store.append('dc_b', [ev(i)]).durable;
    await store.close();
    const lines = fs.readFileSync(path.join(d, 'dc_b.jsonl'), 'utf8').trim().split('\n').length;
    assert.ok(lines <= 2 * 10 + 1 + 1, `compacted file has ${lines} lines`);
    const again = new EventStore(d, 10);
    await again.openSource('dc_b');
    assert.deepEqual(
      again.list('dc_b').map((e) => JSON.parse(e.json).n),
      [99, 98, 97, 96, 95, 94, 93, 92, 91, 90],
    );
    await again.close();
  });
});

describe('EventStore, events kept as lines', () => {
  const text = (n: number, summary: string | null = null) => ({ json: JSON.stringify({ n, text: `ünï ${'x'.repeat(n * 29)}` }), meta: { name: null, summary, ts: n } });

  it('reads back what was appended, pages and searches it, and keeps the same after trimming, compaction and a restart', async () => {
    const d = dir();
    const store = new EventStore(d, 40);
    await store.openSource('dc_a');
    const appended = [];
    for (let n = 0; n < 130; n++) {
      const { stored, durable } = store.append('dc_a', [text(n)]);
      await durable;
      appended.push(...stored);
    }
    const newest = appended[appended.length - 1]!;
    assert.deepEqual(store.find('dc_a', newest.id), newest, 'an event reads back as it was stored');
    assert.equal(store.find('dc_a', appended[0]!.id), undefined, 'events past the retention are forgotten');
    const page = store.page('dc_a', {}, { limit: 2, before: newest.id }, (e) => JSON.parse(e.json).n);
    assert.deepEqual(page.data, [128, 127]);
    assert.equal(page.page_info.total_count, store.kept('dc_a').length);
    assert.deepEqual(store.list('dc_a', { q: 'ÜNÏ X' }).length, store.kept('dc_a').length, 'a search that JSON would not escape the same way still finds');
    assert.deepEqual(
      store.list('dc_a', { q: String(newest.meta.id) }).map((e) => e.id),
      [newest.id],
      'a search by id',
    );
    const kept = store.list('dc_a');
    await store.close();
    const lines = fs.readFileSync(path.join(d, 'dc_a.jsonl'), 'utf8').trim().split('\n');
    assert.ok(lines.length < 130, `compacted to ${lines.length} lines`);
    const again = new EventStore(d, 40);
    await again.openSource('dc_a');
    assert.deepEqual(again.list('dc_a'), kept);
    await again.close();
  });

  it('finds a summary with quotes in it, and deletes a range, keeping the rest readable after a restart', async () => {
    const d = dir();
    const store = new EventStore(d, 100);
    await store.openSource('dc_q');
    const { stored, durable } = store.append('dc_q', [text(1, 'Say "hi"'), text(2), text(3, 'Bye'), text(4)]);
    await durable;
    assert.deepEqual(
      store.list('dc_q', { q: 'say "HI"' }).map((e) => e.id),
      [stored[0]!.id],
    );
    assert.deepEqual(
      store.list('dc_q', { q: 'bye' }).map((e) => e.id),
      [stored[2]!.id],
    );
    assert.equal(await store.delete('dc_q', { startId: stored[1]!.id, endId: stored[2]!.id }), 2);
    assert.deepEqual(
      store.list('dc_q').map((e) => JSON.parse(e.json).n),
      [4, 1],
    );
    store.append('dc_q', [text(5)]);
    await store.close();
    const again = new EventStore(d, 100);
    await again.openSource('dc_q');
    assert.deepEqual(
      again.list('dc_q').map((e) => JSON.parse(e.json).n),
      [5, 4, 1],
    );
    assert.deepEqual(again.find('dc_q', stored[0]!.id), stored[0]);
    await again.close();
  });
});

describe('EventStore, in two generations of files', () => {
  it('starts a new file once one holds the retention, never rewriting kept events, and a delete reaches both', async () => {
    const d = dir();
    const store = new EventStore(d, 10);
    await store.openSource('dc_g');
    const ids: string[] = [];
    for (let n = 0; n < 25; n++) {
      const { stored, durable } = store.append('dc_g', [ev(n)]);
      await durable;
      ids.push(stored[0]!.id);
    }
    const onDisk = (name: string) =>
      fs
        .readFileSync(path.join(d, name), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).event.n);
    assert.deepEqual(onDisk('dc_g.previous.jsonl'), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19], 'the previous generation holds the whole retention');
    assert.deepEqual(onDisk('dc_g.jsonl'), [20, 21, 22, 23, 24]);
    assert.equal(await store.delete('dc_g', { startId: ids[17], endId: ids[21] }), 5);
    await store.close();
    assert.equal(fs.existsSync(path.join(d, 'dc_g.previous.jsonl')), false, 'a delete leaves one file');
    const again = new EventStore(d, 10);
    await again.openSource('dc_g');
    // What memory kept (the retention and a tenth), less the deleted: 10 to 13 were past the retention.
    assert.deepEqual(
      again.list('dc_g').map((e) => JSON.parse(e.json).n),
      [24, 23, 22, 16, 15, 14],
    );
    await again.removeSource('dc_g');
    assert.deepEqual(fs.readdirSync(d), [], 'removing a source deletes both generations');
  });
});

describe('routing', () => {
  const sub = (emitter_id: string, listener_id: string, event_name: string | null = null) => ({ id: 'sub', emitter_id, listener_id, event_name, created_at: 0 });
  it('matches ids, the dc_* glob, and channels', () => {
    const subs = [sub('dc_a', 'wh_1'), sub('dc_*', 'wh_2'), sub('dc_a', 'wh_3', 'alerts'), sub('p_*', 'wh_4')];
    assert.deepEqual(listenersFor(subs, 'dc_a', null), ['wh_1', 'wh_2']);
    assert.deepEqual(listenersFor(subs, 'dc_b', null), ['wh_2']);
    assert.deepEqual(listenersFor(subs, 'dc_a', 'alerts'), ['wh_3']);
  });
});

describe('opening a source read a chunk at a time (issue 44)', () => {
  it('two opens of one source while its file is read share one reading: one log, no event twice', async () => {
    const d = dir();
    const first = new EventStore(d, 100_000);
    await first.openSource('dc_a');
    // Several chunks of file, so the reading yields between them and a second open arrives meanwhile.
    for (let i = 0; i < 30; i++)
      await first.append(
        'dc_a',
        Array.from({ length: 1000 }, (_, n) => ({ json: JSON.stringify({ n: i * 1000 + n, pad: 'x'.repeat(100) }), meta: { name: null, summary: null, ts: n } })),
      ).durable;
    await first.close();

    const second = new EventStore(d, 100_000);
    let readings = 0;
    second.onOpen(() => readings++);
    await Promise.all([second.openSource('dc_a'), second.openSource('dc_a')]);
    assert.equal(readings, 1, 'the file is read once');
    await second.append('dc_a', [ev(-1)]).durable;
    await second.close();

    const third = new EventStore(d, 100_000);
    await third.openSource('dc_a');
    const listed = third.list('dc_a').map((e) => JSON.parse(e.json).n as number);
    assert.equal(listed.length, 30_001);
    assert.equal(new Set(listed).size, 30_001, 'no event is listed twice');
    await third.close();
  });
});
