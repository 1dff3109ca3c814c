// Which test files `spout test` runs, and which of them a changed file reruns under --watch.
import fs from 'node:fs';
import path from 'node:path';

/** A test file: `NAME.test.mjs`, `.js` or `.ts`. */
export const TEST_FILE = /\.test\.(mjs|js|ts)$/;

/** What a search found: its test files (sorted) and the folders it looked in. */
export interface FoundTests {
  files: string[];
  folders: string[];
}

/** Test files under `paths` (a file is taken as given; folders are searched, skipping node_modules and dot-folders). */
export function findTestFiles(paths: string[]): FoundTests {
  const files = new Set<string>();
  const folders = new Set<string>();
  const walk = (dir: string): void => {
    folders.add(dir);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && TEST_FILE.test(entry.name)) files.add(full);
    }
  };
  for (const given of paths) {
    const full = path.resolve(given);
    if (fs.statSync(full).isDirectory()) walk(full);
    else {
      files.add(full);
      folders.add(path.dirname(full));
    }
  }
  return { files: [...files].sort(), folders: [...folders].sort() };
}

/** The component a file belongs to, by name: `new-order` for `new-order.mjs`, `new-order.test.ts` or `new-order.cassette.json`. */
function stemOf(file: string): string {
  return path.basename(file).replace(/(\.test)?\.(mjs|js|ts)$|\.cassette\.json$|\.[^.]*$/, '');
}

/**
 * The test files a change to `changed` reruns: a changed test file itself, the tests of the
 * component it belongs to (`X.test.*` beside `X.mjs`, `X.cassette.json`…), and every test file
 * whose text names it (`./helpers.mjs`).
 */
export function testsAffectedBy(changed: readonly string[], testFiles: readonly string[]): string[] {
  const affected = new Set<string>();
  for (const file of changed) {
    if (TEST_FILE.test(file) && testFiles.includes(file)) affected.add(file);
    const stem = stemOf(file);
    const name = path.basename(file);
    for (const test of testFiles) {
      if (path.dirname(test) === path.dirname(file) && stemOf(test) === stem) affected.add(test);
      else if (test !== file && readText(test).includes(name)) affected.add(test);
    }
  }
  return testFiles.filter((f) => affected.has(f));
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
