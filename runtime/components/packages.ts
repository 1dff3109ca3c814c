// The package cache: npm packages that component code imports, one folder per exact version,
// found by the bundler's plugin and installed on first use (npm-install.ts runs npm).

import { realpathSync } from 'node:fs';
import fs from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import semver from 'semver';
import { makePrivateDir } from '../lib/private-files';
import { IMPORT_PREFIX, REQUIRE_PREFIX } from '../sandbox/child/component-require';
import { duration, installError, type NpmResult, npmConfiguredRegistry, npmInstall, npmVersions } from './npm-install';
import { PackageError, type PackageSpecifier, parseSpecifier } from './package-specifier';
import { installOlder } from './version-fallback';

/** Receives human-readable progress lines such as `installing left-pad@^1.3 …`. */
export type ProgressListener = (line: string) => void;

/** A package version present in the cache. */
export interface CachedPackage {
  name: string;
  /** Exact version installed. */
  version: string;
  /** Install folder: the package is at `root/node_modules/<name>`. */
  root: string;
}

/** A cached package plus the subpath the import asked for. */
export interface ResolvedPackage extends CachedPackage {
  subpath: string;
}

/** Options of a package cache. */
export interface PackageCacheOptions {
  /** Where packages are installed (`DATA_DIR/packages`). */
  dir: string;
  /** npm registry URL; default: npm's own configuration. */
  registry?: string;
  /** Receives progress lines of every install. */
  onProgress?: ProgressListener;
  /** How often a running install reports that it is still running. Default 5 s. */
  progressIntervalMs?: number;
  /** npm's retries of a failed request (`--fetch-retries`). Default 1. */
  fetchRetries?: number;
  /** An install running longer is stopped. Default 10 min. */
  installTimeoutMs?: number;
}

/** Prefix of folders an install is still writing; they never count as cached. */
const TEMP_PREFIX = '.install-';

/** An install (or cache lookup) under way, shared by every request for the same spec. */
interface Job {
  promise: Promise<CachedPackage>;
  /** Lines so far, replayed to whoever joins late. */
  lines: string[];
  listeners: Set<ProgressListener>;
}

// One folder per exact version (`dir/<name>@<version>/node_modules/<name>`, a scope's `/` written
// `+`) so that components pinning different versions each get theirs; a cached version satisfying
// an import is used without touching the network, so what was installed once works offline.
/** npm packages that component code imports, installed with npm on first use into a folder. */
export class PackageCache {
  /** Where packages are installed. */
  readonly dir: string;
  private readonly registry: string | undefined;
  private readonly onProgress: ProgressListener | undefined;
  private readonly progressIntervalMs: number;
  private readonly fetchRetries: number;
  private readonly installTimeoutMs: number;
  private readonly jobs = new Map<string, Job>();
  private realDir: string | null = null;
  private configuredRegistry: Promise<string> | null = null;

  constructor(options: PackageCacheOptions) {
    this.dir = path.resolve(options.dir);
    this.registry = options.registry;
    this.onProgress = options.onProgress;
    this.progressIntervalMs = options.progressIntervalMs ?? 5000;
    this.fetchRetries = options.fetchRetries ?? 1;
    this.installTimeoutMs = options.installTimeoutMs ?? 10 * 60_000;
  }

  /** Creates the cache folder (0700) if it is missing: hosts are granted it, which works only for a folder that exists when they start. */
  ensureDir(): void {
    makePrivateDir(this.dir);
  }

  /** The cached package for a bare import, installed first unless a cached version satisfies the pin; throws a PackageError. */
  async resolve(specifier: string, options: { onProgress?: ProgressListener } = {}): Promise<ResolvedPackage> {
    const spec = parseSpecifier(specifier);
    // Keyed without the subpath: `x/a` and `x/b` need the same install.
    const key = `${spec.name}@${spec.range ?? ''}`;
    let job = this.jobs.get(key);
    if (!job) {
      const lines: string[] = [];
      const listeners = new Set<ProgressListener>();
      const notify = (line: string) => {
        lines.push(line);
        this.onProgress?.(line);
        for (const listener of listeners) listener(line);
      };
      // The cache lookup is part of the job, so that requests arriving while it runs join it
      // instead of each deciding to install.
      const promise = (async () => (await this.findCached(spec.name, spec.range)) ?? this.install(spec, notify))().finally(() => {
        this.jobs.delete(key);
      });
      job = { promise, lines, listeners };
      this.jobs.set(key, job);
    } else if (options.onProgress && !job.listeners.has(options.onProgress)) {
      for (const line of job.lines) options.onProgress(line);
    }
    // No removal afterwards: the job ends with the install, and nothing is reported after that.
    if (options.onProgress) job.listeners.add(options.onProgress);
    const found = await job.promise;
    return { ...found, subpath: spec.subpath };
  }

  /** The newest cached version of `name` satisfying `range` (any, when null), without touching the network. */
  async findCached(name: string, range: string | null): Promise<CachedPackage | null> {
    const versions = await this.cachedVersions(name);
    const version = range === null ? (versions.sort(semver.rcompare)[0] ?? null) : semver.maxSatisfying(versions, range);
    return version ? { name, version, root: this.folder(name, version) } : null;
  }

  /** Exact versions of `name` in the cache, complete installs only. */
  async cachedVersions(name: string): Promise<string[]> {
    const prefix = `${name.replace('/', '+')}@`;
    let entries: string[];
    try {
      entries = await fs.readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const versions: string[] = [];
    for (const entry of entries) {
      if (!entry.startsWith(prefix)) continue;
      const version = entry.slice(prefix.length);
      if (semver.valid(version) === version && (await this.complete(name, version))) versions.push(version);
    }
    return versions;
  }

  /**
   * An esbuild plugin resolving the component's bare imports through this cache: each is installed
   * if need be, and left as a marked `require` of the file it resolves to, loaded at run time.
   */
  plugin(options: { onProgress?: ProgressListener } = {}): Plugin {
    return {
      name: 'spout-package-cache',
      setup: (build) => {
        // Only imports written in the component come here (packages are not bundled, so their own
        // imports are Node's business at run time); builtins stay as they are.
        build.onResolve({ filter: /^[^./\\]/ }, async (args) => {
          if (args.kind === 'entry-point' || path.isAbsolute(args.path)) return undefined;
          // The resolution below, from inside an install folder, is esbuild's own.
          if (this.isInside(args.resolveDir)) return undefined;
          if (isBuiltin(args.path)) return { path: args.path, external: true };
          let spec: PackageSpecifier;
          let pkg: ResolvedPackage;
          try {
            spec = parseSpecifier(args.path);
            pkg = await this.resolve(args.path, options);
          } catch (err) {
            const message = (err as Error).message;
            // PackageErrors name the package already; anything else (a disk error) gets it added.
            return { errors: [{ text: err instanceof PackageError ? message : `package "${args.path}" could not be provided: ${message}` }] };
          }
          // Resolving from inside the install folder applies the package's own `exports`/`main`
          // (`import` or `require` conditions, as the import is written); this plugin steps aside
          // there, so this does not recurse.
          const found = await build.resolve(spec.name + spec.subpath, { kind: args.kind, resolveDir: pkg.root });
          if (found.errors.length) return { errors: found.errors };
          return { path: `${args.kind === 'require-call' ? REQUIRE_PREFIX : IMPORT_PREFIX}${found.path}`, external: true };
        });
      },
    };
  }

  /** Install folder of an exact version. */
  private folder(name: string, version: string): string {
    return path.join(this.dir, `${name.replace('/', '+')}@${version}`);
  }

  /** Whether a version's folder holds the installed package (folders are renamed into place only when complete). */
  private async complete(name: string, version: string): Promise<boolean> {
    try {
      await fs.access(path.join(this.folder(name, version), 'node_modules', ...name.split('/'), 'package.json'));
      return true;
    } catch {
      return false;
    }
  }

  /** Whether a path lies in the cache (esbuild reports real paths, so the real dir counts too). */
  private isInside(p: string): boolean {
    if (!p || !path.isAbsolute(p)) return false;
    if (this.realDir === null) {
      try {
        this.realDir = realpathSync(this.dir);
      } catch {
        // not created yet; try again next time
      }
    }
    return [this.dir, this.realDir].some((dir) => {
      if (dir === null) return false;
      const rel = path.relative(dir, p);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
  }

  /** Installs `spec`; when a dependency of the version npm picks cannot be resolved, the newest older one in range that installs (version-fallback.ts). */
  private async install(spec: PackageSpecifier, notify: ProgressListener): Promise<CachedPackage> {
    try {
      return await this.installRange(spec, spec.range, notify);
    } catch (err) {
      if (!(err instanceof PackageError) || err.kind !== 'broken-dependency') throw err;
      const npm = { prefix: this.dir, cacheDir: path.join(this.dir, '.npm'), registry: this.registry, fetchRetries: this.fetchRetries, timeoutMs: this.installTimeoutMs };
      return installOlder(spec, err, { versions: () => npmVersions({ ...npm, name: spec.name }), install: (version) => this.installRange(spec, version, notify), notify });
    }
  }

  /** Installs `spec` at `range` (a version, a range, or null: latest) with npm into a temp folder, then renames it into place. */
  private async installRange(spec: PackageSpecifier, range: string | null, notify: ProgressListener): Promise<CachedPackage> {
    const label = range === null ? `${spec.name} (latest)` : `${spec.name}@${range}`;
    // 0700: npm writes its files with its own modes, and only this folder keeps them private.
    this.ensureDir();
    await this.sweepTemps();
    const temp = await fs.mkdtemp(path.join(this.dir, TEMP_PREFIX));
    try {
      // A package.json of its own keeps npm from looking for a project further up.
      await fs.writeFile(path.join(temp, 'package.json'), `${JSON.stringify({ name: 'spout-package-cache-entry', private: true })}\n`);
      const started = Date.now();
      notify(`installing ${label} …`);
      const ticker = setInterval(() => notify(`still installing ${label} … (${duration(Date.now() - started)})`), this.progressIntervalMs);
      ticker.unref();
      let result: NpmResult;
      try {
        const what = range === null ? spec.name : `${spec.name}@${range}`;
        result = await npmInstall({ prefix: temp, what, cacheDir: path.join(this.dir, '.npm'), registry: this.registry, fetchRetries: this.fetchRetries, timeoutMs: this.installTimeoutMs }, notify);
      } finally {
        clearInterval(ticker);
      }
      if (result.code !== 0) throw await installError(spec, result, () => this.registryUrl(), this.installTimeoutMs);
      const manifestFile = path.join(temp, 'node_modules', ...spec.name.split('/'), 'package.json');
      let version: string | null = null;
      try {
        version = semver.valid((JSON.parse(await fs.readFile(manifestFile, 'utf8')) as { version?: string }).version ?? '');
      } catch {
        // reported below
      }
      if (!version) throw new PackageError('install-failed', spec.raw, `package "${spec.raw}": npm finished but ${spec.name} is not installed with a valid version`);
      const target = this.folder(spec.name, version);
      try {
        await fs.rename(temp, target);
      } catch (err) {
        // Another install (another pin resolving to the same version) got there first: use it.
        if (!(await this.complete(spec.name, version))) {
          // A damaged folder in the way (not one of ours: ours appear complete or not at all).
          await fs.rm(target, { recursive: true, force: true });
          await fs.rename(temp, target).catch(() => {
            throw err;
          });
        }
      }
      notify(`installed ${spec.name}@${version} in ${duration(Date.now() - started)}`);
      return { name: spec.name, version, root: target };
    } finally {
      // Gone already after a successful rename; otherwise a half-finished install is removed.
      await fs.rm(temp, { recursive: true, force: true });
    }
  }

  /** Removes temp folders left by installs that were killed (older than a day, so never a running one). */
  private async sweepTemps(): Promise<void> {
    const entries = await fs.readdir(this.dir).catch(() => [] as string[]);
    for (const entry of entries) {
      if (!entry.startsWith(TEMP_PREFIX)) continue;
      const full = path.join(this.dir, entry);
      const stat = await fs.stat(full).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs > 24 * 3600_000) await fs.rm(full, { recursive: true, force: true });
    }
  }

  /** The registry installs use, for messages: the configured one, else what npm says it uses. */
  private registryUrl(): Promise<string> {
    if (this.registry) return Promise.resolve(this.registry);
    return (this.configuredRegistry ??= npmConfiguredRegistry());
  }
}
