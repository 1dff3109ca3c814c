// The `require` component bundles run with. Packages are not bundled into components: the bundler
// resolves each bare import to a file of the package cache (or of Spout's own install for
// `@pipedream/platform` and `@pipedream/types`) and leaves a marked `require` of that file, which
// this loads with Node's own loader at run time, so packages keep `__dirname`, `import.meta.url`,
// `createRequire` and the files beside their code. The component host calls the same function.
import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';

/** Marks a file loaded for an `import` (ES module semantics: default is the module's default, or a CommonJS module's exports). */
export const IMPORT_PREFIX = 'spout-import:';
/** Marks a file loaded for a `require` call (plain `require` semantics). */
export const REQUIRE_PREFIX = 'spout-require:';

type Require = (id: string) => unknown;

/** Whether Node loads `file` as an ES module: `.mjs`, or `.js` under a package.json with `"type": "module"`. */
function isEsModule(file: string, types: Map<string, boolean>): boolean {
  if (file.endsWith('.mjs')) return true;
  if (!file.endsWith('.js')) return false;
  const typeOf = (dir: string): boolean => {
    const known = types.get(dir);
    if (known !== undefined) return known;
    let esm: boolean;
    try {
      esm = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { type?: unknown }).type === 'module';
    } catch (err) {
      const parent = path.dirname(dir);
      esm = (err as NodeJS.ErrnoException).code === 'ENOENT' && parent !== dir ? typeOf(parent) : false;
    }
    types.set(dir, esm);
    return esm;
  };
  return typeOf(path.dirname(file));
}

/**
 * What an `import` of a loaded module gives, shaped for esbuild's CommonJS interop (`__esModule`
 * set, so `default` is read from it): an ES module's exports as they are; a CommonJS module's
 * exports as Node gives them to an `import` (default = `module.exports`, its keys as named exports).
 */
function asImported(mod: unknown, esm: boolean): Record<string, unknown> {
  if (esm) return { ...(mod as Record<string, unknown>), __esModule: true };
  const ns: Record<string, unknown> = { __esModule: true };
  if ((typeof mod === 'object' && mod !== null) || typeof mod === 'function') {
    for (const key of Object.keys(mod)) {
      if (key !== 'default' && key !== '__esModule') Object.defineProperty(ns, key, { enumerable: true, get: () => (mod as Record<string, unknown>)[key] });
    }
  }
  ns.default = mod;
  return ns;
}

/**
 * The `require` given to a component bundle: Node's builtins, and the package files the bundler
 * marked (absolute paths behind IMPORT_PREFIX or REQUIRE_PREFIX). Any other name was not
 * installed by the service, and is refused with a message saying so.
 */
export function componentRequire(base: string): Require {
  const nodeRequire = createRequire(base);
  const imported = new Map<string, Record<string, unknown>>();
  const packageTypes = new Map<string, boolean>();
  return (id: string) => {
    if (isBuiltin(id)) return nodeRequire(id);
    for (const prefix of [IMPORT_PREFIX, REQUIRE_PREFIX]) {
      if (!id.startsWith(prefix)) continue;
      const file = id.slice(prefix.length);
      if (!path.isAbsolute(file)) break;
      const mod = load(nodeRequire, file);
      if (prefix === REQUIRE_PREFIX) return mod;
      let ns = imported.get(file);
      if (!ns) imported.set(file, (ns = asImported(mod, isEsModule(file, packageTypes))));
      return ns;
    }
    throw new Error(`Cannot load package "${id}": packages are installed when the component is saved or deployed; save it again through the service`);
  };
}

function load(nodeRequire: NodeJS.Require, file: string): unknown {
  try {
    return nodeRequire(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_REQUIRE_ASYNC_MODULE') {
      throw new Error(`the package file ${file} uses top-level await, which a component cannot load; use another version of the package or another package`);
    }
    throw err;
  }
}
