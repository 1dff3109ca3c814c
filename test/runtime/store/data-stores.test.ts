import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, mock } from 'node:test';
import { DataStoreError } from '../../../runtime/lib/error-kinds';
import { runDataStoreOp } from '../../../runtime/store/data-store-ops';
import { MAX_VALUE_BYTES } from '../../../runtime/store/data-store-values';
import { DataStores } from '../../../runtime/store/data-stores';

const tmpDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-ds-')), 'data_stores');

/** A clock the test moves by hand. */
function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** Asserts `promise` rejects with a DataStoreError of `status` whose message matches `pattern`. */
async function rejects(promise: Promise<unknown>, status: number, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof DataStoreError, `expected a DataStoreError, got ${String(err)}`);
    assert.equal(err.status, status);
    assert.match(err.message, pattern);
    return true;
  });
}

describe('DataStores', () => {
  it('creates, lists, finds, renames and removes stores', async () => {
    const dir = tmpDir();
    const stores = new DataStores(dir);
    const a = await stores.create('first');
    const b = await stores.create('  second  ');
    assert.match(a.id, /^ds_[0-9A-Za-z]{14}$/);
    assert.equal(b.name, 'second', 'names are trimmed');
    assert.equal(typeof a.created_at, 'number');
    assert.deepEqual((await stores.list()).map((s) => s.id).sort(), [a.id, b.id].sort());
    assert.equal((await stores.rename(a.id, 'renamed')).name, 'renamed');
    assert.equal((await stores.find(a.id))?.name, 'renamed');
    await stores.set(b.id, 'k', 1);
    await stores.remove(b.id);
    assert.equal(await stores.find(b.id), undefined);
    assert.ok(!fs.existsSync(path.join(dir, `${b.id}.jsonl`)), 'its file is gone');
    await rejects(stores.get(b.id, 'k'), 404, new RegExp(`data store ${b.id} was not found`));
    await rejects(stores.remove(b.id), 404, /not found/);
    await rejects(stores.create(''), 400, /needs a name/);
    await rejects(stores.create('x'.repeat(201)), 400, /at most 200 characters/);
    await stores.close();
  });

  it('gets, sets, has, keys, entries, delete and clear', async () => {
    const stores = new DataStores(tmpDir());
    const { id } = await stores.create('kv');
    assert.equal(await stores.get(id, 'missing'), undefined);
    assert.equal(await stores.has(id, 'missing'), false);
    await stores.set(id, 'a', { n: 1, list: [1, 'two', null] });
    await stores.set(id, 'b', 'text');
    await stores.set(id, 'c', null);
    assert.deepEqual(await stores.get(id, 'a'), { n: 1, list: [1, 'two', null] });
    assert.equal(await stores.has(id, 'c'), true, 'null is a value, not absence');
    assert.deepEqual(await stores.keys(id), ['a', 'b', 'c']);
    assert.deepEqual(await stores.entries(id), [
      ['a', { n: 1, list: [1, 'two', null] }],
      ['b', 'text'],
      ['c', null],
    ]);
    await stores.set(id, 'a', 2);
    assert.deepEqual(await stores.keys(id), ['b', 'c', 'a'], 'a re-set key moves to the end');
    assert.equal(await stores.delete(id, 'b'), true);
    assert.equal(await stores.delete(id, 'b'), false);
    assert.equal(await stores.count(id), 2);
    await stores.clear(id);
    assert.deepEqual(await stores.keys(id), []);
    assert.deepEqual(await stores.entries(id), []);
    await stores.close();
  });

  it('returns copies: changing a read or written object does not change the store', async () => {
    const stores = new DataStores(tmpDir());
    const { id } = await stores.create('copies');
    const value = { n: 1 };
    await stores.set(id, 'k', value);
    value.n = 2;
    const read = (await stores.get(id, 'k')) as { n: number };
    read.n = 3;
    assert.deepEqual(await stores.get(id, 'k'), { n: 1 });
    await stores.close();
  });

  it('takes JSON values only, and names the key and the limit when refusing', async () => {
    const stores = new DataStores(tmpDir());
    const { id } = await stores.create('json');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await rejects(stores.set(id, 'loop', cyclic), 400, /key "loop" is not JSON-serialisable/);
    await rejects(stores.set(id, 'big', 10n), 400, /key "big" is not JSON-serialisable/);
    await rejects(
      stores.set(id, 'fn', () => 1),
      400,
      /key "fn" is a function, which JSON cannot hold/,
    );
    await rejects(stores.set(id, 'u', undefined), 400, /key "u" is undefined/);
    await rejects(stores.set(id, 'huge', 'x'.repeat(MAX_VALUE_BYTES)), 400, /key "huge" is 1048578 bytes as JSON; the limit is 1048576 bytes \(1 MB\) per value/);
    await rejects(stores.set(id, '', 1), 400, /keys are non-empty strings/);
    await rejects(stores.get(id, 42 as unknown as string), 400, /keys are non-empty strings \(got 42\)/);
    await rejects(stores.set(id, 'k'.repeat(1025), 1), 400, /the limit is 1024/);
    // A Date is stored as JSON stores it.
    await stores.set(id, 'when', new Date(0));
    assert.equal(await stores.get(id, 'when'), '1970-01-01T00:00:00.000Z');
    assert.deepEqual(await stores.keys(id), ['when'], 'refused values leave nothing behind');
    await stores.close();
  });

  it('expires records after their TTL, and setTtl changes or removes it', async () => {
    const c = clock();
    const stores = new DataStores(tmpDir(), { now: c.now });
    const { id } = await stores.create('ttl');
    await stores.set(id, 'short', 1, { ttl: 10 });
    await stores.set(id, 'long', 2, { ttl: 100 });
    await stores.set(id, 'forever', 3);
    assert.equal((await stores.record(id, 'short'))?.expiresAt, c.now() + 10_000);
    c.advance(9_999);
    assert.equal(await stores.get(id, 'short'), 1);
    c.advance(1);
    assert.equal(await stores.get(id, 'short'), undefined, 'expired at exactly its TTL');
    assert.equal(await stores.has(id, 'short'), false);
    assert.deepEqual(await stores.keys(id), ['long', 'forever']);

    assert.equal(await stores.setTtl(id, 'forever', 5), true);
    assert.equal(await stores.setTtl(id, 'long', null), true);
    assert.equal(await stores.setTtl(id, 'short', 5), false, 'an expired record cannot get a TTL');
    c.advance(5_000);
    assert.deepEqual(await stores.entries(id), [['long', 2]]);
    c.advance(365 * 24 * 3600 * 1000);
    assert.equal(await stores.get(id, 'long'), 2, 'null removed the TTL');

    await rejects(stores.set(id, 'k', 1, { ttl: 0 }), 400, /ttl of key "k" must be a positive number of seconds/);
    await rejects(stores.set(id, 'k', 1, { ttl: -1 }), 400, /positive number/);
    await rejects(stores.set(id, 'k', 1, { ttl: 366 * 24 * 3600 }), 400, /the limit is 31536000 s/);
    await rejects(stores.setTtl(id, 'long', Number.NaN), 400, /positive number of seconds/);
    await stores.close();
  });

  it('sweeps expired records from memory on a timer', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      const c = clock();
      const stores = new DataStores(tmpDir(), { now: c.now, sweepIntervalMs: 1000 });
      const { id } = await stores.create('sweep');
      await stores.set(id, 'a', 1, { ttl: 1 });
      await stores.set(id, 'b', 2);
      const internal = stores as unknown as { stores: Map<string, { records: Map<string, unknown> }> };
      const records = () => [...(internal.stores.get(id)?.records.keys() ?? [])];
      c.advance(2_000);
      assert.deepEqual(records(), ['a', 'b'], 'nothing read it yet');
      mock.timers.tick(1000);
      assert.deepEqual(records(), ['b'], 'the sweep dropped it');
      await stores.close();
    } finally {
      mock.timers.reset();
    }
  });

  it('keeps stores and records across a new instance on the same folder', async () => {
    const dir = tmpDir();
    const c = clock();
    const first = new DataStores(dir, { now: c.now });
    const kept = await first.create('kept');
    const other = await first.create('other');
    await first.set(kept.id, 'obj', { deep: { list: [1, 2, 3] } });
    await first.set(kept.id, 'gone', 'x');
    await first.set(kept.id, 'ttl', 't', { ttl: 60 });
    await first.set(kept.id, 'later', 'l', { ttl: 5 });
    await first.setTtl(kept.id, 'later', 600);
    await first.delete(kept.id, 'gone');
    await first.set(other.id, 'x', 1);
    await first.clear(other.id);
    await first.set(other.id, 'y', 2);
    await first.rename(other.id, 'other renamed');
    await first.close();

    const second = new DataStores(dir, { now: c.now });
    assert.deepEqual((await second.list()).map((s) => s.name).sort(), ['kept', 'other renamed']);
    assert.deepEqual(await second.entries(kept.id), [
      ['obj', { deep: { list: [1, 2, 3] } }],
      ['ttl', 't'],
      ['later', 'l'],
    ]);
    assert.deepEqual(await second.entries(other.id), [['y', 2]]);
    await second.close();

    c.advance(60_000);
    const third = new DataStores(dir, { now: c.now });
    assert.deepEqual(await third.keys(kept.id), ['obj', 'later'], 'expiry is kept as a time, not restarted');
    await third.close();
  });

  it('resolves writes once durable, coalescing many concurrent ones, and compacts the file', async () => {
    const dir = tmpDir();
    const stores = new DataStores(dir);
    const { id } = await stores.create('busy');
    await Promise.all(Array.from({ length: 500 }, (_, i) => stores.set(id, `k${i % 10}`, i)));
    await stores.close();
    const lines = fs
      .readFileSync(path.join(dir, `${id}.jsonl`), 'utf8')
      .trim()
      .split('\n');
    assert.ok(lines.length < 200, `compaction keeps the file short (${lines.length} lines)`);
    const again = new DataStores(dir);
    assert.deepEqual(
      await again.entries(id),
      Array.from({ length: 10 }, (_, i) => [`k${i}`, 490 + i]),
    );
    await again.close();
  });

  it('skips a damaged store file and removes an empty one left by a crashed create', async () => {
    const dir = tmpDir();
    const stores = new DataStores(dir);
    const good = await stores.create('good');
    await stores.set(good.id, 'k', 'v');
    await stores.close();
    fs.writeFileSync(path.join(dir, 'ds_empty0000000001.jsonl'), '');
    fs.writeFileSync(path.join(dir, 'ds_bad00000000001.jsonl'), '{"t":"set","k":"a","x":null,"v":1}\n');
    const errors = mock.method(console, 'error', () => {});
    try {
      const again = new DataStores(dir);
      assert.deepEqual(
        (await again.list()).map((s) => s.id),
        [good.id],
      );
      assert.equal(await again.get(good.id, 'k'), 'v');
      await again.close();
    } finally {
      errors.mock.restore();
    }
    assert.ok(!fs.existsSync(path.join(dir, 'ds_empty0000000001.jsonl')));
    assert.ok(fs.existsSync(path.join(dir, 'ds_bad00000000001.jsonl')), 'a damaged file is left for the user');
  });

  it('refuses calls once closed', async () => {
    const stores = new DataStores(tmpDir());
    const { id } = await stores.create('closing');
    await stores.close();
    await assert.rejects(stores.get(id, 'k'), /closed/);
  });
});

describe('runDataStoreOp', () => {
  it('performs each operation a data_store prop offers', async () => {
    const c = clock();
    const stores = new DataStores(tmpDir(), { now: c.now });
    const { id } = await stores.create('ops');
    assert.equal(await runDataStoreOp(stores, id, { op: 'set', key: 'a', value: { n: 1 }, ttl: null }), undefined);
    assert.equal(await runDataStoreOp(stores, id, { op: 'set', key: 'b', value: 2, ttl: 10 }), undefined);
    assert.deepEqual(await runDataStoreOp(stores, id, { op: 'get', key: 'a' }), { n: 1 });
    assert.equal(await runDataStoreOp(stores, id, { op: 'has', key: 'b' }), true);
    assert.deepEqual(await runDataStoreOp(stores, id, { op: 'keys' }), ['a', 'b']);
    assert.deepEqual(await runDataStoreOp(stores, id, { op: 'entries' }), [
      ['a', { n: 1 }],
      ['b', 2],
    ]);
    assert.equal(await runDataStoreOp(stores, id, { op: 'setTtl', key: 'a', ttl: 5 }), true);
    c.advance(5_000);
    assert.equal(await runDataStoreOp(stores, id, { op: 'get', key: 'a' }), undefined);
    assert.equal(await runDataStoreOp(stores, id, { op: 'delete', key: 'b' }), true);
    await runDataStoreOp(stores, id, { op: 'set', key: 'c', value: 'x' });
    assert.equal(await runDataStoreOp(stores, id, { op: 'clear' }), undefined);
    assert.deepEqual(await runDataStoreOp(stores, id, { op: 'keys' }), []);
    await stores.close();
  });

  it('throws messages for the component author on bad calls', async () => {
    const stores = new DataStores(tmpDir());
    const { id } = await stores.create('bad');
    await rejects(runDataStoreOp(stores, id, { op: 'get' }), 400, /get\(\) needs a key/);
    await rejects(runDataStoreOp(stores, id, { op: 'set', key: 'k' }), 400, /set\("k"\) needs a value; to remove the key use delete\("k"\)/);
    await rejects(runDataStoreOp(stores, id, { op: 'setTtl', key: 'k' }), 400, /setTtl\("k", ttl\) needs ttl in seconds, or null/);
    await rejects(runDataStoreOp(stores, id, { op: 'drop' } as never), 400, /malformed call \(op: .*\); call get, set/);
    await rejects(runDataStoreOp(stores, id, { op: 'get', key: 7 } as never), 400, /malformed call \(key: /);
    await rejects(runDataStoreOp(stores, 'ds_missing', { op: 'keys' }), 404, /data store ds_missing was not found; .*POST \/v1\/data_stores creates one/);
    await stores.close();
  });
});
