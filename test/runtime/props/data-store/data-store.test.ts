// `data_store` props: configured with the id of an existing store; `this.<prop>` calls the service
// for every operation, on that store only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { bindDataStore } from '../../../../runtime/props/data-store/data-store-binding';
import { dataStoreKind } from '../../../../runtime/props/data-store/data-store-kind';
import { bindingHost, configure } from '../../../helpers/component-checks';

describe('data_store props: configured value', () => {
  const store: ConfigurableProp = { name: 'store', type: 'data_store' };
  const message = (value: unknown, prop = store) => configure(prop, value, { dataStores: ['ds_a'] }).problems.map((p) => p.message);

  it('keeps the id of an existing store', () => {
    assert.deepEqual(configure(store, { dataStore: 'ds_a', name: 'x' }, { dataStores: ['ds_a'] }), { values: { store: { dataStore: 'ds_a' } }, problems: [] });
  });

  it('requires a store unless optional, saying how to make one', () => {
    assert.deepEqual(message(undefined), ['prop `store` is required; give it {"dataStore": "ds_…"} (POST /v1/data_stores creates a store)']);
    assert.deepEqual(message(undefined, { ...store, optional: true }), []);
    assert.equal(dataStoreKind.askFor?.(store), 'choose a data store');
  });

  it('rejects a value that is not a store id, and a store that does not exist', () => {
    assert.deepEqual(message('ds_a'), ['prop `store` takes {"dataStore": "ds_…"}, the id of a data store, not "ds_a"']);
    assert.deepEqual(message({ dataStore: 'ds_gone' }), ['prop `store`: no data store ds_gone; create one with POST /v1/data_stores']);
  });
});

describe('data_store props: binding', () => {
  type Store = Record<string, (...args: unknown[]) => Promise<unknown>> & AsyncIterable<[string, unknown]>;

  it('sends each operation to the service for the configured store, values through JSON', async () => {
    const host = bindingHost({ props: { store: { dataStore: 'ds_a' } } }, [['k', 1]]);
    const bound = bindDataStore('store', { type: 'data_store' }, host) as Store;
    await bound.set!('k', { at: new Date(0) }, { ttl: 60 });
    await bound.get!('k');
    const seen: unknown[] = [];
    for await (const entry of bound) seen.push(entry);
    assert.deepEqual(seen, [['k', 1]]);
    assert.deepEqual(host.calls, [
      { service: 'data_store', storeId: 'ds_a', call: { op: 'set', key: 'k', value: { at: '1970-01-01T00:00:00.000Z' }, ttl: 60 } },
      { service: 'data_store', storeId: 'ds_a', call: { op: 'get', key: 'k' } },
      { service: 'data_store', storeId: 'ds_a', call: { op: 'entries' } },
    ]);
  });

  it('rejects operations when no store is configured, and values JSON cannot hold', async () => {
    const unconfigured = bindDataStore('store', { type: 'data_store' }, bindingHost()) as Store;
    await assert.rejects(unconfigured.get!('k'), /^Error: prop `store`: no data store is configured/);
    const bound = bindDataStore('store', { type: 'data_store' }, bindingHost({ props: { store: { dataStore: 'ds_a' } } })) as Store;
    await assert.rejects(
      bound.set!('k', () => 1),
      /a function cannot be stored; store JSON values/,
    );
  });
});
