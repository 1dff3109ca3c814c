import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { InvocationView } from '../../../runtime/contract/invocation-api';
import { baseRecord } from '../../../runtime/engine/invocations/invocation-record';
import { InvocationStore } from '../../../runtime/store/invocation-store';

const record = (n: number): InvocationView => ({
  ...baseRecord(`inv_${String(n).padStart(4, '0')}`, 'dc_a', n % 3 === 0 ? 'timer' : 'http', 1000 + n),
  status: n % 5 === 0 ? 'error' : 'ok',
  event: { n, text: `ünïcødé ${'x'.repeat(n * 37)}` },
});

describe('InvocationStore', () => {
  it('gives back the records it keeps, filters and pages them, and keeps the same after compaction and a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-runs-'));
    const store = new InvocationStore(dir, 40);
    // Built once: a record's duration reads the clock, so building it again could differ by a millisecond.
    const records = Array.from({ length: 130 }, (_, n) => record(n));
    for (const r of records) await store.add(r);
    const newest = records[129] as InvocationView;
    assert.deepEqual(store.get(newest.id), newest);
    assert.equal(store.get((records[0] as InvocationView).id), undefined, 'records past the retention are forgotten');
    const page = store.page('dc_a', { status: 'error', trigger: 'http' }, { limit: 3 });
    assert.deepEqual(
      page.data.map((r) => r.id),
      ['inv_0125', 'inv_0115', 'inv_0110'],
    );
    assert.deepEqual(store.page('dc_a', { q: 'ÜNÏCØDÉ' }, { limit: 1 }).data, [newest], 'the search sees the record as JSON, without regard to case');
    const kept = store.list('dc_a').map((k) => store.read(k));
    await store.close();
    // At twice the retention the file was compacted from the kept bytes: it holds what memory held.
    const lines = fs.readFileSync(path.join(dir, 'dc_a.jsonl'), 'utf8').trim().split('\n');
    assert.ok(lines.length < 130, `compacted to ${lines.length} lines`);
    const reopened = new InvocationStore(dir, 40);
    await reopened.openAll();
    assert.deepEqual(
      reopened.list('dc_a').map((k) => reopened.read(k)),
      kept,
    );
    assert.deepEqual(reopened.get(newest.id), newest);
    await reopened.close();
  });

  it('lists runs newest started first, though it keeps them in the order they ended, and after a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-runs-'));
    const store = new InvocationStore(dir, 40);
    // A long run (started at 1001) ends after two short ones that started later.
    const ended = [record(2), record(3), record(1), record(4)];
    for (const r of ended) await store.add(r);
    const ids = (s: InvocationStore) => s.list('dc_a').map((k) => k.id);
    assert.deepEqual(ids(store), ['inv_0004', 'inv_0003', 'inv_0002', 'inv_0001']);
    assert.deepEqual(
      store.page('dc_a', {}, { limit: 2, before: 'inv_0003' }).data.map((r) => r.id),
      ['inv_0002', 'inv_0001'],
    );
    // What a follower resumes from stays the order they ended.
    assert.deepEqual(
      store.keptOf('dc_a').map((k) => k.id),
      ['inv_0002', 'inv_0003', 'inv_0001', 'inv_0004'],
    );
    await store.close();
    const reopened = new InvocationStore(dir, 40);
    await reopened.openAll();
    assert.deepEqual(ids(reopened), ['inv_0004', 'inv_0003', 'inv_0002', 'inv_0001']);
    await reopened.close();
  });

  it('writes a run to its file before a list, a lookup or a follower shows it (issue 42: a kill -9 then keeps it)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-runs-'));
    const store = new InvocationStore(dir, 40);
    await store.open('dc_a');
    // Read in the same turn as the add: lines written only at the next turn would not be there yet.
    const onDisk = () => fs.readFileSync(path.join(dir, 'dc_a.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    const [first, second, third] = [record(1), record(2), record(3)];
    await store.add(first);
    assert.deepEqual(
      store.page('dc_a', {}, { limit: 10 }).data.map((r) => r.id),
      [first.id],
    );
    assert.equal(onDisk(), 1, 'a listed run is in its file');
    await store.add(second);
    assert.equal(store.get(second.id)?.id, second.id);
    assert.equal(onDisk(), 2, 'a run looked up is in its file');
    const seen: number[] = [];
    const stop = store.subscribe('dc_a', () => seen.push(onDisk()));
    await store.add(third);
    stop();
    assert.deepEqual(seen, [3], 'a follower hears of a run once it is in its file');
    await store.close();
  });
});
