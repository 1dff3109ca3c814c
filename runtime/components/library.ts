import { newId } from '../lib/ids';
import type { Sandbox } from '../sandbox/sandbox';
import type { ComponentRecord, Metadata } from '../store/metadata';
import { bundleComponent } from './bundle';
import { ComponentError } from '../lib/error-kinds';
import { type ComponentProblem } from '../contract/component-shape';
import type { ComponentDescription } from '../contract/component-shape';
import type { PackageCache, ProgressListener } from './packages';
import { validateComponent } from './validate';

/** Starts a sandbox on a bundle; the caller decides where its logs go. */
export type SandboxFactory = (bundle: Pick<ComponentRecord, 'bundle' | 'filename'>) => Promise<{ sandbox: Sandbox; description: ComponentDescription }>;

/** What `lint` found: the component (null when it has errors) with its errors and warnings. */
export interface LintResult {
  errors: ComponentProblem[];
  warnings: ComponentProblem[];
  component: Pick<ComponentRecord, 'key' | 'name' | 'version' | 'type'> | null;
}

/** Per-call options of loading or saving a component. */
export interface LoadOptions {
  /** Receives progress lines of package installs the load waits for (`installing x@^1 …`). */
  onProgress?: ProgressListener;
}

/**
 * Saved components (`sc_…`): module text turned into a validated record. Loading runs the
 * module in a sandbox (its code never runs on the service's thread) to learn what it declares.
 */
export class ComponentLibrary {
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

  /** The saved component of exactly this module text (its sha256), if any. */
  findByHash(codeHash: string): ComponentRecord | undefined {
    return this.metadata.data.components.findLast((c) => c.code_hash === codeHash);
  }

  /**
   * Bundles, loads and validates module text; returns the component record (the saved one if
   * the same code was saved before) and the sandbox it is loaded in. Nothing is saved. Packages
   * the code imports are installed first if not cached; a package failure is a ComponentError.
   */
  async load(code: string, filename: string, spawn: SandboxFactory, options: LoadOptions = {}): Promise<{ component: ComponentRecord; sandbox: Sandbox }> {
    const bundle = await bundleComponent(code, filename, { packages: this.packages, onProgress: options.onProgress });
    let loaded: Awaited<ReturnType<SandboxFactory>>;
    try {
      loaded = await spawn({ bundle: bundle.code, filename });
    } catch (err) {
      throw new ComponentError([{ path: filename, message: (err as Error).message }]);
    }
    try {
      const valid = validateComponent(loaded.description);
      const existing = this.metadata.data.components.find((c) => c.code_hash === bundle.codeHash);
      // Records saved by an older Spout lack warnings, or have those of older rules.
      if (existing) existing.warnings = valid.warnings;
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
        created_at: Math.floor(Date.now() / 1000),
      };
      return { component, sandbox: loaded.sandbox };
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
      const { key, name, version, type } = component;
      return { errors: [], warnings: component.warnings ?? [], component: { key, name, version, type } };
    } catch (err) {
      if (err instanceof ComponentError) return { errors: err.problems, warnings: err.warnings, component: null };
      throw err;
    }
  }

  /** Keeps a component record (if it is new); the caller writes the metadata. */
  remember(component: ComponentRecord): void {
    if (!this.metadata.data.components.some((c) => c.id === component.id)) this.metadata.data.components.push(component);
  }

  /** Loads, validates and saves module text. */
  async save(code: string, filename: string, spawn: SandboxFactory, options: LoadOptions = {}): Promise<ComponentRecord> {
    const { component, sandbox } = await this.load(code, filename, spawn, options);
    await sandbox.close();
    this.remember(component);
    await this.metadata.write();
    return component;
  }
}
