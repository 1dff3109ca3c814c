// Running npm for the package cache: `npm install` of one package into a folder, and turning a
// failed run into a PackageError that names the package and says what to do.
import { spawn } from 'node:child_process';
import { PackageError, type PackageSpecifier } from './package-specifier';

/** How one npm run ended. */
export interface NpmResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  spawnError?: NodeJS.ErrnoException;
}

/** What an install runs with. */
export interface NpmInstallOptions {
  /** Folder installed into (`prefix/node_modules/<name>`). */
  prefix: string;
  /** `name` or `name@range`. */
  what: string;
  /** npm's own cache folder for Spout. */
  cacheDir: string;
  /** npm registry URL; default: npm's own configuration. */
  registry: string | undefined;
  /** npm's retries of a failed request. */
  fetchRetries: number;
  /** A run longer than this is stopped. */
  timeoutMs: number;
}

// npm's error codes for "could not talk to the registry at all", as opposed to the registry saying no.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'ECONNABORTED', 'EPIPE', 'ERR_SOCKET_TIMEOUT', 'ENOTCONN']);

/** `1.2 s`, `35 s`, `2 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const windows = process.platform === 'win32';

/** Options every npm run takes: Spout's own cache, the registry, retries that fail fast. */
function commonArgs(options: Pick<NpmInstallOptions, 'cacheDir' | 'registry' | 'fetchRetries'>): string[] {
  return [
    // Spout's own npm cache: behaviour never depends on what ~/.npm happens to hold.
    '--cache',
    options.cacheDir,
    '--no-update-notifier',
    '--json',
    '--fetch-retries',
    String(options.fetchRetries),
    // npm waits 10 s and more between retries; a deploy should not hang that long offline.
    '--fetch-retry-mintimeout',
    '1000',
    '--fetch-retry-maxtimeout',
    '4000',
    ...(options.registry ? ['--registry', options.registry] : []),
  ];
}

/** Runs `npm install` of one package; deprecation notices go to `notify` as they come. */
export function npmInstall(options: NpmInstallOptions, notify: (line: string) => void): Promise<NpmResult> {
  const args = ['install', '--prefix', options.prefix, '--no-audit', '--no-fund', '--ignore-scripts', '--no-bin-links', ...commonArgs(options), options.what];
  return runNpm(args, options.prefix, options.timeoutMs, (line) => {
    // Deprecation notices are worth passing on; the rest is in the error when npm fails.
    if (/^npm warn deprecated/i.test(line)) notify(line.trim());
  });
}

/** The published versions of a package and its `latest` tag (`npm view`), or null when npm cannot tell. */
export async function npmVersions(options: Omit<NpmInstallOptions, 'what'> & { name: string }): Promise<{ versions: string[]; latest: string | undefined } | null> {
  const result = await runNpm(['view', options.name, 'versions', 'dist-tags', ...commonArgs(options)], options.prefix, options.timeoutMs, () => undefined);
  if (result.code !== 0) return null;
  try {
    const parsed = JSON.parse(result.stdout) as { versions?: string[] | string; 'dist-tags'?: { latest?: string } };
    const versions = typeof parsed.versions === 'string' ? [parsed.versions] : (parsed.versions ?? []);
    return { versions, latest: parsed['dist-tags']?.latest };
  } catch {
    return null;
  }
}

/** Runs npm with `args` in `cwd`; each stderr line goes to `onLine` as it comes. */
function runNpm(args: string[], cwd: string, timeoutMs: number, onLine: (line: string) => void): Promise<NpmResult> {
  const env = { ...process.env };
  // Set when Spout itself runs under an npm script; they would point npm at another project.
  for (const name of Object.keys(env)) {
    if (/^npm_(config_(local_)?prefix|package_|lifecycle_)/i.test(name)) delete env[name];
  }
  return new Promise((resolve) => {
    // npm is a .cmd on Windows, which only a shell runs; quoting keeps `^` of ranges literal there.
    const child = spawn(windows ? 'npm.cmd' : 'npm', windows ? args.map((a) => `"${a}"`) : args, {
      cwd,
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
      for (const line of lines) onLine(line);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, timeoutMs);
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

/** The registry npm is configured with (`npm config get registry`), for messages. */
export function npmConfiguredRegistry(): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(windows ? 'npm.cmd' : 'npm', ['config', 'get', 'registry'], { stdio: ['ignore', 'pipe', 'ignore'], shell: windows, windowsHide: true });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', () => resolve("npm's configured registry"));
    child.on('close', () => resolve(out.trim() || "npm's configured registry"));
  });
}

/**
 * Turns a failed npm run into a PackageError that names the package and says what to do;
 * `registryUrl` names the registry in messages (not asked when npm could not be started).
 */
export async function installError(spec: PackageSpecifier, result: NpmResult, registryUrl: () => Promise<string>, timeoutMs: number): Promise<PackageError> {
  const quoted = `"${spec.raw}"`;
  if (result.spawnError) {
    const why = result.spawnError.code === 'ENOENT' ? 'npm, which installs it, was not found on PATH; install Node.js with npm' : `npm could not be started (${result.spawnError.message})`;
    return new PackageError('npm-missing', spec.raw, `package ${quoted} is not in Spout's package cache and ${why}, then deploy again`);
  }
  const registry = await registryUrl();
  if (result.timedOut) {
    return new PackageError('install-failed', spec.raw, `package ${quoted} could not be installed from registry ${registry}: npm took longer than ${duration(timeoutMs)} and was stopped; try again`);
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
    summary =
      lines
        .map((l) => l.replace(/^npm error /, ''))
        .join(' ')
        .trim() || `npm exited with status ${result.code}`;
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
  // What is left of 404 and ETARGET concerns one of its dependencies: an older version may not need it (version-fallback.ts).
  if (code === 'E404' || code === 'ETARGET') {
    return new PackageError('broken-dependency', spec.raw, `package ${quoted} could not be installed from registry ${registry}: a dependency of it cannot be resolved (${summary.trim()})`);
  }
  return new PackageError('install-failed', spec.raw, `package ${quoted} could not be installed from registry ${registry}: ${summary}`);
}
