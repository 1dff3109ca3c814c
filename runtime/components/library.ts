import { createHash } from 'node:crypto';
import type { ComponentFiles, ComponentLint } from '../contract/component-api';
import type { ComponentDescription } from '../contract/component-shape';
import { ComponentError, StoredContentMissing } from '../lib/error-kinds';
import { newId } from '../lib/ids';
import type { Sandbox } from '../sandbox/sandbox';
import type { ComponentRecord, Metadata } from '../store/metadata';
import { bundleComponent } from './bundle';
import { sameFiles } from './file-set';
import type { PackageCache, ProgressListener } from './packages';
import { validateComponent } from './validate';

/** Starts a sandbox on a bundle; the caller decides where its logs go. */
export type SandboxFactory = (bundle: Pick<ComponentRecord, 'bundle' | 'filename'>) => Promise<{ sandbox: Sandbox; description: ComponentDescription }>;

/** What `lint` found: the component (null when it has errors) with its props, errors and warnings. */
export type LintResult = ComponentLint;

/** Checked components kept in memory (each holds its bundle). */
const MAX_CHECKED = 16;

/** Per-call options of loading or saving a component. */
export interface LoadOptions {
  /** Receives progress lines of package installs the load waits for (`installing x@^1 …`). */
  onProgress?: ProgressListener;
  /** The original files the code was bundled from: kept on the record, to be shown and edited instead of the bundle. */
  files?: ComponentFiles;
}

/** Per-call options of saving a component. */
export interface SaveOptions extends LoadOptions {
  /** `registry`: saved on behalf of a registry key, not by the user (absent: the user saves it, and owns it from then on). */
  origin?: 'registry';
}

/** A record's original files, when it keeps them. */
export function filesOf(c: ComponentRecord): ComponentFiles | undefined {
  return c.files && c.entry_file !== undefined ? { files: c.files, entry_file: c.entry_file } : undefined;
}

/** Whether a record keeps these original files; one whose file list is missing from the data dir keeps none (saving again makes a new record). */
function sameStoredFiles(c: ComponentRecord, files: ComponentFiles | undefined): boolean {
  try {
    return sameFiles(filesOf(c), files);
  } catch (err) {
    if (err instanceof StoredContentMissing) return false;
    throw err;
  }
}

/**
 * Saved components (`sc_…`): module text turned into a validated record. Loading runs the
 * module in a sandbox (its code never runs on the service's thread) to learn what it declares.
 */
export class ComponentLibrary {
  private readonly listeners = new Set<() => void>();
  /**
   * Components checked but not saved, by file name and text, newest last: a form asks their
   * options and additionalProps without a load each, and saving one keeps the id its form used.
   */
  private readonly checked = new Map<string, ComponentRecord>();

  /** `packages`: where the packages components import are installed; without it only builtins and our shims load. */
  constructor(
    private readonly metadata: Metadata,
    private readonly packages?: PackageCache,
  ) {}

  /** A saved component by id, or the newest saved with that key. */
  find(idOrKey: string): ComponentRecord | undefined {
    const all = this.metadata.data.components;
    return all.find((c) => c.id === idOrKey) ?? all.findLast((c) => c.key === idOrKey);
  }

  /** The saved component of exactly this module text (its sha256), if any; with `files`, one kept with the same original files. */
  findByHash(codeHash: string, files?: ComponentFiles): ComponentRecord | undefined {
    return this.metadata.data.components.findLast((c) => c.code_hash === codeHash && (files === undefined || sameFiles(filesOf(c), files)));
  }

  /**
   * Bundles, loads and validates module text; returns the component record (the saved one if
   * the same code was saved before), the sandbox it is loaded in and what the module declared. Nothing is saved. Packages
   * the code imports are installed first if not cached; a package failure is a ComponentError.
   */
  async load(code: string, filename: string, spawn: SandboxFactory, options: LoadOptions = {}): Promise<{ component: ComponentRecord; sandbox: Sandbox; description: ComponentDescription }> {
    const bundle = await bundleComponent(code, filename, { packages: this.packages, onProgress: options.onProgress });
    let loaded: Awaited<ReturnType<SandboxFactory>>;
    try {
      loaded = await spawn({ bundle: bundle.code, filename });
    } catch (err) {
      throw new ComponentError([{ path: filename, message: (err as Error).message }]);
    }
    try {
      const valid = validateComponent(loaded.description);
      // Files differing only in what a bundle drops (comments, formatting) are another record: each shows its own files.
      const same = (c: ComponentRecord) => c.code_hash === bundle.codeHash && sameStoredFiles(c, options.files);
      const existing = this.metadata.data.components.find(same) ?? [...this.checked.values()].find(same);
      // Records saved by an older Spout lack warnings, or have those of older rules.
      if (existing) existing.warnings = valid.warnings;
      // The texts just made: a content file gone missing is mended by saving the same code again (written once, store/component-content.ts).
      if (existing) Object.assign(existing, { code, bundle: bundle.code });
      const sample = loaded.description.sampleEvent;
      if (existing && sample !== undefined) existing.sample_event = sample;
      const component: ComponentRecord = existing ?? {
        id: newId('sc'),
        key: valid.key,
        name: valid.name,
        version: valid.version,
        type: valid.type,
        description: valid.description,
        dedupe: valid.dedupe,
        code,
        filename,
        bundle: bundle.code,
        code_hash: bundle.codeHash,
        configurable_props: valid.configurable_props,
        warnings: valid.warnings,
        ...(options.files ? { files: options.files.files, entry_file: options.files.entry_file } : {}),
        ...(sample !== undefined ? { sample_event: sample } : {}),
        created_at: Math.floor(Date.now() / 1000),
      };
      return { component, sandbox: loaded.sandbox, description: loaded.description };
    } catch (err) {
      await loaded.sandbox.close();
      throw err;
    }
  }

  /** Checks module text without saving it: every error (bundling, loading, validation) and warning. */
  async lint(code: string, filename: string, spawn: SandboxFactory, options: LoadOptions = {}): Promise<LintResult> {
    try {
      const { component, sandbox } = await this.load(code, filename, spawn, options);
      await sandbox.close();
      const { key, name, version, type, configurable_props } = component;
      return { errors: [], warnings: component.warnings ?? [], component: { key, name, version, type, configurable_props } };
    } catch (err) {
      if (err instanceof ComponentError) return { errors: err.problems, warnings: err.warnings, component: null };
      throw err;
    }
  }

  /**
   * The component module text declares, as saving it would answer, with nothing saved: the saved
   * one of the same code, else a record kept in memory (the latest few checked), so a form's
   * options and additionalProps calls that send the same text load it once.
   */
  async check(code: string, filename: string, spawn: SandboxFactory, options: LoadOptions = {}): Promise<ComponentRecord> {
    const text = createHash('sha256').update(filename).update('\0').update(code).digest('hex');
    const kept = this.checked.get(text);
    if (kept) {
      this.checked.delete(text);
      this.checked.set(text, kept);
      return kept;
    }
    const { component, sandbox } = await this.load(code, filename, spawn, options);
    await sandbox.close();
    this.checked.set(text, component);
    for (const old of this.checked.keys()) {
      if (this.checked.size <= MAX_CHECKED) break;
      this.checked.delete(old);
    }
    return component;
  }

  /** Whether a component record is saved (not only checked). */
  isSaved(component: ComponentRecord): boolean {
    return this.metadata.data.components.includes(component);
  }

  /** Keeps a component record (if it is new), saved now; the caller writes the metadata. */
  remember(component: ComponentRecord): void {
    if (this.metadata.data.components.some((c) => c.id === component.id)) return;
    // A record checked earlier was made then: its saved date is now.
    component.created_at = Math.floor(Date.now() / 1000);
    this.metadata.data.components.push(component);
    this.changed();
  }

  /** Loads, validates and saves module text. */
  async save(code: string, filename: string, spawn: SandboxFactory, options: SaveOptions = {}): Promise<ComponentRecord> {
    const { component, sandbox } = await this.load(code, filename, spawn, options);
    await sandbox.close();
    const known = this.isSaved(component);
    if (!known && options.origin) component.origin = options.origin;
    // Saved by the user after a registry run saved the same code: the user's now.
    const adopted = known && !options.origin && component.origin !== undefined;
    if (adopted) delete component.origin;
    this.remember(component);
    await this.metadata.write();
    if (adopted) this.changed();
    return component;
  }

  /** Forgets saved components (the caller has checked nothing uses them) and writes the metadata. */
  async remove(ids: ReadonlySet<string>): Promise<void> {
    this.metadata.data.components = this.metadata.data.components.filter((c) => !ids.has(c.id));
    for (const [text, c] of this.checked) if (ids.has(c.id)) this.checked.delete(text);
    await this.metadata.write();
    this.changed();
  }

  /** Calls `listener` whenever a component is saved, adopted or removed; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
