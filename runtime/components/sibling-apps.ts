// Registry apps importing other apps (`import shopify from "@pipedream/shopify"`): in Pipedream's
// monorepo these resolve to the sibling folder of the same tree, not to npm, and some of the
// ranges they ask for were never published. A local registry tree (the component's own, then the
// `--registry` folders and the bundled one) that holds the app, named by its package.json `name`,
// provides it; npm does only when no tree has it.
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import { isPlatformImport } from './platform-packages';

/** `@pipedream/<app>` with an optional subpath; a pinned import (`@pipedream/x@^1`) is npm's. */
const SIBLING_IMPORT = /^(@pipedream\/[a-z0-9_.-]+)(\/.*)?$/;

/** How long a tree's index of package names is reused before it is read again. */
const INDEX_TTL_MS = 30_000;

const indexes = new Map<string, { at: number; byName: Map<string, string> }>();

/** The package name a folder's package.json declares, or null. */
function packageName(dir: string): string | null {
  try {
    const name = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/** The app folder of `tree` whose package.json is named `name`: `<tree>/<app>` first (the usual layout), else any folder. */
function appFolder(tree: string, name: string): string | null {
  const direct = path.join(tree, name.slice('@pipedream/'.length));
  if (packageName(direct) === name) return direct;
  let index = indexes.get(tree);
  if (!index || Date.now() - index.at > INDEX_TTL_MS) {
    const byName = new Map<string, string>();
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(tree, { withFileTypes: true });
    } catch {
      // not a folder: no apps
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const found = packageName(path.join(tree, entry.name));
      if (found) byName.set(found, path.join(tree, entry.name));
    }
    indexes.set(tree, (index = { at: Date.now(), byName }));
  }
  return index.byName.get(name) ?? null;
}

/**
 * The registry tree a file sits in: the parent of the nearest folder above it whose package.json
 * is an `@pipedream/…` app's. Null outside such a tree.
 */
export function treeOf(file: string): string | null {
  for (let dir = path.dirname(path.resolve(file)); ; ) {
    if (packageName(dir)?.startsWith('@pipedream/')) return path.dirname(dir);
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The file an import of a sibling app names: its package.json `main` (else index), or the subpath, with the extension it may leave out. */
function entryFile(dir: string, subpath: string): string | null {
  let target: string;
  if (subpath === '') {
    let main: unknown;
    try {
      main = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { main?: unknown }).main;
    } catch {
      main = undefined;
    }
    target = path.join(dir, typeof main === 'string' && main !== '' ? main : 'index.js');
  } else target = path.join(dir, subpath);
  for (const candidate of [target, ...['.mjs', '.js', '.ts', '/index.mjs', '/index.js'].map((ext) => target + ext)]) {
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  return null;
}

/** An esbuild plugin bundling `@pipedream/<app>` imports from the first of `trees` that holds the app, like a relative import. */
export function siblingAppsPlugin(trees: readonly string[]): Plugin {
  return {
    name: 'spout-sibling-apps',
    setup(build) {
      build.onResolve({ filter: /^@pipedream\// }, (args) => {
        const match = SIBLING_IMPORT.exec(args.path);
        if (!match || isPlatformImport(args.path)) return undefined;
        const [, name, subpath = ''] = match as unknown as [string, string, string | undefined];
        for (const tree of trees) {
          const dir = appFolder(tree, name);
          if (!dir) continue;
          const file = entryFile(dir, subpath);
          if (file) return { path: file };
          return { errors: [{ text: `${args.path}: the app ${name} is in ${dir}, but it has no file ${subpath || '(its package.json main)'}` }] };
        }
        return undefined;
      });
    },
  };
}
