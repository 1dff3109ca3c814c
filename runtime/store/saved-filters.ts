// The stream's saved filters: one private JSON file, DATA_DIR/stream-filters.json, replaced whole
// on each change (lib/state-file.ts).
import path from 'node:path';
import type { SavedFilter } from '../contract/stream-api';
import type { ProblemSink } from '../lib/file-problems';
import { readStateFile, writeStateFile } from '../lib/state-file';

/** The saved filters in `text`: entries that are not a name and a filter are dropped. */
function parseFilters(text: string): SavedFilter[] {
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new Error('not a JSON list');
  return parsed.filter((f): f is SavedFilter => typeof f?.name === 'string' && typeof f?.filter === 'string').map((f) => ({ name: f.name, filter: f.filter }));
}

export class SavedFilterStore {
  private filters: SavedFilter[];
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    report?: ProblemSink,
  ) {
    this.filters = readStateFile(file, parseFilters, report).value ?? [];
  }

  /** Reads DATA_DIR/stream-filters.json (none when it does not exist). */
  static open(dataDir: string, report?: ProblemSink): SavedFilterStore {
    return new SavedFilterStore(path.join(dataDir, 'stream-filters.json'), report);
  }

  /** The saved filters, in the order given. */
  list(): SavedFilter[] {
    return this.filters;
  }

  /** Replaces the saved filters (checked by the caller) and writes them. */
  async put(filters: SavedFilter[]): Promise<void> {
    this.filters = filters;
    await this.write();
  }

  /** Saves one filter (checked by the caller): in its place when its name is saved, else last; the others stay as they are. */
  async save(filter: SavedFilter): Promise<void> {
    const at = this.filters.findIndex((f) => f.name === filter.name);
    this.filters = at === -1 ? [...this.filters, filter] : this.filters.map((f, i) => (i === at ? filter : f));
    await this.write();
  }

  /** Deletes the filter named `name`; answers whether there was one. */
  async remove(name: string): Promise<boolean> {
    const kept = this.filters.filter((f) => f.name !== name);
    if (kept.length === this.filters.length) return false;
    this.filters = kept;
    await this.write();
    return true;
  }

  /** Writes the filters as they are now, after any write under way (each change is applied in memory first, so none is lost). */
  private async write(): Promise<void> {
    const text = `${JSON.stringify(this.filters, null, 2)}\n`;
    const done = this.writing.then(() => writeStateFile(this.file, text));
    this.writing = done.catch(() => undefined);
    await done;
  }
}
