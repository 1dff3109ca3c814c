// Service side of `$.service.db`: each source's values, kept in memory and in a JSON file of its
// own (DATA_DIR/db/<source id>.json). Component hosts cannot read these files; they get a copy
// with the invocations that need one and report the keys each invocation set (props/db). What a
// host reports is checked here (it runs untrusted code): a value that is not JSON, or over the
// limits, is refused and nothing of that run is stored.
import path from 'node:path';
import type { DbEntries, DbWrite } from '../contract/host-protocol';
import { MAX_DB_BYTES, MAX_DB_VALUE_BYTES } from '../contract/limits';
import type { ProblemSink } from '../lib/file-problems';
import { readStateFile, removeStateFile, writeStateFile } from '../lib/state-file';

/** Thrown when an invocation's writes cannot be stored; the message is for the component's author. */
export class DbWriteError extends Error {
  override name = 'DbWriteError';
}

/** One source's db. */
export interface SourceDb {
  /** Grows by one with every change; a host whose copy is older gets the entries again. */
  readonly version: number;
  /** The values as JSON text, by key. */
  entries(): DbEntries;
  /** Checks and stores the keys an invocation set; resolves once they are on disk. Throws a DbWriteError (nothing stored) for writes it refuses. */
  apply(writes: readonly DbWrite[]): Promise<void>;
}

class FileDb implements SourceDb {
  version = 0;
  private writing: Promise<void> | null = null;
  private again = false;
  private bytes = 0;

  constructor(
    private readonly file: string,
    private readonly values: Map<string, string>,
  ) {
    for (const [key, json] of values) this.bytes += entrySize(key, json);
  }

  entries(): DbEntries {
    return Object.fromEntries(this.values);
  }

  async apply(writes: readonly DbWrite[]): Promise<void> {
    if (writes.length === 0) return;
    let bytes = this.bytes;
    for (const [key, json] of writes) {
      checkWrite(key, json);
      const old = this.values.get(key);
      if (old !== undefined) bytes -= entrySize(key, old);
      if (json !== null) bytes += entrySize(key, json);
    }
    if (bytes > MAX_DB_BYTES) {
      throw new DbWriteError(`this.db would hold ${bytes} bytes; the limit is ${MAX_DB_BYTES} bytes (${MAX_DB_BYTES / 1048576} MB) per source, so nothing this run set was stored (delete keys with db.set(key, undefined))`);
    }
    for (const [key, json] of writes) {
      if (json === null) this.values.delete(key);
      else this.values.set(key, json);
    }
    this.bytes = bytes;
    this.version++;
    await this.persist();
  }

  /** Writes the current values; writes asked for while one is under way are coalesced into the next. */
  private persist(): Promise<void> {
    if (this.writing) {
      this.again = true;
      return this.writing;
    }
    const text = `{${[...this.values].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
    this.writing = writeStateFile(this.file, text).finally(() => {
      this.writing = null;
      if (this.again) {
        this.again = false;
        void this.persist();
      }
    });
    return this.writing;
  }

  /** Resolves when no write is under way. */
  async settled(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
  }
}

/** The db of every source, loaded on first use. */
export class SourceDbs {
  private readonly dbs = new Map<string, FileDb>();

  constructor(
    private readonly dir: string,
    /** Receives what was found damaged when a db file is read. */
    private readonly report?: ProblemSink,
  ) {}

  /** A source's db (read from its file the first time; a damaged file is replaced by its previous version, or the db starts empty). */
  of(sourceId: string): SourceDb {
    let db = this.dbs.get(sourceId);
    if (!db) {
      const file = this.file(sourceId);
      db = new FileDb(file, readStateFile(file, parseDb, this.report).value ?? new Map());
      this.dbs.set(sourceId, db);
    }
    return db;
  }

  /** Deletes a source's db and its file. */
  async remove(sourceId: string): Promise<void> {
    const db = this.dbs.get(sourceId);
    this.dbs.delete(sourceId);
    await db?.settled();
    const file = this.file(sourceId);
    await removeStateFile(file);
  }

  /** Resolves once every write under way is on disk. */
  async flush(): Promise<void> {
    await Promise.all([...this.dbs.values()].map((db) => db.settled()));
  }

  private file(sourceId: string): string {
    return path.join(this.dir, `${sourceId}.json`);
  }
}

/** The values of a db file as JSON text by key; throws when the file is not a JSON object. */
export function parseDb(text: string): Map<string, string> {
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
  return new Map(Object.entries(parsed).map(([k, v]) => [k, JSON.stringify(v)]));
}

/** Refuses a write a host could not have made through `this.db.set`: a value that is not JSON, or over the limit. */
function checkWrite(key: string, json: string | null): void {
  if (json === null) return;
  if (Buffer.byteLength(json) > MAX_DB_VALUE_BYTES) {
    throw new DbWriteError(`this.db: the value of key "${key.slice(0, 100)}" is ${Buffer.byteLength(json)} bytes as JSON; the limit is ${MAX_DB_VALUE_BYTES} bytes (${MAX_DB_VALUE_BYTES / 1048576} MB) per value, so nothing this run set was stored`);
  }
  try {
    JSON.parse(json);
  } catch {
    throw new DbWriteError(`this.db: the value of key "${key.slice(0, 100)}" is not valid JSON, so nothing this run set was stored (a component host sent what db.set cannot make)`);
  }
}

function entrySize(key: string, json: string): number {
  return Buffer.byteLength(key) + Buffer.byteLength(json);
}
