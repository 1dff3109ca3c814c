// Account-level data stores (`ds_…`): the key-value stores behind `data_store` props, shared by
// every component configured with one. Each store is an append log of its changes under
// `DATA_DIR/data_stores/<id>.jsonl`, replayed into memory when the stores open; group commit in
// the log coalesces concurrent writes, and compaction keeps the file near the size of what is live.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { newId } from '../lib/ids';
import { DataStoreError } from '../lib/error-kinds';
import { AppendLog } from '../lib/append-log';
import { makePrivateDir } from '../lib/private-files';

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

/** A data store as the API shows it. */
export interface DataStoreInfo {
  id: string;
  name: string;
  /** Epoch seconds. */
  created_at: number;
}

/** Options of `set`: `ttl` in seconds; absent or null keeps the record until it is deleted. */
export interface SetOptions {
  ttl?: number | null;
}

/** One line of a store's log. The first line names the store; later lines replay its changes. */
type Line =
  | { t: 'store'; id: string; name: string; created_ms: number }
  | { t: 'name'; name: string }
  | { t: 'set'; k: string; x: number | null; v: unknown }
  | { t: 'ttl'; k: string; x: number | null }
  | { t: 'del'; k: string }
  | { t: 'clear' };

interface Entry {
  /** The value's JSON text: every read parses a fresh copy, so callers cannot change what is stored. */
  json: string;
  /** Epoch ms after which the record reads as absent; null never expires. */
  expiresAt: number | null;
}

interface Store {
  id: string;
  name: string;
  createdMs: number;
  records: Map<string, Entry>;
  /** Keys plus values as JSON, in bytes, for the store limit. */
  bytes: number;
  log: AppendLog<Line>;
  /** Set when the store is removed or the stores close: its log is closed and takes no writes. */
  gone: boolean;
}

/** Options of `DataStores`, mostly for tests. */
export interface DataStoresOptions {
  /** The clock, epoch ms. Default `Date.now`. */
  now?: () => number;
  /** How often expired records are swept from memory. Default 60 s. */
  sweepIntervalMs?: number;
}

const FILE = /^ds_[0-9A-Za-z]+\.jsonl$/;
/** A log compacts once it holds this many lines more than twice its live records. */
const COMPACT_SLACK = 64;

/**
 * The data stores under one folder. Methods load the stores on first use (or call `open()` at
 * start); writes resolve once they are durable on disk.
 */
export class DataStores {
  private readonly stores = new Map<string, Store>();
  private loading: Promise<void> | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly now: () => number;
  private readonly sweepIntervalMs: number;

  constructor(
    readonly dir: string,
    options: DataStoresOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  }

  /** Loads every store and starts the expiry sweep; safe to call more than once. */
  open(): Promise<void> {
    if (this.closed) return Promise.reject(closedError(this.dir));
    return (this.loading ??= this.load());
  }

  /** Stops the sweep and closes every store once its pending writes are durable. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    // A load under way finishes first, so that no log it opens is left open.
    await this.loading?.catch(() => {});
    for (const store of this.stores.values()) store.gone = true;
    await Promise.all([...this.stores.values()].map((s) => s.log.close()));
    this.stores.clear();
  }

  // ---- store management ----

  /** Creates an empty store named `name`. */
  async create(name: string): Promise<DataStoreInfo> {
    await this.open();
    const clean = checkName(name);
    const id = newId('ds');
    const file = this.fileOf(id);
    const { log } = await AppendLog.open<Line>(file);
    const store: Store = { id, name: clean, createdMs: this.now(), records: new Map(), bytes: 0, log, gone: false };
    try {
      await log.append({ t: 'store', id, name: clean, created_ms: store.createdMs });
      // The file is new: its directory entry must be durable too.
      await syncDir(this.dir);
    } catch (err) {
      await log.close().catch(() => {});
      await fsp.rm(file, { force: true });
      throw err;
    }
    if (this.closed) {
      // Closed while creating: the caller never learns the id, so the store must not linger.
      await log.close();
      await fsp.rm(file, { force: true });
      throw closedError(this.dir);
    }
    this.stores.set(id, store);
    return info(store);
  }

  /** Every store, newest first. */
  async list(): Promise<DataStoreInfo[]> {
    await this.open();
    return [...this.stores.values()].sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? 1 : -1)).map(info);
  }

  /** The store `id`, or undefined. */
  /** Whether a store exists (once opened), for synchronous checks of configured values. */
  exists(id: string): boolean {
    return this.stores.has(id);
  }

  async find(id: string): Promise<DataStoreInfo | undefined> {
    await this.open();
    const store = this.stores.get(id);
    return store && info(store);
  }

  /** Number of live (unexpired) records in store `id`. */
  async count(id: string): Promise<number> {
    const store = await this.store(id);
    this.purge(store);
    return store.records.size;
  }

  /** Renames store `id`. */
  async rename(id: string, name: string): Promise<DataStoreInfo> {
    const store = await this.store(id);
    const clean = checkName(name);
    if (clean !== store.name) {
      store.name = clean;
      await this.write(store, [JSON.stringify({ t: 'name', name: clean } satisfies Line)]);
    }
    return info(store);
  }

  /** Deletes store `id` and its records, from memory and disk. */
  async remove(id: string): Promise<void> {
    const store = await this.store(id);
    // Two removes may both have looked it up: the log must be closed once.
    if (store.gone) throw notFoundError(id);
    this.stores.delete(id);
    store.gone = true;
    await store.log.close();
    await fsp.rm(store.log.file, { force: true });
    await syncDir(this.dir);
  }

  // ---- records: what a `data_store` prop exposes ----

  /** The value at `key`, or undefined when there is none (or it expired). */
  async get(id: string, key: string): Promise<unknown> {
    const store = await this.store(id);
    const entry = this.live(store, checkKey(store, key));
    return entry ? (JSON.parse(entry.json) as unknown) : undefined;
  }

  /** Stores `value` (any JSON value) at `key`, replacing what was there; `ttl` in seconds. */
  async set(id: string, key: string, value: unknown, options: SetOptions = {}): Promise<void> {
    const store = await this.store(id);
    checkKey(store, key);
    const json = toJson(store, key, value);
    const expiresAt = this.expiry(store, key, options.ttl);
    const old = this.live(store, key);
    const bytes = store.bytes - (old ? size(key, old.json) : 0) + size(key, json);
    if (bytes > MAX_STORE_BYTES) {
      throw new DataStoreError(400, `data store ${store.id}: setting key "${key}" would make the store ${bytes} bytes; the limit is ${limit(MAX_STORE_BYTES)} per store (delete records or use another store)`);
    }
    store.records.delete(key); // a re-set key moves to the end, as the log replays it
    store.records.set(key, { json, expiresAt });
    store.bytes = bytes;
    await this.write(store, [setLine(key, expiresAt, json)]);
  }

  /**
   * Gives the record at `key` a new TTL in seconds from now, or none with null. Resolves false
   * when there is no such record.
   */
  async setTtl(id: string, key: string, ttl: number | null): Promise<boolean> {
    const store = await this.store(id);
    checkKey(store, key);
    if (ttl === undefined) throw new DataStoreError(400, `data store ${store.id}: setTtl("${key}") needs a ttl in seconds, or null to keep the record until it is deleted`);
    const expiresAt = this.expiry(store, key, ttl);
    const entry = this.live(store, key);
    if (!entry) return false;
    entry.expiresAt = expiresAt;
    await this.write(store, [JSON.stringify({ t: 'ttl', k: key, x: expiresAt } satisfies Line)]);
    return true;
  }

  /** Whether there is a live record at `key`. */
  async has(id: string, key: string): Promise<boolean> {
    const store = await this.store(id);
    return this.live(store, checkKey(store, key)) !== undefined;
  }

  /** The keys of the live records, oldest write first. */
  async keys(id: string): Promise<string[]> {
    const store = await this.store(id);
    this.purge(store);
    return [...store.records.keys()];
  }

  /** `[key, value]` of every live record, oldest write first. */
  async entries(id: string): Promise<Array<[string, unknown]>> {
    const store = await this.store(id);
    this.purge(store);
    return [...store.records].map(([key, entry]) => [key, JSON.parse(entry.json) as unknown]);
  }

  /**
   * Live records with their expiry (epoch ms, or null), for the API's listing; `key` order is
   * the caller's to choose.
   */
  async records(id: string): Promise<Array<{ key: string; value: unknown; expiresAt: number | null }>> {
    const store = await this.store(id);
    this.purge(store);
    return [...store.records].map(([key, e]) => ({ key, value: JSON.parse(e.json) as unknown, expiresAt: e.expiresAt }));
  }

  /** The live record at `key` with its expiry (epoch ms, or null), or undefined. */
  async record(id: string, key: string): Promise<{ key: string; value: unknown; expiresAt: number | null } | undefined> {
    const store = await this.store(id);
    const entry = this.live(store, checkKey(store, key));
    return entry && { key, value: JSON.parse(entry.json) as unknown, expiresAt: entry.expiresAt };
  }

  /** Deletes the record at `key`; resolves whether there was a live one. */
  async delete(id: string, key: string): Promise<boolean> {
    const store = await this.store(id);
    const entry = this.live(store, checkKey(store, key));
    if (!entry) return false;
    this.drop(store, key, entry);
    await this.write(store, [JSON.stringify({ t: 'del', k: key } satisfies Line)]);
    return true;
  }

  /** Deletes every record of store `id`. */
  async clear(id: string): Promise<void> {
    const store = await this.store(id);
    if (store.records.size === 0) return;
    store.records.clear();
    store.bytes = 0;
    await this.write(store, [JSON.stringify({ t: 'clear' } satisfies Line)]);
  }

  /** Drops expired records of every store from memory (the periodic sweep; tests call it). */
  sweep(): void {
    for (const store of this.stores.values()) {
      this.purge(store);
      this.maybeCompact(store);
    }
  }

  // ---- internals ----

  private async load(): Promise<void> {
    makePrivateDir(this.dir);
    const names = (await fsp.readdir(this.dir)).filter((n) => FILE.test(n));
    await Promise.all(names.map((n) => this.loadStore(path.join(this.dir, n))));
    if (this.closed) {
      // Closed while loading: close() waits for this, then closes what was opened.
      return;
    }
    this.sweeper = setInterval(() => this.sweep(), this.sweepIntervalMs);
    // The sweep only frees memory: it must not keep the process alive.
    this.sweeper.unref();
  }

  private async loadStore(file: string): Promise<void> {
    let opened: { log: AppendLog<Line>; records: Line[] };
    try {
      opened = await AppendLog.open<Line>(file);
    } catch (err) {
      // One damaged store must not keep the service (and the other stores) from starting.
      console.error(`data store file ${file} cannot be read (${(err as Error).message}); it is skipped and left as it is`);
      return;
    }
    const { log, records: lines } = opened;
    const head = lines[0];
    if (!head) {
      // A create that crashed before its first line was durable: the store was never returned.
      await log.close();
      await fsp.rm(file, { force: true });
      return;
    }
    if (head.t !== 'store') {
      await log.close();
      console.error(`data store file ${file} does not start with its store line; it is skipped and left as it is`);
      return;
    }
    const store: Store = { id: head.id, name: head.name, createdMs: head.created_ms, records: new Map(), bytes: 0, log, gone: false };
    for (const line of lines.slice(1)) replay(store, line);
    const now = this.now();
    for (const [key, entry] of store.records) if (entry.expiresAt !== null && entry.expiresAt <= now) store.records.delete(key);
    for (const [key, entry] of store.records) store.bytes += size(key, entry.json);
    this.stores.set(store.id, store);
    this.maybeCompact(store);
  }

  private async store(id: string): Promise<Store> {
    await this.open();
    const store = this.stores.get(id);
    if (!store) throw notFoundError(id);
    return store;
  }

  /** The entry at `key` unless it expired; an expired one is dropped on the way. */
  private live(store: Store, key: string): Entry | undefined {
    const entry = store.records.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= this.now()) {
      // Expiry needs no log line: the expiry time is in the log, and replay drops it again.
      this.drop(store, key, entry);
      return undefined;
    }
    return entry;
  }

  private purge(store: Store): void {
    const now = this.now();
    for (const [key, entry] of store.records) if (entry.expiresAt !== null && entry.expiresAt <= now) this.drop(store, key, entry);
  }

  private drop(store: Store, key: string, entry: Entry): void {
    store.records.delete(key);
    store.bytes -= size(key, entry.json);
  }

  /** Epoch ms of a record set now with `ttl` seconds; null for none. */
  private expiry(store: Store, key: string, ttl: number | null | undefined): number | null {
    if (ttl === undefined || ttl === null) return null;
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
      throw new DataStoreError(400, `data store ${store.id}: the ttl of key "${key}" must be a positive number of seconds, or null for none (got ${describe(ttl)})`);
    }
    if (ttl > MAX_TTL_SECONDS) {
      throw new DataStoreError(400, `data store ${store.id}: the ttl of key "${key}" is ${ttl} s; the limit is ${MAX_TTL_SECONDS} s (one year), or null for none`);
    }
    return this.now() + Math.round(ttl * 1000);
  }

  /** Appends `lines` (memory already changed) and resolves once they are durable. */
  private async write(store: Store, lines: string[]): Promise<void> {
    // A call that looked the store up just before it was removed (or the stores closed) must not
    // write to a closed file descriptor, whose number the OS may have given to another file.
    if (store.gone) {
      if (this.closed) throw closedError(this.dir);
      throw new DataStoreError(404, `data store ${store.id} was deleted while this call ran; nothing was written`);
    }
    const done = store.log.appendLines(lines);
    this.maybeCompact(store);
    await done;
  }

  private maybeCompact(store: Store): void {
    if (store.gone || store.log.lineCount <= 2 * (store.records.size + 1) + COMPACT_SLACK) return;
    store.log.compactInBackground(() => {
      const lines = [JSON.stringify({ t: 'store', id: store.id, name: store.name, created_ms: store.createdMs } satisfies Line)];
      for (const [key, entry] of store.records) lines.push(setLine(key, entry.expiresAt, entry.json));
      return lines;
    });
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.jsonl`);
  }
}

function notFoundError(id: string): DataStoreError {
  return new DataStoreError(404, `data store ${id} was not found; GET /v1/data_stores lists them and POST /v1/data_stores creates one`);
}

function closedError(dir: string): Error {
  return new Error(`the data stores in ${dir} are closed (the service is stopping); try again once it has restarted`);
}

function replay(store: Store, line: Line): void {
  switch (line.t) {
    case 'name':
      store.name = line.name;
      break;
    case 'set':
      store.records.delete(line.k);
      store.records.set(line.k, { json: JSON.stringify(line.v), expiresAt: line.x });
      break;
    case 'ttl': {
      const entry = store.records.get(line.k);
      if (entry) entry.expiresAt = line.x;
      break;
    }
    case 'del':
      store.records.delete(line.k);
      break;
    case 'clear':
      store.records.clear();
      break;
    case 'store':
      break;
  }
}

/** A `set` line built from the value's JSON text as it is, not parsed and serialised again. */
function setLine(key: string, expiresAt: number | null, json: string): string {
  return `{"t":"set","k":${JSON.stringify(key)},"x":${expiresAt === null ? 'null' : String(expiresAt)},"v":${json}}`;
}

function info(store: Store): DataStoreInfo {
  return { id: store.id, name: store.name, created_at: Math.floor(store.createdMs / 1000) };
}

function checkName(name: unknown): string {
  const clean = typeof name === 'string' ? name.trim() : '';
  if (!clean) throw new DataStoreError(400, 'a data store needs a name: a non-empty string');
  if (clean.length > MAX_NAME_LENGTH) throw new DataStoreError(400, `a data store name is at most ${MAX_NAME_LENGTH} characters (got ${clean.length})`);
  return clean;
}

function checkKey(store: Store, key: unknown): string {
  if (typeof key !== 'string' || key === '') {
    throw new DataStoreError(400, `data store ${store.id}: keys are non-empty strings (got ${describe(key)})`);
  }
  if (key.length > MAX_KEY_LENGTH) {
    throw new DataStoreError(400, `data store ${store.id}: key "${key.slice(0, 40)}…" is ${key.length} characters; the limit is ${MAX_KEY_LENGTH}`);
  }
  return key;
}

/** The JSON text of `value`; values JSON cannot represent are refused, naming the key. */
function toJson(store: Store, key: string, value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (err) {
    throw new DataStoreError(400, `data store ${store.id}: the value of key "${key}" is not JSON-serialisable (${(err as Error).message}); store plain objects, arrays, strings, numbers, booleans or null`);
  }
  if (json === undefined) {
    throw new DataStoreError(400, `data store ${store.id}: the value of key "${key}" is ${describe(value)}, which JSON cannot hold; store plain objects, arrays, strings, numbers, booleans or null (delete the key to remove it)`);
  }
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_VALUE_BYTES) {
    throw new DataStoreError(400, `data store ${store.id}: the value of key "${key}" is ${bytes} bytes as JSON; the limit is ${limit(MAX_VALUE_BYTES)} per value`);
  }
  return json;
}

function size(key: string, json: string): number {
  return Buffer.byteLength(key) + Buffer.byteLength(json);
}

/** A size limit in bytes and in MB, e.g. "1048576 bytes (1 MB)". */
function limit(bytes: number): string {
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

/** Makes a directory's entries (a created or removed file) durable. */
async function syncDir(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    // Some platforms (Windows) cannot open or sync a directory; the file data itself is synced.
    if (!['EISDIR', 'EPERM', 'EINVAL', 'EBADF'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await handle?.close();
  }
}
