// Walls around files that Node's permission model leaves open (Node 20): finding out whether a
// file outside the grants exists (`require.resolve`, `fs.realpathSync` answer differently for a
// file that is there, such as the data dir's `secret.key`, and one that is not), and reading or
// writing through a file descriptor the host inherited from whatever started the service:
// descriptor calls are not checked against the grants at all.
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { define, refused } from './host-guards';
import { realPath, VIRTUAL_TMP } from './tmp-shim';

type AnyFn = (...args: unknown[]) => unknown;

/** Whether the permission model lets this process read `file`. */
function readable(file: string): boolean {
  const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } }).permission;
  return permission ? permission.has('fs.read', file) : true;
}

const PROBE_RULE = 'look up files outside the folders granted to them (whether they exist included)';

/** `require.resolve`, `require` and `fs.realpathSync` refuse paths outside the grants before they look. */
export function guardProbes(): void {
  const M = Module as unknown as { _findPath: (request: string, paths: string[], isMain: boolean) => unknown };
  const findPath = M._findPath;
  define(M, '_findPath', function (this: unknown, request: string, paths: string[] = [], isMain = false) {
    if (path.isAbsolute(request)) {
      if (!readable(request)) throw refused(`require("${request}")`, PROBE_RULE);
    } else if (request === '.' || request === '..' || request.startsWith('./') || request.startsWith('../')) {
      for (const dir of paths) if (!readable(path.resolve(dir, request))) throw refused(`require("${request}")`, PROBE_RULE);
    } else {
      // A package is searched for in node_modules folders up the tree: only in those it may read.
      paths = paths.filter(readable);
    }
    return findPath.call(this, request, paths, isMain);
  });
  const realpathSync = fs.realpathSync;
  const guarded = function (this: unknown, ...args: unknown[]) {
    const p = args[0];
    // A `/tmp` path is checked as the temp folder it stands for (tmp-shim.ts, which maps it inside);
    // `/tmp` itself is no secret, and packages resolve it as they load (`realpathSync(os.tmpdir())`)
    // also in a host that only describes a module and has no temp folder.
    const target = p instanceof URL ? p : realPath(path.resolve(String(p)));
    if (typeof target === 'string' && target !== VIRTUAL_TMP && !readable(target)) throw refused(`fs.realpathSync("${String(p)}")`, PROBE_RULE);
    return (realpathSync as AnyFn).apply(this, args);
  };
  // realpathSync.native goes through the permission model already.
  define(fs, 'realpathSync', keepProperties(guarded, realpathSync as unknown as AnyFn));
  // Node 20's permission model makes existsSync throw for a path outside the grants, where Node
  // promises it never throws: packages probe for optional config files this way as they load
  // (a cwd-relative `config/….json`) and would fail there. Outside the grants it answers false,
  // whether the file is there or not, so it tells nothing.
  const existsSync = fs.existsSync;
  const outside = (p: unknown) => (typeof p === 'string' || p instanceof URL || Buffer.isBuffer(p)) && !readable(realPath(path.resolve(p instanceof URL ? p.pathname : String(p))));
  define(fs, 'existsSync', keepProperties(((p: unknown) => (outside(p) ? false : existsSync(p as fs.PathLike))) as AnyFn, existsSync as unknown as AnyFn));
  const exists = fs.exists;
  const guardedExists = (p: unknown, callback: (found: boolean) => void) => (outside(p) ? process.nextTick(callback, false) : exists(p as fs.PathLike, callback));
  define(fs, 'exists', keepProperties(guardedExists as AnyFn, exists as unknown as AnyFn));
  // ES modules importing these by name see the guarded ones too.
  Module.syncBuiltinESMExports();
}

/** Calls that take a file descriptor as their first argument. */
const FD_CALLS = ['close', 'fchmod', 'fchown', 'fdatasync', 'fstat', 'fsync', 'ftruncate', 'futimes', 'read', 'readv', 'write', 'writev'];
/** Calls that take a path or a file descriptor. */
const PATH_OR_FD_CALLS = ['readFile', 'writeFile', 'appendFile'];

/**
 * File descriptor calls take only descriptors the component opened and those every host has (0-2
 * its standard streams, 3 its channel, 4 its watchdog pipe: what the service trusts of neither is
 * nothing): not one the host inherited from whatever started the service.
 */
export function guardDescriptors(): void {
  const own = new Set<number>([0, 1, 2, 3, 4]);
  const check = (what: string, fd: unknown) => {
    if (typeof fd === 'number' && !own.has(fd)) throw refused(`fs.${what}(${fd})`, 'use file descriptors they did not open');
  };
  const f = fs as unknown as Record<string, AnyFn>;
  const wrap = (name: string, guard: (args: unknown[]) => void, after?: (result: unknown, args: unknown[]) => void) => {
    const original = f[name] as AnyFn;
    define(
      f,
      name,
      keepProperties(function (this: unknown, ...args: unknown[]) {
        guard(args);
        const result = original.apply(this, args);
        after?.(result, args);
        return result;
      }, original),
    );
  };
  const forget = (_result: unknown, args: unknown[]) => own.delete(args[0] as number);
  for (const name of FD_CALLS) {
    wrap(name, (args) => check(name, args[0]), name === 'close' ? forget : undefined);
    wrap(`${name}Sync`, (args) => check(`${name}Sync`, args[0]), name === 'close' ? forget : undefined);
  }
  for (const name of PATH_OR_FD_CALLS) for (const variant of [name, `${name}Sync`]) wrap(variant, (args) => check(variant, args[0]));
  for (const name of ['createReadStream', 'createWriteStream']) {
    wrap(name, (args) => check(name, typeof args[1] === 'object' && args[1] !== null ? (args[1] as { fd?: unknown }).fd : undefined));
  }
  // What the component opens is its own.
  wrap(
    'openSync',
    () => undefined,
    (fd) => own.add(fd as number),
  );
  wrap('open', (args) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: unknown, fd: number) => {
        if (!err) own.add(fd);
        (callback as AnyFn)(err, fd);
      };
    }
  });
  const promisesOpen = fs.promises.open;
  define(fs.promises, 'open', async (...args: Parameters<typeof fs.promises.open>) => {
    const handle = await promisesOpen(...args);
    own.add(handle.fd);
    return handle;
  });
}

/** `guarded` with the properties of `original` (`realpathSync.native`, util.promisify's custom arguments). */
function keepProperties<T extends AnyFn>(guarded: T, original: AnyFn): T {
  for (const key of Reflect.ownKeys(original)) {
    if (key === 'length' || key === 'name' || key === 'prototype') continue;
    Object.defineProperty(guarded, key, Object.getOwnPropertyDescriptor(original, key) as PropertyDescriptor);
  }
  Object.defineProperty(guarded, 'name', { value: original.name });
  return guarded;
}
