// One call of a `data_store` prop's methods, as the sandbox bridge forwards it from a worker, and
// its execution on the service's stores. Input crosses a thread boundary from component code, so
// it is checked here rather than trusted.
import { z } from 'zod';
import { DataStoreError } from '../lib/error-kinds';
import type { DataStores } from './data-stores';

/** The operations a `data_store` prop offers (docs/runtime.md). */
export const DATA_STORE_OPS = ['get', 'set', 'setTtl', 'has', 'keys', 'delete', 'clear', 'entries'] as const;

/** Schema of one data store call. */
export const dataStoreOpSchema = z.object({
  op: z.enum(DATA_STORE_OPS),
  key: z.string().optional(),
  value: z.unknown().optional(),
  ttl: z.number().nullable().optional(),
});

/** One call a component makes on a `data_store` prop: `{op, key?, value?, ttl?}`. */
export type DataStoreOp = z.infer<typeof dataStoreOpSchema>;

/** Operations that act on one record and so need a key. */
const KEYED = new Set<DataStoreOp['op']>(['get', 'set', 'setTtl', 'has', 'delete']);

/**
 * Performs `op` on store `storeId` and resolves what the prop method returns: `get` the value
 * (undefined when absent), `set`/`clear` undefined, `setTtl`/`has`/`delete` a boolean, `keys` the
 * keys, `entries` `[key, value]` pairs. Throws an Error whose message is meant for the component's
 * author.
 */
export async function runDataStoreOp(stores: DataStores, storeId: string, op: DataStoreOp): Promise<unknown> {
  const parsed = dataStoreOpSchema.safeParse(op);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
    throw new DataStoreError(400, `data store ${storeId}: malformed call (${problems}); call get, set, setTtl, has, keys, delete, clear or entries`);
  }
  const call = parsed.data;
  const key = call.key;
  if (KEYED.has(call.op) && (key === undefined || key === '')) {
    throw new DataStoreError(400, `data store ${storeId}: ${call.op}() needs a key, a non-empty string`);
  }
  // The checks above make `key` a string for every keyed op.
  const k = key as string;
  switch (call.op) {
    case 'get':
      return stores.get(storeId, k);
    case 'set':
      if (!('value' in call) || call.value === undefined) {
        throw new DataStoreError(400, `data store ${storeId}: set("${k}") needs a value; to remove the key use delete("${k}")`);
      }
      await stores.set(storeId, k, call.value, { ttl: call.ttl ?? null });
      return undefined;
    case 'setTtl':
      if (call.ttl === undefined) {
        throw new DataStoreError(400, `data store ${storeId}: setTtl("${k}", ttl) needs ttl in seconds, or null to keep the record until it is deleted`);
      }
      return stores.setTtl(storeId, k, call.ttl);
    case 'has':
      return stores.has(storeId, k);
    case 'keys':
      return stores.keys(storeId);
    case 'delete':
      return stores.delete(storeId, k);
    case 'clear':
      await stores.clear(storeId);
      return undefined;
    case 'entries':
      return stores.entries(storeId);
  }
}
