// The bundle cache of spout/testing: a bundle is kept and served while the files it was made from
// are unchanged, made again when the file or one of its imports changed, and a damaged entry is
// ignored, and entries not written for a week go. An entry's code is marked by hand to tell a
// served entry from a fresh bundle.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { PackageCache } from '../../../runtime/components/packages';
import { testBundle } from '../../../runtime/testing/test-bundle-cache';
import { tempDir } from '../../helpers/service';

const MARK = '\n// served from the cache\n';

describe('testBundle', () => {
  const root = tempDir('spout-bundle-cache-');
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  let n = 0;

  /** A fresh component folder and cache folder; `write` sets a file's mtime in the past (a file written during a bundle is not kept). */
  const setup = () => {
    const dir = path.join(root, `case-${n++}`);
    const cacheDir = path.join(dir, '.cache');
    const packages = new PackageCache({ dir: path.join(cacheDir, 'packages') });
    packages.ensureDir();
    const write = (rel: string, text: string): string => {
      const file = path.join(dir, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      const past = new Date(Date.now() - 60_000);
      fs.utimesSync(file, past, past);
      return file;
    };
    const entries = () =>
      fs
        .readdirSync(path.join(cacheDir, 'bundles'))
        .filter((f) => f.endsWith('.json'))
        .map((f) => path.join(cacheDir, 'bundles', f));
    /** Marks every entry's code, so that a served entry shows. */
    const mark = () => {
      for (const entry of entries()) {
        const data = JSON.parse(fs.readFileSync(entry, 'utf8')) as { code: string };
        fs.writeFileSync(entry, JSON.stringify({ ...data, code: data.code + MARK }));
      }
    };
    const bundle = (file: string) => testBundle(file, packages, cacheDir);
    return { write, entries, mark, bundle };
  };

  it('keeps a bundle and serves it while the file and its imports are unchanged', async () => {
    const { write, entries, mark, bundle } = setup();
    write('common.mjs', 'export const greeting = "hello";\n');
    const file = write('source.mjs', 'import { greeting } from "./common.mjs";\nexport default { type: "source", props: {}, async run() { this.$emit({ greeting }); } };\n');
    const first = await bundle(file);
    assert.equal(first.filename, 'source.mjs');
    assert.match(first.code, /hello/);
    assert.equal(entries().length, 1);
    mark();
    const second = await bundle(file);
    assert.equal(second.code, first.code + MARK);
  });

  it('bundles again when the file or one of its imports changed', async () => {
    const { write, mark, bundle } = setup();
    write('common.mjs', 'export const greeting = "hello";\n');
    const file = write('source.mjs', 'import { greeting } from "./common.mjs";\nexport default { type: "source", props: {}, async run() { this.$emit({ greeting }); } };\n');
    await bundle(file);
    mark();
    write('common.mjs', 'export const greeting = "bonjour";\n');
    const imported = await bundle(file);
    assert.ok(!imported.code.includes(MARK));
    assert.match(imported.code, /bonjour/);
    mark();
    write('source.mjs', 'import { greeting } from "./common.mjs";\nexport default { type: "source", props: {}, async run() { this.$emit({ greeting, changed: true }); } };\n');
    const changed = await bundle(file);
    assert.ok(!changed.code.includes(MARK));
    assert.match(changed.code, /changed: true/);
    // The entry was written again: it is served the next time.
    mark();
    assert.equal((await bundle(file)).code, changed.code + MARK);
  });

  it('ignores a damaged entry, bundles again and writes it anew', async () => {
    const { write, entries, mark, bundle } = setup();
    const file = write('source.mjs', 'export default { type: "source", props: {}, async run() {} };\n');
    const first = await bundle(file);
    const [entry] = entries() as [string];
    for (const damage of ['{"code": "cut sh', '{"code": 1, "filename": "source.mjs"}', '']) {
      fs.writeFileSync(entry, damage);
      assert.equal((await bundle(file)).code, first.code);
      mark();
      assert.equal((await bundle(file)).code, first.code + MARK);
    }
  });

  it('removes entries not written for a week when it writes one', async () => {
    const { write, entries, bundle } = setup();
    const old = write('old.mjs', 'export default { type: "source", props: {}, async run() {} };\n');
    const recent = write('recent.mjs', 'export default { type: "source", props: {}, async run() { return 1; } };\n');
    await bundle(old);
    await bundle(recent);
    const [oldEntry] = entries().filter((e) => fs.readFileSync(e, 'utf8').includes('old.mjs')) as [string];
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    fs.utimesSync(oldEntry, weekAgo, weekAgo);
    await bundle(write('new.mjs', 'export default { type: "source", props: {}, async run() { return 2; } };\n'));
    assert.equal(entries().length, 2);
    assert.ok(!fs.existsSync(oldEntry));
  });
});
