// `/tmp` inside a component host. Pipedream gives every run a writable `/tmp`, and registry code
// writes there by that name (`/tmp/${file}`, `path.join(os.tmpdir(), …)`). A host may write only
// to the folders it was granted, so its own temp folder (sandbox/temp-folder.ts) stands in for
// `/tmp`: the `fs` functions that take paths read `/tmp/…` as that folder, `os.tmpdir()` says
// `/tmp`, and the paths `fs` hands back (mkdtemp, realpath) are shown under `/tmp` again. This is
// a convenience, not the boundary: Node's permission model still refuses anything outside the
// granted folders, whatever path a component gives. On a spare host that took a source, the
// source's own folder (its `dir` props') is mapped the same way, from where its code knows it to
// where the spare has it (sandbox/spare-folders.ts).
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withPropertiesOf } from './same-properties';

/** The name components use for their temp folder. */
export const VIRTUAL_TMP = '/tmp';

const virtualRoot = path.resolve(VIRTUAL_TMP);
/** The host's real temp folder; null until the service names it (a host describing a module has none). */
let realRoot: string | null = null;
/** Folders whose paths keep their real meaning under the machine's /tmp (the data dir, when it lies there). */
let kept: string[] = [];
/** The owner's own folder as its code knows it (`from`) and where it is while a spare host has it (`to`); null: where it lives. */
let moved: { from: string; to: string } | null = null;

type AnyFn = (...args: unknown[]) => unknown;

/** Functions whose first argument is a path. */
const ONE_PATH = [
  'access',
  'appendFile',
  'chmod',
  'chown',
  'createReadStream',
  'createWriteStream',
  'exists',
  'lchmod',
  'lchown',
  'lutimes',
  'lstat',
  'mkdir',
  'open',
  'openAsBlob',
  'opendir',
  'readdir',
  'readFile',
  'readlink',
  'rm',
  'rmdir',
  'stat',
  'statfs',
  'truncate',
  'unlink',
  'unwatchFile',
  'utimes',
  'watch',
  'watchFile',
  'writeFile',
];
/** Functions whose first two arguments are paths. */
const TWO_PATHS = ['copyFile', 'cp', 'link', 'rename', 'symlink'];
/** Functions that return a path (through a callback, a promise or their result). */
const RETURN_PATH = ['mkdtemp', 'realpath'];

const within = (p: string, root: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** Whether the host may read `p` as it is: a folder granted to it (a `dir` prop's, the package cache) that happens to lie under the machine's /tmp. */
function granted(p: string): boolean {
  const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } }).permission;
  return permission?.has('fs.read', p) ?? false;
}

/** A path as the host's files are: under `/tmp` → under the real temp folder; anything else as given. */
export function realPath(p: string): string {
  if (realRoot === null || !path.isAbsolute(p)) return p;
  const resolved = path.resolve(p);
  if (moved && within(resolved, moved.from)) return moved.to + resolved.slice(moved.from.length);
  // Already real (a stream reopening the path its wrapper mapped, or a real path handed back).
  if (within(resolved, realRoot) || !within(resolved, virtualRoot) || kept.some((k) => within(resolved, k)) || granted(resolved)) return p;
  return realRoot + resolved.slice(virtualRoot.length);
}

/** A path as the component is shown it: the real temp folder as `/tmp`. */
export function virtualPath(p: string): string {
  if (realRoot === null) return p;
  const resolved = path.resolve(p);
  if (within(resolved, realRoot)) return VIRTUAL_TMP + resolved.slice(realRoot.length).split(path.sep).join('/');
  return moved && within(resolved, moved.to) ? moved.from + resolved.slice(moved.to.length) : p;
}

/** A path argument in any form `fs` takes (string, file URL, Buffer) mapped to the real folder; other values as they are. */
function realArg(value: unknown): unknown {
  if (typeof value === 'string') return realPath(value);
  if (value instanceof URL && value.protocol === 'file:') {
    const mapped = realPath(fileURLToPath(value));
    return mapped === fileURLToPath(value) ? value : pathToFileURL(mapped);
  }
  if (Buffer.isBuffer(value)) {
    const text = value.toString('utf8');
    const mapped = realPath(text);
    return mapped === text ? value : Buffer.from(mapped);
  }
  return value;
}

/** A returned path (string or Buffer) shown under `/tmp`. */
function shownResult(value: unknown): unknown {
  if (typeof value === 'string') return virtualPath(value);
  if (Buffer.isBuffer(value)) return Buffer.from(virtualPath(value.toString('utf8')));
  return value;
}

/** An `fs` error as the component is shown it: its paths (`path`, `dest`, the message) under `/tmp`. */
function shownError(err: unknown): unknown {
  if (realRoot === null || !(err instanceof Error)) return err;
  const e = err as NodeJS.ErrnoException & { dest?: unknown };
  if (typeof e.path === 'string') e.path = virtualPath(e.path);
  if (typeof e.dest === 'string') e.dest = virtualPath(e.dest);
  e.message = shownText(e.message);
  if (e.stack) e.stack = shownText(e.stack);
  return e;
}

/** Text with the real temp folder shown as `/tmp`, and a moved folder where its code knows it. */
function shownText(text: string): string {
  const root = realRoot as string;
  const out = text.includes(root) ? text.split(root).join(VIRTUAL_TMP) : text;
  return moved && out.includes(moved.to) ? out.split(moved.to).join(moved.from) : out;
}

/** Wraps `fn` so its first `paths` arguments are mapped (and, with `result`, its path result shown under `/tmp`; its errors always), keeping its own properties (`realpath.native`, `exists`'s promisified form). */
function wrap(fn: AnyFn, paths: number, result: boolean): AnyFn {
  const shown = (value: unknown) => (result ? shownResult(value) : value);
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    for (let i = 0; i < paths && i < args.length; i++) args[i] = realArg(args[i]);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') args[last] = (err: unknown, ...rest: unknown[]) => (callback as AnyFn)(shownError(err), ...rest.map(shown));
    let out: unknown;
    try {
      out = fn.apply(this, args);
    } catch (err) {
      throw shownError(err);
    }
    return out instanceof Promise ? out.then(shown, (err: unknown) => Promise.reject(shownError(err))) : shown(out);
  };
  return withPropertiesOf(wrapped, fn);
}

/** Replaces the path-taking functions of `target` (the `fs` module, `fs.promises`) with mapping ones. */
function patch(target: Record<string, unknown>, sync: boolean): void {
  const replace = (name: string, paths: number, result: boolean) => {
    const fn = target[name];
    if (typeof fn !== 'function') return;
    const wrapped = wrap(fn as AnyFn, paths, result);
    const native = (fn as unknown as { native?: unknown }).native;
    if (typeof native === 'function') (wrapped as unknown as { native: AnyFn }).native = wrap(native as AnyFn, paths, result);
    target[name] = wrapped;
  };
  for (const base of ONE_PATH) for (const name of sync ? [base, `${base}Sync`] : [base]) replace(name, 1, false);
  for (const base of TWO_PATHS) for (const name of sync ? [base, `${base}Sync`] : [base]) replace(name, 2, false);
  for (const base of RETURN_PATH) for (const name of sync ? [base, `${base}Sync`] : [base]) replace(name, 1, true);
}

/**
 * Installs the mapping (before any component code loads; it maps nothing until `mapTmp`). Packages
 * loaded later see the mapping functions too, ES modules included (their named imports of builtins
 * are synced).
 */
export function installTmpShim(): void {
  patch(fs as unknown as Record<string, unknown>, true);
  patch(fs.promises as unknown as Record<string, unknown>, false);
  os.tmpdir = () => VIRTUAL_TMP;
  syncBuiltinESMExports();
}

/**
 * Makes `/tmp` mean `folder` (the host's own temp folder) from now on, except under `real`;
 * relative paths resolve there too. With `from`, the owner's folder is read where a spare host has it.
 */
export function mapTmp(folder: string, real: readonly string[] = [], from?: { from: string; to: string }): void {
  realRoot = path.resolve(folder);
  kept = real.map((r) => path.resolve(r));
  moved = from ? { from: path.resolve(from.from), to: path.resolve(from.to) } : null;
  try {
    process.chdir(realRoot);
  } catch {
    // The working folder stays the host's; absolute paths are what registry code uses.
  }
}
