// Host side of `data_store` props: every operation is a call to the service, which holds the store
// (store/data-stores.ts) and lets a host reach only the stores it is configured with.
import type { DataStoreCall } from '../../contract/host-protocol';
import type { PropBinding } from '../shared/kind-interface';

/** `this.<data_store prop>`: the async store API registry components use (get, set, setTtl, has, keys, delete, clear, entries), on the configured store. */
export const bindDataStore: PropBinding = (name, _def, host) => {
  const configured = host.context.props[name] as { dataStore?: unknown } | undefined;
  const storeId = typeof configured?.dataStore === 'string' ? configured.dataStore : null;
  const call = (c: DataStoreCall) => (storeId ? host.call({ service: 'data_store', storeId, call: c }) : Promise.reject(new Error(`prop \`${name}\`: no data store is configured; set it to {"dataStore": "ds_…"} (POST /v1/data_stores creates one)`)));
  return {
    get: (key: string) => call({ op: 'get', key }),
    set: async (key: string, value: unknown, options?: { ttl?: number | null }) => call({ op: 'set', key, value: jsonValue(key, value), ttl: options?.ttl ?? null }),
    setTtl: (key: string, ttl: number | null) => call({ op: 'setTtl', key, ttl }),
    has: (key: string) => call({ op: 'has', key }),
    keys: () => call({ op: 'keys' }),
    delete: (key: string) => call({ op: 'delete', key }),
    clear: () => call({ op: 'clear' }),
    entries: () => call({ op: 'entries' }),
    async *[Symbol.asyncIterator]() {
      yield* (await call({ op: 'entries' })) as Array<[string, unknown]>;
    },
  };
};

/** A copy of the value through JSON, so what is stored is what a later `get` returns. */
function jsonValue(key: string, value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new TypeError(`data store set("${key}"): the value is not JSON-serialisable (${(err as Error).message})`);
  }
  if (text === undefined) throw new TypeError(`data store set("${key}"): a ${typeof value} cannot be stored; store JSON values`);
  return JSON.parse(text);
}
