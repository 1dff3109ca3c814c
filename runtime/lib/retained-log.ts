import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppendLog } from './append-log';
import type { ProblemSink } from './file-problems';
import { makePrivateDir } from './private-files';

/** Bounds of what is kept per owner, in memory and on disk. */
export interface Retention {
  /** Records kept. */
  count: number;
  /** Bytes of records kept (as JSON lines); the oldest go first when over. */
  bytes: number;
}

interface Owned<T> {
  log: AppendLog<T>;
  /** Oldest first, within the retention (plus a little slack before trimming). */
  records: T[];
  /** Size of each record's line, in step with `records`. */
  sizes: number[];
  bytes: number;
}

/** Options of RetainedLogs. */
export interface RetainedLogsOptions<T> {
  /** Called with records trimmed out of memory (to drop them from an index). */
  onTrim?: (owner: string, trimmed: T[]) => void;
  /** What is wrong with a line read back, or null when it is a record (damaged lines are set aside). */
  check?: (value: unknown) => string | null;
  /** Receives what was found damaged when a file is read. */
  report?: ProblemSink;
}

/**
 * Records of each owner (a source, a component) in an append-only file of its own
 * (`<dir>/<owner>.jsonl`) and in memory up to a retention limit of count and bytes. Appending
 * costs the same however many records are kept: memory is trimmed in batches, and the file is
 * compacted in the background once it holds twice the limit. Appends are not synced to disk: a
 * crash of the process keeps them, a power cut may not.
 */
export class RetainedLogs<T> {
  private readonly owners = new Map<string, Owned<T>>();
  private readonly opening = new Map<string, Promise<Owned<T>>>();

  constructor(
    private readonly dir: string,
    private readonly retention: Retention,
    private readonly options: RetainedLogsOptions<T> = {},
  ) {}

  /** Opens (creating if needed) an owner's file; returns the records kept, oldest first. */
  async open(owner: string): Promise<readonly T[]> {
    return (await this.owned(owner)).records;
  }

  /** Appends records of an owner (opening its file first if need be). */
  async append(owner: string, records: T[]): Promise<void> {
    const owned = this.owners.get(owner) ?? (await this.owned(owner));
    this.add(owner, owned, records);
  }

  /** Appends to an owner already open; false if it is not. */
  appendOpen(owner: string, records: T[]): boolean {
    const owned = this.owners.get(owner);
    if (!owned) return false;
    this.add(owner, owned, records);
    return true;
  }

  /** An open owner's records, oldest first (empty if not open). */
  list(owner: string): readonly T[] {
    return this.owners.get(owner)?.records ?? [];
  }

  /** Closes and deletes an owner's file. */
  async remove(owner: string): Promise<void> {
    const owned = this.owners.get(owner) ?? (await this.opening.get(owner)?.catch(() => undefined));
    this.owners.delete(owner);
    if (owned) {
      this.options.onTrim?.(owner, owned.records);
      await owned.log.close();
    }
    await fsp.rm(this.file(owner), { force: true });
  }

  /** Writes what is queued and closes every file. */
  async close(): Promise<void> {
    await Promise.all([...this.owners.values()].map((o) => o.log.close()));
    this.owners.clear();
  }

  private add(owner: string, owned: Owned<T>, records: T[]): void {
    if (records.length === 0) return;
    const lines = records.map((r) => JSON.stringify(r));
    records.forEach((r, i) => keep(owned, r, Buffer.byteLength(lines[i] as string)));
    owned.log.appendUnsynced(lines);
    this.trim(owner, owned);
    const { log } = owned;
    if (log.lineCount > 2 * this.retention.count || log.byteCount > 2 * this.retention.bytes) {
      log.compactInBackground(() => owned.records.map((r) => JSON.stringify(r)));
    }
  }

  /** Drops the oldest records past the retention, in batches of a tenth so each append costs the same. */
  private trim(owner: string, owned: Owned<T>, slack = true): void {
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

  private owned(owner: string): Promise<Owned<T>> {
    const open = this.owners.get(owner);
    if (open) return Promise.resolve(open);
    let opening = this.opening.get(owner);
    if (!opening) {
      opening = (async () => {
        makePrivateDir(this.dir);
        const owned: Owned<T> = { log: null as unknown as AppendLog<T>, records: [], sizes: [], bytes: 0 };
        ({ log: owned.log } = await AppendLog.open<T>(this.file(owner), {
          check: this.options.check,
          report: this.options.report,
          onRecord: (record, size) => {
            keep(owned, record, size);
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

function keep<T>(owned: Owned<T>, record: T, size: number): void {
  owned.records.push(record);
  owned.sizes.push(size);
  owned.bytes += size;
}
