// The `require` component bundles run with. Packages are not bundled into components: the bundler
// resolves each bare import to a file of the package cache (or of Spout's own install for
// `@pipedream/platform` and `@pipedream/types`) and leaves a marked `require` of that file, which
// this loads with Node's own loader at run time, so packages keep `__dirname`, `import.meta.url`,
// `createRequire` and the files beside their code. The component host calls the same function.
import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Marks a file loaded for an `import` (ES module semantics: default is the module's default, or a CommonJS module's exports). */
export const IMPORT_PREFIX = 'spout-import:';
/** Marks a file loaded for a `require` call (plain `require` semantics). */
export const REQUIRE_PREFIX = 'spout-require:';

/** The `require` a bundle runs with; `preload` loads its ES module imports first, as ES modules. */
export interface ComponentRequire {
  (id: string): unknown;
  /**
   * Imports (with `import()`) the ES module files the bundle's `import`s name, before the bundle
   * runs: Node's `require` of an ES module fails when it, or anything it imports, uses top-level
   * await, and the bundle's requires are synchronous.
   */
  preload(bundle: string): Promise<void>;
}

/** The marked imports in a bundle's text (`require("spout-import:/abs/file")`). */
const MARKED_IMPORT = new RegExp(`["']${IMPORT_PREFIX}([^"'\n]+)["']`, 'g');

/** The package a file of the cache belongs to (`…/node_modules/@scope/name/x.js` → `@scope/name`), for messages. */
export function packageOf(file: string): string {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at === -1) return file;
  const first = parts[at + 1] ?? '';
  return first.startsWith('@') ? `${first}/${parts[at + 2] ?? ''}` : first;
}

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
export function componentRequire(base: string): ComponentRequire {
  const nodeRequire = createRequire(base);
  const imported = new Map<string, Record<string, unknown>>();
  const packageTypes = new Map<string, boolean>();
  const require = (id: string) => {
    if (isBuiltin(id)) return nodeRequire(id);
    for (const prefix of [IMPORT_PREFIX, REQUIRE_PREFIX]) {
      if (!id.startsWith(prefix)) continue;
      const file = id.slice(prefix.length);
      if (!path.isAbsolute(file)) break;
      if (prefix === REQUIRE_PREFIX) return load(nodeRequire, file);
      let ns = imported.get(file);
      if (!ns) imported.set(file, (ns = asImported(load(nodeRequire, file), isEsModule(file, packageTypes))));
      return ns;
    }
    throw new Error(`Cannot load package "${id}": packages are installed when the component is saved or deployed; save it again through the service`);
  };
  const preload = async (bundle: string) => {
    for (const [, file] of bundle.matchAll(MARKED_IMPORT)) {
      if (!file || imported.has(file) || !path.isAbsolute(file) || !isEsModule(file, packageTypes)) continue;
      let ns: unknown;
      try {
        ns = await import(pathToFileURL(file).href);
      } catch (err) {
        const message = (err as Error).message;
        throw Object.assign(new Error(`package "${packageOf(file)}" could not be loaded: ${message}`), { stack: `Error: package "${packageOf(file)}" could not be loaded: ${(err as Error).stack ?? message}` });
      }
      imported.set(file, asImported(ns, true));
    }
  };
  return Object.assign(require, { preload });
}

function load(nodeRequire: NodeJS.Require, file: string): unknown {
  try {
    return nodeRequire(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_REQUIRE_ASYNC_MODULE') {
      // Node names the file required, not the module below it that awaits.
      throw new Error(`package "${packageOf(file)}" (${file}), or a module it imports, uses top-level await, which require() cannot load; import it with \`import\` instead of require()`);
    }
    throw err;
  }
}
