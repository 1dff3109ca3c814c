// What a data store accepts: names, keys, values and TTLs within their limits, refused otherwise
// with a DataStoreError that names the store, the key and the limit.
import { DataStoreError } from '../lib/error-kinds';

/** Largest value, measured as its JSON text in UTF-8. */
export const MAX_VALUE_BYTES = 1024 * 1024;
/** Longest key, in characters. */
export const MAX_KEY_LENGTH = 1024;
/** Largest store (keys plus values as JSON): stores are kept in memory. */
export const MAX_STORE_BYTES = 64 * 1024 * 1024;
/** Longest TTL: one year, in seconds. */
export const MAX_TTL_SECONDS = 365 * 24 * 60 * 60;
/** Longest store name. */
export const MAX_NAME_LENGTH = 200;

/** A store name, trimmed; refused when empty or too long. */
export function checkName(name: unknown): string {
  const clean = typeof name === 'string' ? name.trim() : '';
  if (!clean) throw new DataStoreError(400, 'a data store needs a name: a non-empty string');
  if (clean.length > MAX_NAME_LENGTH) throw new DataStoreError(400, `a data store name is at most ${MAX_NAME_LENGTH} characters (got ${clean.length})`);
  return clean;
}

/** A key of store `storeId`; refused unless a non-empty string within MAX_KEY_LENGTH. */
export function checkKey(storeId: string, key: unknown): string {
  if (typeof key !== 'string' || key === '') {
    throw new DataStoreError(400, `data store ${storeId}: keys are non-empty strings (got ${describe(key)})`);
  }
  if (key.length > MAX_KEY_LENGTH) {
    throw new DataStoreError(400, `data store ${storeId}: key "${key.slice(0, 40)}…" is ${key.length} characters; the limit is ${MAX_KEY_LENGTH}`);
  }
  return key;
}

/** The JSON text of `value`; values JSON cannot represent, or larger than MAX_VALUE_BYTES, are refused, naming the key. */
export function toJson(storeId: string, key: string, value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (err) {
    throw new DataStoreError(400, `data store ${storeId}: the value of key "${key}" is not JSON-serialisable (${(err as Error).message}); store plain objects, arrays, strings, numbers, booleans or null`);
  }
  if (json === undefined) {
    throw new DataStoreError(400, `data store ${storeId}: the value of key "${key}" is ${describe(value)}, which JSON cannot hold; store plain objects, arrays, strings, numbers, booleans or null (delete the key to remove it)`);
  }
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_VALUE_BYTES) {
    throw new DataStoreError(400, `data store ${storeId}: the value of key "${key}" is ${bytes} bytes as JSON; the limit is ${sizeLimit(MAX_VALUE_BYTES)} per value`);
  }
  return json;
}

/** Epoch ms at which a record set at `now` with `ttl` seconds expires; null for none. Refuses a TTL that is not a positive number within a year. */
export function expiryOf(storeId: string, key: string, ttl: number | null | undefined, now: number): number | null {
  if (ttl === undefined || ttl === null) return null;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
    throw new DataStoreError(400, `data store ${storeId}: the ttl of key "${key}" must be a positive number of seconds, or null for none (got ${describe(ttl)})`);
  }
  if (ttl > MAX_TTL_SECONDS) {
    throw new DataStoreError(400, `data store ${storeId}: the ttl of key "${key}" is ${ttl} s; the limit is ${MAX_TTL_SECONDS} s (one year), or null for none`);
  }
  return now + Math.round(ttl * 1000);
}

/** Bytes a record counts toward MAX_STORE_BYTES: its key plus its value as JSON. */
export function recordSize(key: string, json: string): number {
  return Buffer.byteLength(key) + Buffer.byteLength(json);
}

/** A size limit in bytes and in MB, e.g. "1048576 bytes (1 MB)". */
export function sizeLimit(bytes: number): string {
  return `${bytes} bytes (${bytes / (1024 * 1024)} MB)`;
}

function describe(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'symbol') return 'a symbol';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return `a ${typeof v}`;
}
