// Service side of `$.service.db`: each source's values, kept in memory and in a JSON file of its
// own (DATA_DIR/db/<source id>.json). Component hosts cannot read these files; they get a copy
// with the invocations that need one and report the keys each invocation set (sandbox/db.ts).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { DbEntries, DbWrite } from '../contract/host-protocol';
import { writeFileAtomic } from '../lib/atomic-write';

/** One source's db. */
export interface SourceDb {
  /** Grows by one with every change; a host whose copy is older gets the entries again. */
  readonly version: number;
  /** The values as JSON text, by key. */
  entries(): DbEntries;
  /** Stores the keys an invocation set; resolves once they are on disk. */
  apply(writes: readonly DbWrite[]): Promise<void>;
}

class FileDb implements SourceDb {
  version = 0;
  private writing: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly file: string,
    private readonly values: Map<string, string>,
  ) {}

  entries(): DbEntries {
    return Object.fromEntries(this.values);
  }

  apply(writes: readonly DbWrite[]): Promise<void> {
    if (writes.length === 0) return Promise.resolve();
    for (const [key, text] of writes) {
      if (text === null) this.values.delete(key);
      else this.values.set(key, text);
    }
    this.version++;
    return this.persist();
  }

  /** Writes the current values; writes asked for while one is under way are coalesced into the next. */
  private persist(): Promise<void> {
    if (this.writing) {
      this.again = true;
      return this.writing;
    }
    const text = `{${[...this.values].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
    this.writing = writeFileAtomic(this.file, text).finally(() => {
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

  constructor(private readonly dir: string) {}

  /** A source's db (read from its file the first time). */
  of(sourceId: string): SourceDb {
    let db = this.dbs.get(sourceId);
    if (!db) {
      const file = this.file(sourceId);
      db = new FileDb(file, readValues(file));
      this.dbs.set(sourceId, db);
    }
    return db;
  }

  /** Deletes a source's db and its file. */
  async remove(sourceId: string): Promise<void> {
    const db = this.dbs.get(sourceId);
    this.dbs.delete(sourceId);
    await db?.settled();
    await fsp.rm(this.file(sourceId), { force: true });
  }

  /** Resolves once every write under way is on disk. */
  async flush(): Promise<void> {
    await Promise.all([...this.dbs.values()].map((db) => db.settled()));
  }

  private file(sourceId: string): string {
    return path.join(this.dir, `${sourceId}.json`);
  }
}

/** The values of a db file as JSON text by key; none when it does not exist. */
function readValues(file: string): Map<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw err;
  }
  const parsed = JSON.parse(text) as Record<string, unknown>;
  return new Map(Object.entries(parsed).map(([k, v]) => [k, JSON.stringify(v)]));
}
