// /v1/data_stores end to end against the real service: stores, records, TTLs, errors, restarts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';

describe('data stores API', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout?.stop()));

  /** Creates a store and returns its id. */
  const create = async (name: string): Promise<string> => {
    const res = await spout.api('POST', '/v1/data_stores', { name });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json.data.id as string;
  };

  it('creates, reads, lists (paginated), renames and deletes stores', async () => {
    const created = await spout.api('POST', '/v1/data_stores', { name: 'Orders cache' });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const store = created.json.data;
    assert.match(store.id, /^ds_/);
    assert.equal(store.name, 'Orders cache');
    assert.equal(store.record_count, 0);
    assert.ok(Math.abs(store.created_at - Date.now() / 1000) < 60, 'created_at is epoch seconds');
    assert.deepEqual((await spout.api('GET', `/v1/data_stores/${store.id}`)).json.data, store);

    const more = [await create('two'), await create('three')];
    const first = await spout.api('GET', '/v1/data_stores?limit=2');
    assert.equal(first.status, 200);
    assert.equal(first.json.page_info.count, 2);
    assert.ok(first.json.page_info.total_count >= 3);
    const next = await spout.api('GET', `/v1/data_stores?limit=2&before=${first.json.page_info.end_cursor}`);
    const seen = [...first.json.data, ...next.json.data].map((s: { id: string }) => s.id);
    for (const id of [store.id, ...more]) assert.ok(seen.includes(id), `${id} is listed`);
    assert.equal(seen.indexOf(more[1]!) < seen.indexOf(store.id), true, 'newest first');

    const renamed = await spout.api('PUT', `/v1/data_stores/${store.id}`, { name: 'Orders' });
    assert.equal(renamed.json.data.name, 'Orders');

    assert.equal((await spout.api('DELETE', `/v1/data_stores/${more[0]}`)).status, 204);
    const gone = await spout.api('GET', `/v1/data_stores/${more[0]}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.json.error, `data store ${more[0]} was not found`);
    assert.equal((await spout.api('DELETE', `/v1/data_stores/${more[0]}`)).status, 404);
  });

  it('answers 400 for bad input and 404 for unknown stores and keys', async () => {
    const noName = await spout.api('POST', '/v1/data_stores', {});
    assert.equal(noName.status, 400);
    assert.match(noName.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.match(noName.json.error, /^name: /);
    assert.equal((await spout.api('POST', '/v1/data_stores', { name: '   ' })).status, 400);

    const unknown = await spout.api('PUT', '/v1/data_stores/ds_nope/records/k', { value: 1 });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error, 'data store ds_nope was not found');
    assert.equal((await spout.api('GET', '/v1/data_stores/ds_nope/records')).status, 404);

    const id = await create('errors');
    const missing = await spout.api('GET', `/v1/data_stores/${id}/records/nothing-here`);
    assert.equal(missing.status, 404);
    assert.match(missing.json.error, /no record with key "nothing-here"/);
    assert.equal((await spout.api('DELETE', `/v1/data_stores/${id}/records/nothing-here`)).status, 404);

    const noValue = await spout.api('PUT', `/v1/data_stores/${id}/records/k`, { ttl: 5 });
    assert.equal(noValue.status, 400);
    assert.match(noValue.json.error, /value is required/);
    const badTtl = await spout.api('PUT', `/v1/data_stores/${id}/records/k`, { value: 1, ttl: -5 });
    assert.equal(badTtl.status, 400);
    assert.match(badTtl.json.error, /ttl of key "k" must be a positive number of seconds/);
    const textTtl = await spout.api('PUT', `/v1/data_stores/${id}/records/k`, { value: 1, ttl: 'soon' });
    assert.equal(textTtl.status, 400);
    assert.match(textTtl.json.error, /^ttl: /);
    const tooBig = await spout.api('PUT', `/v1/data_stores/${id}/records/big`, { value: 'x'.repeat(1024 * 1024 + 1) });
    assert.equal(tooBig.status, 400);
    assert.match(tooBig.json.error, /key "big" is \d+ bytes as JSON; the limit is 1048576 bytes \(1 MB\) per value/);
    assert.equal((await spout.api('GET', `/v1/data_stores/${id}/records?limit=500`)).status, 400);
    assert.equal((await spout.api('GET', `/v1/data_stores/${id}`)).json.data.record_count, 0, 'nothing was stored');
  });

  it('puts, reads, lists, deletes and clears records; keys may hold slashes and spaces', async () => {
    const id = await create('records');
    const put = await spout.api('PUT', `/v1/data_stores/${id}/records/order-1`, { value: { total: 12.5, items: ['a', 'b'] } });
    assert.equal(put.status, 200, JSON.stringify(put.json));
    assert.deepEqual(put.json.data, { key: 'order-1', value: { total: 12.5, items: ['a', 'b'] }, expires_at: null });
    const withTtl = await spout.api('PUT', `/v1/data_stores/${id}/records/session`, { value: 'abc', ttl: 60 });
    assert.ok(Math.abs(withTtl.json.data.expires_at - (Date.now() / 1000 + 60)) < 5, 'expires_at is epoch seconds');
    await spout.api('PUT', `/v1/data_stores/${id}/records/a/b`, { value: 'slash' });
    await spout.api('PUT', `/v1/data_stores/${id}/records/${encodeURIComponent('with space')}`, { value: null });

    assert.deepEqual((await spout.api('GET', `/v1/data_stores/${id}/records/a/b`)).json.data.value, 'slash');
    assert.deepEqual((await spout.api('GET', `/v1/data_stores/${id}/records/a%2Fb`)).json.data.value, 'slash');
    const nullValue = await spout.api('GET', `/v1/data_stores/${id}/records/with%20space`);
    assert.equal(nullValue.status, 200, 'null is a value');
    assert.equal(nullValue.json.data.value, null);

    // Sorted by key; the end cursor pages on, even once that key is deleted.
    const page1 = await spout.api('GET', `/v1/data_stores/${id}/records?limit=2`);
    assert.deepEqual(
      page1.json.data.map((r: { key: string }) => r.key),
      ['a/b', 'order-1'],
    );
    assert.equal(page1.json.page_info.total_count, 4);
    assert.equal((await spout.api('DELETE', `/v1/data_stores/${id}/records/order-1`)).status, 204);
    const page2 = await spout.api('GET', `/v1/data_stores/${id}/records?limit=2&before=${encodeURIComponent(page1.json.page_info.end_cursor)}`);
    assert.deepEqual(
      page2.json.data.map((r: { key: string }) => r.key),
      ['session', 'with space'],
    );
    const back = await spout.api('GET', `/v1/data_stores/${id}/records?limit=1&after=session`);
    assert.deepEqual(
      back.json.data.map((r: { key: string }) => r.key),
      ['a/b'],
    );
    assert.equal((await spout.api('GET', `/v1/data_stores/${id}`)).json.data.record_count, 3);

    assert.equal((await spout.api('DELETE', `/v1/data_stores/${id}/records`)).status, 204);
    assert.equal((await spout.api('GET', `/v1/data_stores/${id}/records`)).json.page_info.total_count, 0);
  });

  it('expires records after their TTL', async () => {
    const id = await create('ttl');
    await spout.api('PUT', `/v1/data_stores/${id}/records/blink`, { value: 1, ttl: 0.05 });
    await spout.api('PUT', `/v1/data_stores/${id}/records/stays`, { value: 2 });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await spout.api('GET', `/v1/data_stores/${id}/records/blink`)).status, 404);
    assert.deepEqual(
      (await spout.api('GET', `/v1/data_stores/${id}/records`)).json.data.map((r: { key: string }) => r.key),
      ['stays'],
    );
  });

  it('keeps stores and records across a restart on the same data dir', async () => {
    const id = await create('durable');
    await spout.api('PUT', `/v1/data_stores/${id}/records/counter`, { value: 41 });
    await spout.api('PUT', `/v1/data_stores/${id}/records/counter`, { value: 42 });
    await spout.api('PUT', `/v1/data_stores/${id}/records/cached`, { value: { v: true }, ttl: 3600 });
    await spout.api('PUT', `/v1/data_stores/${id}/records/dropped`, { value: 'x' });
    await spout.api('DELETE', `/v1/data_stores/${id}/records/dropped`);
    const before = (await spout.api('GET', `/v1/data_stores/${id}/records`)).json;

    assert.equal(await spout.stop(), 0);
    spout = await startSpout({ dataDir: spout.dataDir });
    const store = await spout.api('GET', `/v1/data_stores/${id}`);
    assert.equal(store.status, 200);
    assert.equal(store.json.data.name, 'durable');
    assert.deepEqual((await spout.api('GET', `/v1/data_stores/${id}/records`)).json, before);
    assert.equal((await spout.api('GET', `/v1/data_stores/${id}/records/counter`)).json.data.value, 42);
    assert.equal((await spout.api('GET', `/v1/data_stores/${id}/records/dropped`)).status, 404);
  });

  it('keeps a record written just before a kill -9', async () => {
    const id = await create('crash');
    const put = await spout.api('PUT', `/v1/data_stores/${id}/records/acked`, { value: 'durable once answered' });
    assert.equal(put.status, 200);
    await spout.kill();
    spout = await startSpout({ dataDir: spout.dataDir });
    assert.equal((await spout.api('GET', `/v1/data_stores/${id}/records/acked`)).json.data.value, 'durable once answered');
  });
});
