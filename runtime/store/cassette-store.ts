// Cassettes: the recorded calls of each source (or action component), one JSON file each under
// DATA_DIR/cassettes, read and replaced whole through the API, appended to in record mode.
import fs from 'node:fs';
import path from 'node:path';
import type { Cassette, CassetteEntry } from '../contract/network-api';
import type { ProblemSink } from '../lib/file-problems';
import { KeyedWrites } from '../lib/keyed-writes';
import { readStateFile, removeStateFile, writeStateFile } from '../lib/state-file';

/** How a new cassette matches: common volatile query parameters left out, bodies compared, in sequence. */
export const DEFAULT_MATCHING: Cassette['matching'] = {
  ignore_query: ['timestamp', 'ts', '_', 'nonce', 'cachebuster', 'cb'],
  body: true,
  order: 'sequence',
};

/** Calls one cassette keeps; in record mode later calls are not added (each body is kept up to 256 KB). */
export const MAX_CASSETTE_ENTRIES = 1000;

/** An empty cassette. */
export function emptyCassette(): Cassette {
  return { version: 1, matching: { ...DEFAULT_MATCHING, ignore_query: [...DEFAULT_MATCHING.ignore_query] }, entries: [] };
}

export class CassetteStore {
  private readonly cassettes = new Map<string, Cassette>();
  /** Writes per owner, in order. */
  private readonly writes = new KeyedWrites();

  constructor(
    private readonly dir: string,
    /** Receives what was found damaged when a cassette is read. */
    private readonly report?: ProblemSink,
  ) {}

  /** An owner's cassette (empty when it has none; a damaged one is replaced by its previous version). */
  get(owner: string): Cassette {
    let cassette = this.cassettes.get(owner);
    if (!cassette) {
      cassette = readStateFile(this.file(owner), parseCassette, this.report).value ?? emptyCassette();
      this.cassettes.set(owner, cassette);
    }
    return cassette;
  }

  /** True when the owner has a cassette file. */
  has(owner: string): boolean {
    return this.cassettes.has(owner) || fs.existsSync(this.file(owner));
  }

  /** Replaces an owner's cassette. */
  put(owner: string, cassette: Cassette): Promise<void> {
    this.cassettes.set(owner, cassette);
    return this.save(owner);
  }

  /** Gives an owner a cassette in memory only, to be masked and then saved with `put` (so no unmasked version reaches the disk). */
  hold(owner: string, cassette: Cassette): void {
    this.cassettes.set(owner, cassette);
  }

  /** Adds recorded calls to an owner's cassette, up to MAX_CASSETTE_ENTRIES; resolves how many did not fit. */
  async append(owner: string, entries: CassetteEntry[]): Promise<number> {
    const cassette = this.get(owner);
    const fitting = entries.slice(0, Math.max(0, MAX_CASSETTE_ENTRIES - cassette.entries.length));
    if (fitting.length > 0) {
      cassette.entries.push(...fitting);
      await this.save(owner);
    }
    return entries.length - fitting.length;
  }

  /** Deletes an owner's cassette. */
  async remove(owner: string): Promise<void> {
    this.cassettes.delete(owner);
    await this.writes.settled(owner);
    const file = this.file(owner);
    await removeStateFile(file);
  }

  private save(owner: string): Promise<void> {
    return this.writes.queue(owner, () => writeStateFile(this.file(owner), `${JSON.stringify(this.get(owner), null, 2)}\n`));
  }

  private file(owner: string): string {
    return path.join(this.dir, `${owner}.json`);
  }
}

/** A cassette file's content; throws when it is not one. */
export function parseCassette(text: string): Cassette {
  const cassette = JSON.parse(text) as Partial<Cassette> | null;
  if (typeof cassette !== 'object' || cassette === null || !Array.isArray(cassette.entries) || typeof cassette.matching !== 'object') {
    throw new Error('not a cassette (no entries or matching)');
  }
  return cassette as Cassette;
}
