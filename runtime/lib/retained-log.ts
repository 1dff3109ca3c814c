import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppendLog, type GenerationLimits } from './append-log';
import type { ProblemSink } from './file-problems';
import { ownerOfLogFile, removeLogFiles } from './log-generations';
import { makePrivateDir } from './private-files';

/** Bounds of what is kept per owner, in memory and on disk. */
export interface Retention {
  /** Records kept. */
  count: number;
  /** Bytes of records kept (as JSON lines); the oldest go first when over. */
  bytes: number;
}

interface Owned<T, K> {
  log: AppendLog<T>;
  /** What is kept of each record, oldest first, within the retention (plus a little slack before trimming). */
  records: K[];
  /** Size of each record's line, in step with `records`. */
  sizes: number[];
  bytes: number;
}

/** Options of RetainedLogs. */
export interface RetainedLogsOptions<T, K> {
  /** Called with records trimmed out of memory (to drop them from an index). */
  onTrim?: (owner: string, trimmed: K[]) => void;
  /**
   * What memory keeps of an owner's record, given its line (as written, or as read back from the
   * file): by default the record itself. A store of many large records keeps the line instead,
   * off the heap (lib/line-arena.ts).
   */
  keep?: (record: T, line: string | Buffer, owner: string) => K;
  /** What is wrong with a line read back, or null when it is a record (damaged lines are set aside). */
  check?: (value: unknown) => string | null;
  /** Receives what was found damaged when a file is read. */
  report?: ProblemSink;
}

/**
 * Records of each owner (a source, a component) in an append-only file of its own
 * (`<dir>/<owner>.jsonl`, and its previous generation: lib/log-generations.ts) and in memory up
 * to a retention limit of count and bytes. Appending costs the same however many records are
 * kept: memory is trimmed in batches, and once the file holds the whole limit it becomes the
 * previous generation and a new one starts, so kept records are never written twice. Appends are
 * not synced to disk: a crash of the process keeps them, a power cut may not.
 */
export class RetainedLogs<T, K = T> {
  private readonly owners = new Map<string, Owned<T, K>>();
  private readonly opening = new Map<string, Promise<Owned<T, K>>>();
  private readonly keep: (record: T, line: string | Buffer, owner: string) => K;

  /** When an owner's file becomes the previous generation, shared by every owner's log so that a change applies to each. */
  private readonly generations: GenerationLimits;

  constructor(
    private readonly dir: string,
    private readonly retention: Retention,
    private readonly options: RetainedLogsOptions<T, K> = {},
  ) {
    this.keep = options.keep ?? ((record) => record as unknown as K);
    this.generations = { lines: retention.count, bytes: retention.bytes };
  }

  /** Changes the retention: memory is trimmed to it now, files at their next generation. */
  setRetention(retention: Retention): void {
    Object.assign(this.retention, retention);
    Object.assign(this.generations, { lines: retention.count, bytes: retention.bytes });
    for (const [owner, owned] of this.owners) this.trim(owner, owned, false);
  }

  /** The owners with a file in the folder. */
  async ownersOnDisk(): Promise<string[]> {
    let files: string[] = [];
    try {
      files = await fsp.readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return [...new Set(files.map(ownerOfLogFile).filter((o): o is string => o !== null))];
  }

  /** Opens (creating if needed) an owner's file; returns what is kept of its records, oldest first. */
  async open(owner: string): Promise<readonly K[]> {
    return (await this.owned(owner)).records;
  }

  /** Appends records of an owner (opening its file first if need be); resolves what is kept of them. */
  async append(owner: string, records: T[]): Promise<K[]> {
    const owned = this.owners.get(owner) ?? (await this.owned(owner));
    return this.add(owner, owned, records);
  }

  /** Appends to an owner already open and returns what is kept of the records; null if it is not open. */
  appendOpen(owner: string, records: T[]): K[] | null {
    const owned = this.owners.get(owner);
    return owned ? this.add(owner, owned, records) : null;
  }

  /** Writes an open owner's queued records now rather than at the next turn: a process crash then keeps them (a power cut may not). */
  writeQueued(owner: string): void {
    this.owners.get(owner)?.log.writeQueued();
  }

  /** What is kept of an open owner's records, oldest first (empty if not open). */
  list(owner: string): readonly K[] {
    return this.owners.get(owner)?.records ?? [];
  }

  /** The owners open now. */
  openOwners(): string[] {
    return [...this.owners.keys()];
  }

  /** Closes and deletes an owner's files. */
  async remove(owner: string): Promise<void> {
    const owned = this.owners.get(owner) ?? (await this.opening.get(owner)?.catch(() => undefined));
    this.owners.delete(owner);
    if (owned) {
      this.options.onTrim?.(owner, owned.records);
      await owned.log.close();
    }
    await removeLogFiles(this.file(owner));
  }

  /** Writes what is queued and closes every file. */
  async close(): Promise<void> {
    await Promise.all([...this.owners.values()].map((o) => o.log.close()));
    this.owners.clear();
  }

  private add(owner: string, owned: Owned<T, K>, records: T[]): K[] {
    if (records.length === 0) return [];
    const kept: K[] = [];
    // Each line is kept from the bytes staged for the file: encoded once, not twice.
    owned.log.appendUnsynced(
      records.map((r) => JSON.stringify(r)),
      (bytes) => {
        const k = this.keep(records[kept.length] as T, bytes, owner);
        kept.push(k);
        push(owned, k, bytes.length + 1);
      },
    );
    this.trim(owner, owned);
    return kept;
  }

  /** Drops the oldest records past the retention, in batches of a tenth so each append costs the same. */
  private trim(owner: string, owned: Owned<T, K>, slack = true): void {
    const { count, bytes } = this.retention;
    if (owned.records.length <= count + (slack ? Math.ceil(count / 10) : 0) && owned.bytes <= bytes + (slack ? bytes / 10 : 0)) return;
    let drop = Math.max(0, owned.records.length - count);
    let left = owned.bytes;
    for (let i = 0; i < drop; i++) left -= owned.sizes[i] as number;
    while (left > bytes && drop < owned.records.length - 1) left -= owned.sizes[drop++] as number;
    owned.sizes.splice(0, drop);
    owned.bytes = left;
    // Spliced first: an optional call would skip evaluating its argument when there is no onTrim.
    const trimmed = owned.records.splice(0, drop);
    this.options.onTrim?.(owner, trimmed);
  }

  private owned(owner: string): Promise<Owned<T, K>> {
    const open = this.owners.get(owner);
    if (open) return Promise.resolve(open);
    let opening = this.opening.get(owner);
    if (!opening) {
      opening = (async () => {
        makePrivateDir(this.dir);
        const owned: Owned<T, K> = { log: null as unknown as AppendLog<T>, records: [], sizes: [], bytes: 0 };
        ({ log: owned.log } = await AppendLog.open<T>(this.file(owner), {
          generations: this.generations,
          check: this.options.check,
          report: this.options.report,
          onRecord: (record, size, raw) => {
            push(owned, this.keep(record, raw, owner), size);
            // Only the newest are kept: a file of any length opens in the same memory.
            if (owned.records.length > 2 * this.retention.count || owned.bytes > 2 * this.retention.bytes) this.trim(owner, owned, false);
          },
        }));
        this.trim(owner, owned, false);
        this.owners.set(owner, owned);
        return owned;
      })().finally(() => this.opening.delete(owner));
      this.opening.set(owner, opening);
    }
    return opening;
  }

  private file(owner: string): string {
    return path.join(this.dir, `${owner}.jsonl`);
  }
}

function push<T, K>(owned: Owned<T, K>, kept: K, size: number): void {
  owned.records.push(kept);
  owned.sizes.push(size);
  owned.bytes += size;
}
