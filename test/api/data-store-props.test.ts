// `data_store` props: components share an account-level store through its async API, and what
// they write is what the /v1/data_stores API shows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';

/** Exercises every data store method on each run (written for this test). */
const STORE_USER = `
export default {
  name: "Store user",
  version: "0.0.1",
  props: { store: { type: "data_store", label: "Cache" } },
  async run() {
    const store = this.store;
    const seen = (await store.get("visits")) ?? 0;
    await store.set("visits", seen + 1);
    await store.set("short-lived", { x: 1 }, { ttl: 3600 });
    await store.setTtl("short-lived", null);
    const entries = [];
    for await (const [key, value] of store) entries.push([key, value]);
    this.$emit({
      seen,
      fromApi: await store.get("from-api"),
      has: await store.has("visits"),
      missing: (await store.get("nope")) === undefined,
      keys: (await store.keys()).sort(),
      entries: entries.sort(),
      deleted: await store.delete("short-lived"),
    });
  },
};`;

describe('data_store props', () => {
  let spout: SpoutProcess;
  let storeId: string;
  before(async () => {
    spout = await startSpout();
    storeId = (await spout.api('POST', '/v1/data_stores', { name: 'Shared cache' })).json.data.id;
  });
  after(async () => void (await spout.stop()));

  const runOnce = async (id: string) => {
    const run = await spout.api('POST', `/v1/sources/${id}/run`);
    assert.equal(run.json.data.error, null, JSON.stringify(run.json));
    return (await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=1`)).json.data[0].event;
  };

  it('gives components the async store API on a store shared with other sources and the API', async () => {
    await spout.api('PUT', `/v1/data_stores/${storeId}/records/from-api`, { value: { hello: 'world' } });
    const deploy = () => spout.api('POST', '/v1/sources', { component_code: STORE_USER, configured_props: { store: { dataStore: storeId } } });
    const a = (await deploy()).json.data.id as string;
    const b = (await deploy()).json.data.id as string;
    const first = await runOnce(a);
    assert.deepEqual(first, {
      seen: 0,
      fromApi: { hello: 'world' },
      has: true,
      missing: true,
      keys: ['from-api', 'short-lived', 'visits'],
      entries: [
        ['from-api', { hello: 'world' }],
        ['short-lived', { x: 1 }],
        ['visits', 1],
      ],
      deleted: true,
    });
    assert.equal((await runOnce(b)).seen, 1, 'a second source sees what the first wrote');
    const record = await spout.api('GET', `/v1/data_stores/${storeId}/records/visits`);
    assert.equal(record.json.data.value, 2);
    assert.equal((await spout.api('GET', `/v1/data_stores/${storeId}/records/short-lived`)).status, 404);

    const inUse = await spout.api('DELETE', `/v1/data_stores/${storeId}`);
    assert.equal(inUse.status, 409, 'a store a source uses cannot be deleted');
  });

  it('checks the configured store and reports store errors inside the run', async () => {
    const missing = await spout.api('POST', '/v1/sources', { component_code: STORE_USER });
    assert.equal(missing.status, 400);
    assert.match(missing.json.error, /prop `store` is required; give it \{"dataStore": "ds_…"\}/);
    const unknown = await spout.api('POST', '/v1/sources', { component_code: STORE_USER, configured_props: { store: { dataStore: 'ds_nope' } } });
    assert.equal(unknown.status, 400);
    assert.match(unknown.json.error, /prop `store`: no data store ds_nope/);

    const bad = `export default { name: "Bad store use", version: "0.0.1", props: { store: "data_store" },
      async run() { await this.store.set("fn", () => 1); } };`;
    const id = (await spout.api('POST', '/v1/sources', { component_code: bad, configured_props: { store: { dataStore: storeId } } })).json.data.id as string;
    const run = await spout.api('POST', `/v1/sources/${id}/run`);
    assert.match(run.json.data.error.message, /data store set\("fn"\): a function cannot be stored/);
  });
});
