// The local component registry: an index by key of the components in registry folders (the
// bundled ones and the user's), with lookups and search. Finding files is registry-scan.ts;
// descriptions kept across restarts, registry-cache.ts.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { RegistryComponent, RegistryComponentWithCode } from '../contract/component-api';
import type { ComponentProblem } from '../contract/component-shape';
import { ComponentError } from '../lib/error-kinds';
import { bundleFile } from './bundle-file';
import { registryFiles } from './file-set';
import type { ComponentLibrary, SandboxFactory } from './library';
import { type Description, DescriptionCache } from './registry-cache';
import { findComponentFiles, guessKey, stampOf } from './registry-scan';

/** A folder laid out like Pipedream's `components/` tree (`<app>/sources/<name>/<name>.mjs`, `<app>/actions/…`). */
export interface RegistryFolder {
  dir: string;
  /** True for the components that ship with Spout (resources/components). */
  bundled: boolean;
}

export type { RegistryComponent, RegistryComponentWithCode };

/** A file of a registry folder that could not be indexed, with every problem. */
export interface RegistryProblem {
  folder: string;
  path: string;
  /** The key the file seems to declare (read from its text), if any. */
  key: string | null;
  errors: ComponentProblem[];
}

interface FileState {
  folder: RegistryFolder;
  file: string;
  rel: string;
  app: string;
  guessedKey: string | null;
  /** Local files that went into its bundle (the entry alone until bundled). */
  inputs: string[];
  /** Modification stamp of the inputs when last bundled; null: not bundled yet. */
  stamp: string | null;
  code?: string;
  filename?: string;
  hash?: string;
  result?: { ok: true; desc: Description } | { ok: false; errors: ComponentProblem[] };
  describing?: Promise<void>;
}

export interface RegistryOptions {
  folders: RegistryFolder[];
  library: ComponentLibrary;
  /** Starts the sandbox a module is described in. */
  spawn: SandboxFactory;
  /** Descriptions kept across restarts, by code hash. */
  cacheFile?: string;
  /** Files described at once. Default 4. */
  concurrency?: number;
}

const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
/** A scan is reused for this long: a burst of requests does not walk the folders each time. */
const RESCAN_MS = 1000;

/**
 * The local component registry: the bundled components and any folder the user adds, indexed by
 * `key`. Files are found by walking the folders, bundled with their relative imports and
 * described by loading them in a sandbox (which validates them); descriptions are cached by code
 * hash, and a file is bundled again only when it or one of its imports changed. Nothing is
 * indexed until the registry is first used. A file that fails is reported, never fatal.
 */
export class ComponentRegistry {
  private states = new Map<string, FileState>();
  private readonly cache: DescriptionCache;
  private lastScan = 0;
  private scanning: Promise<void> | null = null;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: RegistryOptions) {
    this.cache = new DescriptionCache(options.cacheFile);
  }

  /** The folders indexed, bundled first. */
  folders(): RegistryFolder[] {
    return this.options.folders;
  }

  /**
   * Walks the folders (at most once a second) and describes what changed. Resolves when every
   * file is described, or after `waitMs` with what is described by then.
   */
  async refresh(waitMs = Infinity): Promise<{ pending: number }> {
    await this.scan();
    const all = Promise.all([...this.states.values()].map((s) => this.describe(s))).then(() => this.saveCache());
    if (waitMs === Infinity) await all;
    else await Promise.race([all, new Promise((r) => setTimeout(r, waitMs).unref())]);
    return { pending: [...this.states.values()].filter((s) => !s.result).length };
  }

  /** The indexed components, by key (a later folder's key shadows an earlier one's), sorted by key. */
  list(): RegistryComponent[] {
    const declaring = this.declaring();
    return [...this.byKey().values()].map((s) => this.view(s, declaring)).sort((a, b) => a.key.localeCompare(b.key));
  }

  /** Files that could not be indexed. */
  problems(): RegistryProblem[] {
    const out: RegistryProblem[] = [];
    for (const s of this.states.values()) {
      if (s.result && !s.result.ok) out.push({ folder: s.folder.dir, path: s.rel, key: s.guessedKey, errors: s.result.errors });
    }
    return out;
  }

  /** A component by key, with its code; describes the file that seems to declare it first. */
  async get(key: string): Promise<RegistryComponentWithCode | undefined> {
    await this.scan();
    const found = () => this.byKey().get(key);
    // A file that failed before is tried again: the failure may have been passing (a package
    // install, a host that could not start), and a deploy by key must not stay refused for it.
    for (const failed of [...this.states.values()].filter((s) => s.guessedKey === key && s.result && !s.result.ok)) this.states.set(failed.file, this.fresh(failed));
    // Fast path: the files whose text names this key.
    await Promise.all([...this.states.values()].filter((s) => s.guessedKey === key).map((s) => this.describe(s)));
    let state = found();
    // A file edited since it was described (between scans) is described again: a deploy by key
    // always runs the file as it is now.
    if (state?.result && state.stamp !== stampOf(state.inputs)) {
      const fresh = this.fresh(state);
      this.states.set(state.file, fresh);
      await this.describe(fresh);
      state = found();
    }
    if (!state) {
      // Files whose key is not written literally (computed, or from a spread) must be loaded to
      // know it; a file whose text names another key is taken at its word.
      const unknown = [...this.states.values()].filter((s) => !s.result && s.guessedKey === null);
      if (unknown.length) {
        await Promise.race([Promise.all(unknown.map((s) => this.describe(s))), new Promise((r) => setTimeout(r, 30_000).unref())]);
        state = found();
      }
    }
    this.saveCache();
    if (!state || state.code === undefined || state.filename === undefined) return undefined;
    return { ...this.view(state, this.declaring()), code: state.code, filename: state.filename, ...registryFiles(state.folder.dir, state.file, state.inputs) };
  }

  /** The problem of the file that seems to declare `key`, when it failed to load (to say why a key is missing). */
  problemFor(key: string): RegistryProblem | undefined {
    return this.problems().find((p) => p.key === key);
  }

  /** Components whose key, name, app or description contain every word of `query`, best matches first. */
  search(query: string): RegistryComponent[] {
    const q = query.trim().toLowerCase();
    const words = q.split(/\s+/).filter(Boolean);
    const score = (c: RegistryComponent) => {
      const key = c.key.toLowerCase();
      const name = c.name.toLowerCase();
      if (key === q) return 0;
      if (key.startsWith(q)) return 1;
      if (words.every((w) => key.includes(w) || name.includes(w))) return 2;
      return 3;
    };
    return this.list()
      .filter((c) => words.every((w) => [c.key, c.name, c.app, c.description ?? ''].some((f) => f.toLowerCase().includes(w))))
      .map((c) => ({ c, s: score(c) }))
      .sort((a, b) => a.s - b.s || a.c.key.localeCompare(b.c.key))
      .map((x) => x.c);
  }

  /** A file's state before it is bundled and described (again). */
  private fresh(state: FileState): FileState {
    return { folder: state.folder, file: state.file, rel: state.rel, app: state.app, guessedKey: guessKey(state.file), inputs: [state.file], stamp: null };
  }

  private byKey(): Map<string, FileState> {
    const map = new Map<string, FileState>();
    for (const s of this.states.values()) {
      if (s.result?.ok && s.result.desc.key) map.set(s.result.desc.key, s);
    }
    return map;
  }

  /** The files that declare each key (more than one: the last shadows the others). */
  private declaring(): Map<string, FileState[]> {
    const map = new Map<string, FileState[]>();
    for (const s of this.states.values()) {
      if (!s.result?.ok || !s.result.desc.key) continue;
      const list = map.get(s.result.desc.key) ?? [];
      list.push(s);
      map.set(s.result.desc.key, list);
    }
    return map;
  }

  private view(s: FileState, declaring: Map<string, FileState[]>): RegistryComponent {
    const desc = (s.result as { ok: true; desc: Description }).desc;
    const key = desc.key as string;
    const warnings = [...desc.warnings];
    const has = (p: string) => warnings.some((w) => w.path === p);
    if (!has('version') && !SEMVER.test(desc.version)) warnings.push({ path: 'version', message: `version "${desc.version}" is not semantic (x.y.z), as registry components need` });
    if (!has('key') && !/^[a-z0-9_]+-[a-z0-9-]+$/.test(key)) warnings.push({ path: 'key', message: `key "${key}" does not follow <app>-<component-name-slug>` });
    for (const o of (declaring.get(key) ?? []).filter((o) => o !== s)) warnings.push({ path: 'key', message: `shadows ${path.join(o.folder.dir, o.rel)}, which declares the same key` });
    return {
      key,
      name: desc.name,
      version: desc.version,
      type: desc.type,
      description: desc.description,
      app: s.app,
      path: s.rel,
      folder: s.folder.dir,
      bundled: s.folder.bundled,
      code_hash: s.hash ?? '',
      configurable_props: desc.configurable_props,
      warnings,
    };
  }

  /** Finds the component files of every folder; files that changed lose their description. */
  private scan(): Promise<void> {
    if (this.scanning) return this.scanning;
    if (Date.now() - this.lastScan < RESCAN_MS) return Promise.resolve();
    this.scanning = (async () => {
      this.cache.load();
      const next = new Map<string, FileState>();
      for (const folder of this.options.folders) {
        for (const found of findComponentFiles(folder.dir)) {
          const known = this.states.get(found.file);
          if (known && (known.describing || known.stamp === null || stampOf(known.inputs) === known.stamp)) {
            next.set(found.file, known);
            continue;
          }
          next.set(found.file, { folder, ...found, guessedKey: guessKey(found.file), inputs: [found.file], stamp: null });
        }
      }
      this.states = next;
      this.lastScan = Date.now();
    })().finally(() => (this.scanning = null));
    return this.scanning;
  }

  /** Bundles and describes a file once per change; concurrent callers share the work. */
  private describe(s: FileState): Promise<void> {
    if (s.result) return Promise.resolve();
    s.describing ??= this.limited(async () => {
      try {
        // Sibling apps come from the user's folders first (they shadow the bundled one), as keys do.
        const bundled = await bundleFile(s.file, { trees: this.options.folders.map((f) => f.dir).reverse() });
        s.inputs = bundled.inputs;
        s.stamp = stampOf(bundled.inputs);
        s.code = bundled.code;
        s.filename = bundled.filename;
        s.hash = createHash('sha256').update(bundled.code).digest('hex');
        let desc = this.cache.get(s.hash);
        if (!desc) {
          const { component, sandbox } = await this.options.library.load(bundled.code, bundled.filename, this.options.spawn);
          await sandbox.close();
          desc = {
            key: component.key,
            name: component.name,
            version: component.version,
            type: component.type,
            description: component.description,
            configurable_props: component.configurable_props,
            warnings: component.warnings ?? [],
          };
          this.cache.set(s.hash, desc);
        }
        if (!desc.key) {
          s.result = { ok: false, errors: [{ path: 'key', message: 'a registry component needs a `key` (<app>-<component-name-slug>); it is how it is found and deployed' }] };
        } else s.result = { ok: true, desc };
      } catch (err) {
        s.stamp ??= stampOf(s.inputs);
        s.result = { ok: false, errors: err instanceof ComponentError ? err.problems : [{ path: s.rel, message: (err as Error).message }] };
      }
    }).finally(() => delete s.describing);
    return s.describing;
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    const limit = this.options.concurrency ?? 4;
    if (this.running >= limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Keeps the descriptions of the files indexed now (others are dropped). */
  private saveCache(): void {
    this.cache.save(new Set([...this.states.values()].map((s) => s.hash)));
  }
}
