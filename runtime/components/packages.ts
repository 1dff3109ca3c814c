import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import semver from 'semver';
import { IMPORT_PREFIX, REQUIRE_PREFIX } from '../sandbox/child/component-require';
import { makePrivateDir } from '../lib/private-files';

/** Receives human-readable progress lines such as `installing left-pad@^1.3 …`. */
export type ProgressListener = (line: string) => void;

/** A bare import as written in component code, split into its parts. */
export interface PackageSpecifier {
  /** The import string as written, e.g. `@scope/name@^2/sub/path`. */
  raw: string;
  /** Package name, scope included. */
  name: string;
  /** The pinned semver range (`1.2.3`, `~1.2`, `^1`), or null when unpinned. */
  range: string | null;
  /** `''`, or the path inside the package with a leading slash (`/sub/path`). */
  subpath: string;
}

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

/** Why a package could not be provided. */
export type PackageErrorKind = 'invalid-specifier' | 'unreachable' | 'not-found' | 'no-matching-version' | 'npm-missing' | 'install-failed';

/** A bare import that cannot be provided; the message names the package and says what to do. */
export class PackageError extends Error {
  constructor(
    readonly kind: PackageErrorKind,
    readonly specifier: string,
    message: string,
  ) {
    super(message);
    this.name = 'PackageError';
  }
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

// npm's error codes for "could not talk to the registry at all", as opposed to the registry saying no.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'ECONNABORTED', 'EPIPE', 'ERR_SOCKET_TIMEOUT', 'ENOTCONN']);

// One segment of a package name: npm allows URL-safe characters, not starting with `.` or `_`.
const NAME_PART = /^[A-Za-z0-9~-][A-Za-z0-9._~-]*$/;

/** Prefix of folders an install is still writing; they never count as cached. */
const TEMP_PREFIX = '.install-';

/** Splits a bare import (`name/sub`, `@scope/name@^2/sub`, …) into name, pin and subpath; throws a PackageError if malformed. */
export function parseSpecifier(raw: string): PackageSpecifier {
  const bad = (why: string) => new PackageError('invalid-specifier', raw, `import "${raw}" is not a valid package import: ${why}`);
  const segments = raw.split('/');
  const scoped = raw.startsWith('@');
  const scope = scoped ? segments[0]!.slice(1) : null;
  const nameSegment = (scoped ? segments[1] : segments[0]) ?? '';
  const rest = segments.slice(scoped ? 2 : 1);
  // The pin sits on the name segment (Pipedream's form), before any subpath.
  const at = nameSegment.indexOf('@');
  const bare = at === -1 ? nameSegment : nameSegment.slice(0, at);
  const range = at === -1 ? null : nameSegment.slice(at + 1).trim();
  if (scope !== null && !NAME_PART.test(scope)) throw bad(`"@${scope}" is not a valid scope`);
  if (!NAME_PART.test(bare)) throw bad(bare ? `"${bare}" is not a valid package name` : 'the package name is missing');
  if (range !== null && (range === '' || !semver.validRange(range))) {
    throw bad(`"${range}" is not a version or range; pin like name@1.2.3, name@~1.2 or name@^1`);
  }
  if (rest.some((s) => s === '' || s === '.' || s === '..')) throw bad('the path inside the package is malformed');
  return { raw, name: scope === null ? bare : `@${scope}/${bare}`, range, subpath: rest.length ? `/${rest.join('/')}` : '' };
}

/** `1.2 s`, `35 s`, `2 min 5 s`. */
function duration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** An install (or cache lookup) under way, shared by every request for the same spec. */
interface Job {
  promise: Promise<CachedPackage>;
  /** Lines so far, replayed to whoever joins late. */
  lines: string[];
  listeners: Set<ProgressListener>;
}

interface NpmResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  spawnError?: NodeJS.ErrnoException;
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

  /** Installs `spec` with npm into a temp folder, then renames it into place. */
  private async install(spec: PackageSpecifier, notify: ProgressListener): Promise<CachedPackage> {
    const label = spec.range === null ? `${spec.name} (latest)` : `${spec.name}@${spec.range}`;
    // 0700: npm writes its files with its own modes, and only this folder keeps them private.
    makePrivateDir(this.dir);
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
        result = await this.npm(temp, spec.range === null ? spec.name : `${spec.name}@${spec.range}`, notify);
      } finally {
        clearInterval(ticker);
      }
      if (result.code !== 0) throw await this.installError(spec, result);
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

  /** Runs `npm install` of one package into `prefix`. */
  private npm(prefix: string, what: string, notify: ProgressListener): Promise<NpmResult> {
    const args = [
      'install',
      '--prefix',
      prefix,
      // Spout's own npm cache: behaviour never depends on what ~/.npm happens to hold.
      '--cache',
      path.join(this.dir, '.npm'),
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-bin-links',
      '--no-update-notifier',
      '--json',
      '--fetch-retries',
      String(this.fetchRetries),
      // npm waits 10 s and more between retries; a deploy should not hang that long offline.
      '--fetch-retry-mintimeout',
      '1000',
      '--fetch-retry-maxtimeout',
      '4000',
      ...(this.registry ? ['--registry', this.registry] : []),
      what,
    ];
    const env = { ...process.env };
    // Set when Spout itself runs under an npm script; they would point npm at another project.
    for (const name of Object.keys(env)) {
      if (/^npm_(config_(local_)?prefix|package_|lifecycle_)/i.test(name)) delete env[name];
    }
    const windows = process.platform === 'win32';
    return new Promise((resolve) => {
      // npm is a .cmd on Windows, which only a shell runs; quoting keeps `^` of ranges literal there.
      const child = spawn(windows ? 'npm.cmd' : 'npm', windows ? args.map((a) => `"${a}"`) : args, {
        cwd: prefix,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: windows,
        windowsHide: true,
      });
      let stdout = '';
      let stderr = '';
      let pending = '';
      let timedOut = false;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        // Deprecation notices are worth passing on; the rest is in the error when npm fails.
        for (const line of lines) if (/^npm warn deprecated/i.test(line)) notify(line.trim());
      });
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill();
      }, this.installTimeoutMs);
      timer.unref();
      child.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve({ code: null, stdout, stderr, timedOut, spawnError: err });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, timedOut });
      });
    });
  }

  /** The registry installs use, for messages: the configured one, else what npm says it uses. */
  private registryUrl(): Promise<string> {
    if (this.registry) return Promise.resolve(this.registry);
    return (this.configuredRegistry ??= new Promise((resolve) => {
      const windows = process.platform === 'win32';
      const child = spawn(windows ? 'npm.cmd' : 'npm', ['config', 'get', 'registry'], { stdio: ['ignore', 'pipe', 'ignore'], shell: windows, windowsHide: true });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.on('error', () => resolve("npm's configured registry"));
      child.on('close', () => resolve(out.trim() || "npm's configured registry"));
    }));
  }

  /** Turns a failed npm run into a PackageError that names the package and says what to do. */
  private async installError(spec: PackageSpecifier, result: NpmResult): Promise<PackageError> {
    const quoted = `"${spec.raw}"`;
    if (result.spawnError) {
      const why = result.spawnError.code === 'ENOENT' ? 'npm, which installs it, was not found on PATH; install Node.js with npm' : `npm could not be started (${result.spawnError.message})`;
      return new PackageError('npm-missing', spec.raw, `package ${quoted} is not in Spout's package cache and ${why}, then deploy again`);
    }
    const registry = await this.registryUrl();
    if (result.timedOut) {
      return new PackageError('install-failed', spec.raw, `package ${quoted} could not be installed from registry ${registry}: npm took longer than ${duration(this.installTimeoutMs)} and was stopped; try again`);
    }
    let code: string | undefined;
    let summary = '';
    let detail = '';
    try {
      const parsed = JSON.parse(result.stdout) as { error?: { code?: string; summary?: string; detail?: string } };
      code = parsed.error?.code;
      summary = parsed.error?.summary ?? '';
      detail = parsed.error?.detail ?? '';
    } catch {
      // npm failed before printing JSON; fall back to its log lines
    }
    code ??= /npm error code (\S+)/.exec(result.stderr)?.[1];
    if (!summary) {
      const lines = result.stderr.split('\n').filter((l) => /^npm error /.test(l) && !/ code | A complete log/.test(l));
      summary = lines.map((l) => l.replace(/^npm error /, '')).join(' ').trim() || `npm exited with status ${result.code}`;
    }
    const about = `${summary} ${detail}`;
    if (code && UNREACHABLE.has(code)) {
      return new PackageError(
        'unreachable',
        spec.raw,
        `package ${quoted} is not in Spout's package cache and could not be installed (registry ${registry} unreachable: ${code}); connect to the network once, or start Spout with --npm-registry pointing at a registry it can reach, and deploy again (once cached, it works offline)`,
      );
    }
    // 404 and ETARGET may concern a dependency of the package rather than the package itself.
    if (code === 'E404' && (about.includes(`'${spec.name}@`) || about.includes(`/${spec.name.replace('/', '%2f')} `) || about.includes(`/${spec.name} `))) {
      return new PackageError('not-found', spec.raw, `package "${spec.name}" (import ${quoted}) does not exist in registry ${registry}; check the package name`);
    }
    if (code === 'ETARGET' && about.includes(`for ${spec.name}@`)) {
      return new PackageError(
        'no-matching-version',
        spec.raw,
        `package "${spec.name}" has no version matching "${spec.range ?? 'latest'}" in registry ${registry} (import ${quoted}); pin a published version (in the import, or in the dependencies of the package.json beside the component, which unpinned imports follow)`,
      );
    }
    return new PackageError('install-failed', spec.raw, `package ${quoted} could not be installed from registry ${registry}: ${summary}`);
  }
}
