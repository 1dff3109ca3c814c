// The registry's descriptions kept across restarts, by code hash: a file whose bundle did not
// change is not loaded in a sandbox again.
import fs from 'node:fs';
import type { ComponentProblem, ConfigurableProp } from '../contract/component-shape';
import { writePrivateFileSync } from '../lib/private-files';

/** What a registry component declares (the library's load validated it). */
export interface Description {
  key: string | null;
  name: string;
  version: string;
  type: 'source' | 'action';
  description: string | null;
  configurable_props: ConfigurableProp[];
  warnings: ComponentProblem[];
}

/** Descriptions cached by an older Spout (other checks, no warnings) are not reused. */
const CACHE_VERSION = 2;

/** Descriptions by code hash, read from `file` on first use and written back when they changed. */
export class DescriptionCache {
  private readonly byHash = new Map<string, Description>();
  private loaded = false;
  private dirty = false;

  constructor(private readonly file: string | undefined) {}

  /** The description of a bundle with this hash, if one was kept. */
  get(hash: string): Description | undefined {
    this.load();
    return this.byHash.get(hash);
  }

  set(hash: string, desc: Description): void {
    this.load();
    this.byHash.set(hash, desc);
    this.dirty = true;
  }

  /** Reads the file once; a missing or unreadable one leaves the cache empty. */
  load(): void {
    if (this.loaded || !this.file) return;
    this.loaded = true;
    try {
      const kept = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { version?: number; components?: Record<string, Description> };
      if (kept.version === CACHE_VERSION && kept.components) for (const [hash, desc] of Object.entries(kept.components)) this.byHash.set(hash, desc);
    } catch {
      // none yet, or unreadable: described again
    }
  }

  /** Writes the descriptions of the hashes in use (others are dropped), when something changed. */
  save(used: ReadonlySet<string | undefined>): void {
    if (!this.dirty || !this.file) return;
    this.dirty = false;
    const components = Object.fromEntries([...this.byHash].filter(([hash]) => used.has(hash)));
    try {
      writePrivateFileSync(this.file, JSON.stringify({ version: CACHE_VERSION, components }));
    } catch {
      // a cache only
    }
  }
}
