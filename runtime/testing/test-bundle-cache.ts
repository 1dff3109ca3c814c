// Bundles of component files kept between test processes (`bundles/` in the test cache dir), so
// that a test process whose components did not change never starts esbuild. An entry is a file's
// bundle with the content hash of every file that went in and of every package.json consulted;
// it is used only while all of them still hash the same, under the same build of Spout, with the
// same package versions installed (they decide what an unpinned import resolves to). A damaged
// entry is rebuilt over; entries not written for a week go when another is written (test files in
// temp folders would otherwise pile up).
// docs/performance.md, "spout test".
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleComponent } from '../components/bundle';
import { bundleFile } from '../components/bundle-file';
import type { PackageCache } from '../components/packages';
import { platformReadPaths } from '../components/platform-packages';
import { writePrivateFileSync } from '../lib/private-files';

/** A component file bundled as its host loads it. */
export interface TestBundle {
  code: string;
  /** The file's base name (the loader, and the name in stack traces). */
  filename: string;
}

/** One cache entry: a bundle and the hashes of what it was made from. */
interface Entry extends TestBundle {
  /** Content hash of each input and consulted package.json by absolute path; null for one looked for and missing. */
  inputs: Record<string, string | null>;
  /** Hash of the package cache's listing. */
  packages: string;
}

/** What every entry of this build depends on beyond its inputs: Spout's version and build (the bundler's code), its platform packages, the package cache's place. */
function buildKey(packages: PackageCache): string {
  const self = fs.statSync(fileURLToPath(import.meta.url));
  return JSON.stringify([process.env.SPOUT_VERSION ?? 'dev', self.size, self.mtimeMs, platformReadPaths(), packages.dir]);
}

/** Entries older than this are removed when one is written (a week, ms). */
const KEEP_MS = 7 * 24 * 3600_000;

/** The content hash of a file, null when there is none. */
function contentHash(file: string): string | null {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
}

/** A hash of the installed package versions (folders are renamed into place whole, so a new install changes it). */
function packagesListing(packages: PackageCache): string {
  const names = fs.existsSync(packages.dir) ? fs.readdirSync(packages.dir).sort() : [];
  return createHash('sha256').update(names.join('\n')).digest('hex');
}

/** The entry at `file` if it is one, else null (missing, cut short, or not an entry). */
function readEntry(file: string): Entry | null {
  let entry: Partial<Entry>;
  try {
    entry = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Entry>;
  } catch {
    return null;
  }
  const shaped = typeof entry?.code === 'string' && typeof entry.filename === 'string' && typeof entry.inputs === 'object' && entry.inputs !== null && typeof entry.packages === 'string';
  return shaped ? (entry as Entry) : null;
}

/** Whether nothing an entry was made from has changed. */
function current(entry: Entry, packages: PackageCache): boolean {
  return entry.packages === packagesListing(packages) && Object.entries(entry.inputs).every(([file, hash]) => contentHash(file) === hash);
}

/**
 * A component file bundled for its host (bundle-file.ts, then bundle.ts with the package cache),
 * from the cache in `cacheDir` when nothing it was made from changed; bundled and kept otherwise.
 */
export async function testBundle(file: string, packages: PackageCache, cacheDir: string): Promise<TestBundle> {
  const absolute = path.resolve(file);
  const dir = path.join(cacheDir, 'bundles');
  const entryFile = path.join(dir, `${createHash('sha256').update(buildKey(packages)).update('\0').update(absolute).digest('hex').slice(0, 32)}.json`);
  const cached = readEntry(entryFile);
  if (cached && current(cached, packages)) return { code: cached.code, filename: cached.filename };
  const started = Date.now();
  const listing = packagesListing(packages);
  const bundled = await bundleFile(absolute);
  const { code } = await bundleComponent(bundled.code, bundled.filename, { packages });
  const made = [...bundled.inputs, ...bundled.manifests];
  // A file written while it was being bundled may be in the bundle as it was before: not kept then.
  const settled = made.every((f) => (fs.statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0) < started);
  if (settled) {
    const entry: Entry = { code, filename: bundled.filename, inputs: Object.fromEntries(made.map((f) => [f, contentHash(f)])), packages: listing };
    writePrivateFileSync(entryFile, JSON.stringify(entry));
    prune(dir);
  }
  return { code, filename: bundled.filename };
}

/** Removes the entries (and leftover temp files) of `dir` last written more than KEEP_MS ago. */
function prune(dir: string): void {
  const before = Date.now() - KEEP_MS;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if ((fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < before) fs.rmSync(file, { force: true });
  }
}
