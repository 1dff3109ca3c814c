// A component kept as its original files (a registry component and what it imports from its tree),
// so that it is shown and edited as the registry has it; the bundle it runs is made from them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ComponentFile, ComponentFiles } from '../contract/component-api';
import { ComponentError } from '../lib/error-kinds';
import { type BundledFile, bundleFile } from './bundle-file';

/** Most files a component may be made of. */
export const MAX_COMPONENT_FILES = 200;

/** A path inside a file set: relative, `/`-separated, normalized, no `.` or `..` part, no hidden or empty part. */
export function isFileSetPath(p: string): boolean {
  return p.length <= 500 && p.split('/').every((part) => /^[\w@+-][\w.@+-]*$/.test(part) && part !== '.' && part !== '..');
}

/** The nearest package.json above `file`, inside `root` (it pins the app's packages and names its app). */
function nearestManifest(file: string, root: string): string | null {
  for (let dir = path.dirname(file); dir.startsWith(root + path.sep) || dir === root; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) return manifest;
    if (dir === root) break;
  }
  return null;
}

/**
 * The original files of a registry component: the entry, every local file its bundle took in
 * (`inputs`: app file, `common/` modules, sibling apps of the same folder) and the package.json of
 * each of their apps, with paths relative to the registry folder `root`. Files outside `root` (an
 * app of another registry folder) are left out: they come from the registry again when bundled.
 */
export function registryFiles(root: string, entry: string, inputs: readonly string[]): ComponentFiles {
  const base = path.resolve(root);
  const inside = (f: string) => f.startsWith(base + path.sep);
  const wanted = new Set<string>();
  for (const input of [entry, ...inputs].map((f) => path.resolve(f)).filter(inside)) {
    wanted.add(input);
    const manifest = nearestManifest(input, base);
    if (manifest) wanted.add(manifest);
  }
  const rel = (f: string) => path.relative(base, f).split(path.sep).join('/');
  const files = [...wanted].map((f) => ({ path: rel(f), code: fs.readFileSync(f, 'utf8') }));
  // The entry first, then by path: the order an editor lists them in.
  const entryPath = rel(path.resolve(entry));
  files.sort((a, b) => (a.path === entryPath ? -1 : b.path === entryPath ? 1 : a.path.localeCompare(b.path)));
  return { files, entry_file: entryPath };
}

/** True when two file sets hold the same files with the same text (and the same entry). */
export function sameFiles(a: ComponentFiles | undefined, b: ComponentFiles | undefined): boolean {
  if (!a || !b) return a === b;
  const key = (s: ComponentFiles) => JSON.stringify([s.entry_file, [...s.files].sort((x, y) => x.path.localeCompare(y.path))]);
  return key(a) === key(b);
}

/**
 * Bundles a file set as `bundleFile` bundles a registry file: the files are written to a private
 * temp folder (removed after) and the entry bundled there, its relative imports confined to the
 * set. `trees`: registry folders other apps (`@pipedream/<app>`) not in the set come from.
 */
export async function bundleFileSet(set: ComponentFiles, trees: readonly string[]): Promise<Pick<BundledFile, 'code' | 'filename'>> {
  const problems = checkFileSet(set.files, set.entry_file);
  if (problems.length) throw new ComponentError(problems);
  // Its real path: esbuild names files by theirs, and the confinement compares them.
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-files-')));
  try {
    for (const f of set.files) {
      const target = path.join(dir, ...f.path.split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      fs.writeFileSync(target, f.code, { mode: 0o600 });
    }
    const { code, filename } = await bundleFile(path.join(dir, ...set.entry_file.split('/')), { trees, confine: dir });
    return { code, filename };
  } catch (err) {
    if (!(err instanceof ComponentError)) throw err;
    // Messages name the files as the set does (`<app>/<app>.app.mjs:3:5`), not as the temp folder has them.
    const entryDir = path.dirname(path.join(dir, ...set.entry_file.split('/')));
    const named = (where: string) => {
      const [file = '', ...at] = where.split(':');
      const full = path.resolve(entryDir, file);
      return full.startsWith(dir + path.sep) ? [path.relative(dir, full).split(path.sep).join('/'), ...at].join(':') : where;
    };
    throw new ComponentError(err.problems.map((p) => ({ ...p, path: named(p.path) })));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What is wrong with a file set: paths that are not safe relative ones, duplicates, a missing entry. */
function checkFileSet(files: readonly ComponentFile[], entry: string): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const seen = new Set<string>();
  for (const f of files) {
    if (!isFileSetPath(f.path)) problems.push({ path: 'files', message: `"${f.path}" is not a relative path inside the component (no leading /, no . or .. parts)` });
    else if (seen.has(f.path)) problems.push({ path: 'files', message: `"${f.path}" is given twice` });
    seen.add(f.path);
  }
  if (!seen.has(entry)) problems.push({ path: 'entry_file', message: `"${entry}" is not one of the files given; name the component's own file` });
  return problems;
}
