import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { BuildContext, BuildOptions, BuildResult, Plugin } from 'esbuild';
import semver from 'semver';
import { ComponentError } from '../lib/error-kinds';
import { asComponentError } from './bundle';
import { isPlatformImport } from './platform-packages';
import { siblingAppsPlugin, treeOf } from './sibling-apps';

/** A component file with its relative imports inlined: the text to send as `component_code`. */
export interface BundledFile {
  code: string;
  /** The entry's base name (picks the loader and names the file in stack traces). */
  filename: string;
  /** Absolute paths of every local file that went in (the entry and its relative imports), to watch. */
  inputs: string[];
  /** The package.json files read (or looked for and missing) to pin bare imports: a change to one can change the bundle. */
  manifests: string[];
}

/** A bare import's package name and the rest (`@scope/name/sub` → `@scope/name`, `/sub`); null when it is pinned already. */
function unpinned(specifier: string): { name: string; subpath: string } | null {
  const parts = specifier.split('/');
  const count = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, count).join('/');
  if (name.slice(1).includes('@')) return null;
  return { name, subpath: parts.slice(count).length ? `/${parts.slice(count).join('/')}` : '' };
}

/** The `dependencies` of the package.json nearest above `dir` (the app's, in the registry's layout), cached per folder. */
function nearestDependencies(dir: string, cache: Map<string, Record<string, string>>): Record<string, string> {
  const known = cache.get(dir);
  if (known) return known;
  let deps: Record<string, string> = {};
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    deps = manifest.dependencies ?? {};
  } catch (err) {
    const parent = path.dirname(dir);
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && parent !== dir) deps = nearestDependencies(parent, cache);
  }
  cache.set(dir, deps);
  return deps;
}

/**
 * Pins each unpinned bare import to the range the nearest package.json declares for it, as
 * Pipedream installs an app's dependencies (`import x from "pkg"` with `"pkg": "^23.0.0"` becomes
 * `pkg@^23.0.0`). Imports that package.json does not name, or names with a non-semver range
 * (`workspace:*`, a git URL), stay as written.
 */
function packageRangesPlugin(cache: Map<string, Record<string, string>>): Plugin {
  return {
    name: 'spout-package-ranges',
    setup(build) {
      build.onResolve({ filter: /^[^./\\]/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        // Spout provides the platform packages whatever version is asked.
        const bare = isBuiltin(args.path) || isPlatformImport(args.path) ? null : unpinned(args.path);
        const range = bare ? nearestDependencies(args.resolveDir, cache)[bare.name] : undefined;
        if (!bare || !range || !semver.validRange(range)) return { path: args.path, external: true };
        return { path: `${bare.name}@${range}${bare.subpath}`, external: true };
      });
    },
  };
}

/** Where `bundleFile` finds sibling apps, and where local imports may reach. */
export interface BundleFileOptions {
  /** Registry trees holding apps other apps import (`@pipedream/<app>`), after the file's own tree. */
  trees?: readonly string[];
  /** A folder relative and absolute imports must stay inside (files sent over the API must not read others). */
  confine?: string;
}

/** Refuses local imports that leave `dir`, naming the import and the way to fix it. */
function confinePlugin(dir: string): Plugin {
  return {
    name: 'spout-confine',
    setup(build) {
      build.onResolve({ filter: /^(\.{1,2}(\/|$)|\/)/ }, (args) => {
        const inside = (p: string) => p === dir || p.startsWith(dir + path.sep);
        // A sibling app of a registry folder (sibling-apps.ts) imports its own files: the registry is the service's, not the sender's.
        if (args.importer && !inside(args.importer)) return undefined;
        if (inside(path.resolve(args.resolveDir, args.path))) return undefined;
        return { errors: [{ text: `${args.path} is outside the component's files; add the file it names to files, at a path inside them` }] };
      });
    },
  };
}

/**
 * Inlines a component file's relative imports (app files, `common/` spreads) into one module.
 * An ES module stays one (its imports of packages stay `import`s, so the service gives them ES
 * module semantics); a CommonJS file stays CommonJS (its `require`s of packages stay plain
 * `require` calls). Bare imports, pinned ones included (`axios@1.6.0`), stay imports: the service
 * resolves them, each pinned to its range in the nearest package.json when not pinned already.
 * An import of another registry app (`@pipedream/<app>`) is inlined from the file's own registry
 * tree, or one of `trees`, when it holds that app (sibling-apps.ts).
 */
export async function bundleFile(entry: string, bundleOptions: BundleFileOptions = {}): Promise<BundledFile> {
  const absolute = path.resolve(entry);
  // Dependencies by folder, as the package.json files above the imports declare them.
  const manifests = new Map<string, Record<string, string>>();
  const options = fileBuildOptions(absolute, bundleOptions, manifests);
  try {
    // Loaded when first needed (bundle.ts says why).
    const { build } = await import('esbuild');
    let result: BuildResult<FileBuildOptions> = await build({ ...options, format: 'esm' });
    // ES module output would hide a CommonJS file's `require`s behind esbuild's helper.
    if (entryFormat(result, absolute) === 'cjs') result = await build({ ...options, format: 'cjs' });
    return bundledOf(result, entry, absolute, manifests);
  } catch (err) {
    throw asComponentError(err, entry);
  }
}

/**
 * Bundles one component file again on every save (`spout dev`), as `bundleFile` does, with
 * esbuild's incremental rebuilds: a file that did not change since the last build is not read
 * and parsed again. `dispose` ends its esbuild contexts.
 */
export class FileBundler {
  private readonly absolute: string;
  private readonly manifests = new Map<string, Record<string, string>>();
  private readonly contexts = new Map<'esm' | 'cjs', Promise<BuildContext<FileBuildOptions>>>();

  constructor(
    private readonly entry: string,
    private readonly options: BundleFileOptions = {},
  ) {
    this.absolute = path.resolve(entry);
  }

  /** The file bundled as it is now. */
  async bundle(): Promise<BundledFile> {
    // A package.json may have changed since the last save.
    this.manifests.clear();
    try {
      let result = await this.rebuild('esm');
      if (entryFormat(result, this.absolute) === 'cjs') result = await this.rebuild('cjs');
      return bundledOf(result, this.entry, this.absolute, this.manifests);
    } catch (err) {
      throw asComponentError(err, this.entry);
    }
  }

  /** Ends the esbuild contexts (they keep esbuild's process busy). */
  async dispose(): Promise<void> {
    const contexts = [...this.contexts.values()];
    this.contexts.clear();
    await Promise.all(contexts.map(async (c) => (await c.catch(() => null))?.dispose()));
  }

  private rebuild(format: 'esm' | 'cjs'): Promise<BuildResult<FileBuildOptions>> {
    let context = this.contexts.get(format);
    if (!context) {
      const options = { ...fileBuildOptions(this.absolute, this.options, this.manifests), format };
      context = import('esbuild').then((esbuild) => esbuild.context(options));
      this.contexts.set(format, context);
    }
    return context.then((c) => c.rebuild());
  }
}

type FileBuildOptions = BuildOptions & { write: false; metafile: true };

/** esbuild's options for a component file but its format; `manifests` is filled with the package.json files read. */
function fileBuildOptions(absolute: string, bundleOptions: BundleFileOptions, manifests: Map<string, Record<string, string>>): FileBuildOptions {
  const own = treeOf(absolute);
  const trees = [...new Set([...(own ? [own] : []), ...(bundleOptions.trees ?? []).map((t) => path.resolve(t))])];
  return {
    entryPoints: [absolute],
    bundle: true,
    plugins: [...(bundleOptions.confine ? [confinePlugin(path.resolve(bundleOptions.confine))] : []), siblingAppsPlugin(trees), packageRangesPlugin(manifests)],
    platform: 'node',
    target: 'node20',
    write: false,
    // Stack traces point at the user's own files: the service's bundling carries this map on.
    sourcemap: 'inline',
    sourcesContent: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: path.dirname(absolute),
  };
}

/** The module format esbuild found the entry file in. */
function entryFormat(result: BuildResult<FileBuildOptions>, absolute: string): string | undefined {
  return Object.entries(result.metafile.inputs).find(([p]) => path.resolve(path.dirname(absolute), p) === absolute)?.[1].format;
}

/** What a build of the entry produced, with the files that went in. */
function bundledOf(result: BuildResult<FileBuildOptions>, entry: string, absolute: string, manifests: Map<string, Record<string, string>>): BundledFile {
  const out = result.outputFiles[0];
  if (!out) throw new ComponentError([{ path: entry, message: 'the bundler produced no output' }]);
  const inputs = Object.keys(result.metafile.inputs).map((p) => path.resolve(path.dirname(absolute), p));
  return { code: out.text, filename: path.basename(absolute), inputs, manifests: [...manifests.keys()].map((dir) => path.join(dir, 'package.json')) };
}
