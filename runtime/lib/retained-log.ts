import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppendLog } from './append-log';
import { makePrivateDir } from './private-files';

interface Owned<T> {
  log: AppendLog<T>;
  /** Oldest first, at most `retention` (plus a little slack before trimming). */
  records: T[];
}

/**
 * Records of each owner (a source, a component) in an append-only file of its own
 * (`<dir>/<owner>.jsonl`) and in memory up to a retention limit. Appending costs the same however
 * many records are kept: memory is trimmed in batches, and the file is compacted in the
 * background once it holds twice the limit. Appends are not synced to disk: a crash of the process
 * keeps them, a power cut may not.
 */
export class RetainedLogs<T> {
  private readonly owners = new Map<string, Owned<T>>();
  private readonly opening = new Map<string, Promise<Owned<T>>>();

  constructor(
    private readonly dir: string,
    private readonly retention: number,
    /** Called with records trimmed out of memory (to drop them from an index). */
    private readonly onTrim: (owner: string, trimmed: T[]) => void = () => {},
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
      this.onTrim(owner, owned.records);
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
    for (const r of records) owned.records.push(r);
    owned.log.appendUnsynced(records.map((r) => JSON.stringify(r)));
    if (owned.records.length > this.retention + Math.ceil(this.retention / 10)) {
      this.onTrim(owner, owned.records.splice(0, owned.records.length - this.retention));
    }
    if (owned.log.lineCount > 2 * this.retention) owned.log.compactInBackground(() => owned.records.map((r) => JSON.stringify(r)));
  }

  private owned(owner: string): Promise<Owned<T>> {
    const open = this.owners.get(owner);
    if (open) return Promise.resolve(open);
    let opening = this.opening.get(owner);
    if (!opening) {
      opening = (async () => {
        makePrivateDir(this.dir);
        const { log, records } = await AppendLog.open<T>(this.file(owner));
        const owned = { log, records: records.slice(-this.retention) };
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
