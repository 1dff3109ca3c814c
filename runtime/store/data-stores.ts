// Account-level data stores (`ds_…`): the key-value stores behind `data_store` props, shared by
// every component configured with one. Each store is an append log of its changes under
// `DATA_DIR/data_stores/<id>.jsonl`, replayed into memory when the stores open; group commit in
// the log coalesces concurrent writes, and compaction keeps the file near the size of what is live.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppendLog } from '../lib/append-log';
import { DataStoreError } from '../lib/error-kinds';
import type { ProblemSink } from '../lib/file-problems';
import { newId } from '../lib/ids';
import { makePrivateDir } from '../lib/private-files';
import { changeLine, type Entry, headLine, openStoreFile, type StoreLine, type StoreState, setLine, snapshotLines, syncDir } from './data-store-file';
import { checkKey, checkName, expiryOf, MAX_STORE_BYTES, recordSize, sizeLimit, toJson } from './data-store-values';

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

interface Store extends StoreState {
  /** Keys plus values as JSON, in bytes, for the store limit. */
  bytes: number;
  log: AppendLog<StoreLine>;
  /** Set when the store is removed or the stores close: its log is closed and takes no writes. */
  gone: boolean;
}

/** Options of `DataStores`, mostly for tests. */
export interface DataStoresOptions {
  /** The clock, epoch ms. Default `Date.now`. */
  now?: () => number;
  /** How often expired records are swept from memory. Default 60 s. */
  sweepIntervalMs?: number;
  /** Receives what was found damaged when the stores' files are read. */
  report?: ProblemSink;
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
  private readonly report?: ProblemSink;

  constructor(
    readonly dir: string,
    options: DataStoresOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.report = options.report;
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
    const { log } = await AppendLog.open<StoreLine>(file, { report: this.report });
    const store: Store = { id, name: clean, createdMs: this.now(), records: new Map(), bytes: 0, log, gone: false };
    try {
      await log.appendLines([headLine(store)]);
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
      await this.write(store, [changeLine({ t: 'name', name: clean })]);
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
    const entry = this.live(store, checkKey(id, key));
    return entry ? (JSON.parse(entry.json) as unknown) : undefined;
  }

  /** Stores `value` (any JSON value) at `key`, replacing what was there; `ttl` in seconds. */
  async set(id: string, key: string, value: unknown, options: SetOptions = {}): Promise<void> {
    const store = await this.store(id);
    checkKey(id, key);
    const json = toJson(id, key, value);
    const expiresAt = expiryOf(id, key, options.ttl, this.now());
    const old = this.live(store, key);
    const bytes = store.bytes - (old ? recordSize(key, old.json) : 0) + recordSize(key, json);
    if (bytes > MAX_STORE_BYTES) {
      throw new DataStoreError(400, `data store ${store.id}: setting key "${key}" would make the store ${bytes} bytes; the limit is ${sizeLimit(MAX_STORE_BYTES)} per store (delete records or use another store)`);
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
    checkKey(id, key);
    if (ttl === undefined) throw new DataStoreError(400, `data store ${store.id}: setTtl("${key}") needs a ttl in seconds, or null to keep the record until it is deleted`);
    const expiresAt = expiryOf(id, key, ttl, this.now());
    const entry = this.live(store, key);
    if (!entry) return false;
    entry.expiresAt = expiresAt;
    await this.write(store, [changeLine({ t: 'ttl', k: key, x: expiresAt })]);
    return true;
  }

  /** Whether there is a live record at `key`. */
  async has(id: string, key: string): Promise<boolean> {
    const store = await this.store(id);
    return this.live(store, checkKey(id, key)) !== undefined;
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
    const entry = this.live(store, checkKey(id, key));
    return entry && { key, value: JSON.parse(entry.json) as unknown, expiresAt: entry.expiresAt };
  }

  /** Deletes the record at `key`; resolves whether there was a live one. */
  async delete(id: string, key: string): Promise<boolean> {
    const store = await this.store(id);
    const entry = this.live(store, checkKey(id, key));
    if (!entry) return false;
    this.drop(store, key, entry);
    await this.write(store, [changeLine({ t: 'del', k: key })]);
    return true;
  }

  /** Deletes every record of store `id`. */
  async clear(id: string): Promise<void> {
    const store = await this.store(id);
    if (store.records.size === 0) return;
    store.records.clear();
    store.bytes = 0;
    await this.write(store, [changeLine({ t: 'clear' })]);
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
    let opened: Awaited<ReturnType<typeof openStoreFile>>;
    try {
      opened = await openStoreFile(file, this.report);
    } catch (err) {
      // One store that cannot be read must not keep the service (and the other stores) from starting.
      this.report?.({ file, message: `cannot be read (${(err as Error).message}); the store is skipped and its file left as it is` });
      return;
    }
    if (!opened) return;
    const store: Store = { ...opened.state, bytes: 0, log: opened.log, gone: false };
    const now = this.now();
    for (const [key, entry] of store.records) if (entry.expiresAt !== null && entry.expiresAt <= now) store.records.delete(key);
    for (const [key, entry] of store.records) store.bytes += recordSize(key, entry.json);
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
    store.bytes -= recordSize(key, entry.json);
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
    store.log.compactInBackground(() => snapshotLines(store));
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

function info(store: Store): DataStoreInfo {
  return { id: store.id, name: store.name, created_at: Math.floor(store.createdMs / 1000) };
}
