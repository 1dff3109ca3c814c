// Issue 44 point 5: saved components' texts (code, bundle, original files) live in content files
// named by their sha256 (`components/<sha256>.<kind>`), written before the metadata.json that names
// them, so a save writes its new texts and a small record; an older data dir (texts inline) moves
// to them on start, losing nothing; a crash between the two writes leaves no record naming a file
// that is not there; and a sweep removes only files no version of metadata.json names.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { contentNamesIn, sha256 } from '../../../runtime/lib/content-files';
import { StoredContentMissing } from '../../../runtime/lib/error-kinds';
import type { FileProblem } from '../../../runtime/lib/file-problems';
import { type ComponentRecord, type Metadata, openMetadata } from '../../../runtime/store/metadata';
import { tempDir } from '../../helpers/service';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = tempDir('spout-content-');
  dirs.push(dir);
  return dir;
};

/** A table of about 100 KB, as a bundle with its inline source map is. */
const TABLE = Array.from({ length: 2500 }, (_, i) => `["row-${i}", ${i}]`).join(',\n');

/** Version `n` of a component (written for this test): each text distinct, the bundle about 100 KB. */
function component(n: number, files = false): ComponentRecord {
  const code = `export default { name: "Big", version: "1.0.${n}", props: {}, async run() { return ${n}; } };\n`;
  return {
    id: `sc_test${n}`,
    key: 'big',
    name: 'Big',
    version: `1.0.${n}`,
    type: 'source',
    description: null,
    code_hash: sha256(code),
    created_at: 1_700_000_000 + n,
    code,
    filename: 'big.mjs',
    bundle: `const TABLE = [${TABLE}];\nmodule.exports = { n: ${n} };\n`,
    configurable_props: [],
    ...(files ? { files: [{ path: 'big.mjs', code }], entry_file: 'big.mjs' } : {}),
  };
}

/** The texts of a record as plain values (its getters read its files). */
const plain = (c: ComponentRecord) => ({ ...c });

const metadataOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'metadata.json'), 'utf8')) as { components: Array<Record<string, unknown>> };
const contentFiles = (dir: string) => (fs.existsSync(path.join(dir, 'components')) ? fs.readdirSync(path.join(dir, 'components')).sort() : []);

/** Every content file any version of metadata.json on disk names, checked to be there. */
function assertNoDanglingNames(dir: string): void {
  for (const name of fs.readdirSync(dir).filter((n) => n.startsWith('metadata.json'))) {
    for (const named of contentNamesIn(fs.readFileSync(path.join(dir, name), 'utf8'))) assert.ok(fs.existsSync(path.join(dir, 'components', named)), `${name} names components/${named}, which is there`);
  }
}

async function save(metadata: Metadata, record: ComponentRecord): Promise<void> {
  metadata.data.components.push(record);
  await metadata.write();
}

describe('component content files', () => {
  it('a save writes its texts once to content files and a record that does not grow with the bundle', async () => {
    const dir = dataDir();
    const metadata = await openMetadata(dir);
    await save(metadata, component(0, true));
    const first = fs.statSync(path.join(dir, 'metadata.json')).size;
    for (let n = 1; n <= 20; n++) await save(metadata, component(n));
    const last = fs.statSync(path.join(dir, 'metadata.json')).size;
    const bundle = component(0).bundle.length;
    assert.ok(last < bundle / 4, `metadata.json (${last} bytes after 21 saves) is smaller than a quarter of one bundle (${bundle})`);
    assert.ok((last - first) / 20 < 1500, `each save adds ${(last - first) / 20} bytes to metadata.json, not its bundle`);
    const stored = metadataOf(dir).components;
    assert.ok(
      stored.every((c) => c.code === undefined && c.bundle === undefined && c.files === undefined),
      'no text is inline',
    );
    assert.equal(fs.readFileSync(path.join(dir, 'metadata.json.copy'), 'utf8'), fs.readFileSync(path.join(dir, 'metadata.json'), 'utf8'));
    // Each text in the file named by its hash: 21 codes, 21 bundles, one file list.
    const files = contentFiles(dir);
    assert.equal(files.length, 43);
    for (const name of files) assert.equal(`${sha256(fs.readFileSync(path.join(dir, 'components', name), 'utf8'))}${path.extname(name)}`, name);
    assert.equal((fs.statSync(path.join(dir, 'components', files[0] as string)).mode & 0o777).toString(8), '600');
    // The same texts saved again (another record of the same code) write no new file.
    await save(metadata, { ...component(3), id: 'sc_again' });
    assert.equal(contentFiles(dir).length, 43);

    const reopened = await openMetadata(dir);
    assert.deepEqual(reopened.data.components.map(plain), [...Array.from({ length: 21 }, (_, n) => component(n, n === 0)), { ...component(3), id: 'sc_again' }]);
  });

  it('moves the texts of an older data dir (inline in metadata.json) to content files on start, losing nothing', async () => {
    const dir = dataDir();
    const older = {
      webhooks: [],
      subscriptions: [],
      components: [component(1), component(2, true)],
      sources: [{ id: 'dc_old', component_id: 'sc_test2', name: 'Old', name_slug: 'old', configured_props: {}, endpoints: {}, active: true, created_at: 1, updated_at: 1 }],
      accounts: [],
      auto_subscriptions: [],
      workflows: [],
    };
    fs.writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify(older, null, 2));
    const problems: FileProblem[] = [];
    const metadata = await openMetadata(dir, (p) => problems.push(p));
    assert.deepEqual(problems, []);
    assert.deepEqual(metadata.data.components.map(plain), older.components, 'every text is there as it was');
    assert.deepEqual(metadata.data.sources, older.sources);
    const stored = metadataOf(dir).components;
    assert.ok(stored.every((c) => c.code === undefined && c.bundle === undefined && typeof c.content === 'object'));
    assert.equal(contentFiles(dir).length, 5);
    assert.ok(fs.readFileSync(path.join(dir, 'metadata.json.prev'), 'utf8').includes('"bundle": "const TABLE'), 'the older version is kept as the version before');
    assertNoDanglingNames(dir);
    // Read again, from the files alone.
    const reopened = await openMetadata(dir);
    assert.deepEqual(reopened.data.components.map(plain), older.components);
  });

  it('a kill -9 between the content write and the metadata write loses nothing and leaves no record naming a missing file', async () => {
    const dir = dataDir();
    const metadata = await openMetadata(dir);
    await save(metadata, component(1));
    // A process that saves component 2 and is killed the moment its metadata.json write begins:
    // its texts are on disk, the record naming them is not.
    const script = path.join(dir, 'crash.mts');
    fs.writeFileSync(
      script,
      `import fs from 'node:fs';
import { openMetadata } from ${JSON.stringify(path.resolve('runtime/store/metadata.ts'))};
const record = JSON.parse(process.argv[2]);
const metadata = await openMetadata(${JSON.stringify(dir)});
const open = fs.promises.open;
fs.promises.open = (file, ...rest) => {
  if (String(file).includes('metadata.json') && String(file).endsWith('.tmp')) process.kill(process.pid, 'SIGKILL');
  return open(file, ...rest);
};
metadata.data.components.push(record);
await metadata.write();
`,
    );
    const signal = await new Promise((resolve) => spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(component(2))], { stdio: 'inherit' }).on('exit', (_code, sig) => resolve(sig)));
    assert.equal(signal, 'SIGKILL');
    const texts = component(2);
    assert.ok(fs.existsSync(path.join(dir, 'components', `${sha256(texts.bundle)}.js`)), 'the texts were written first');
    assert.equal(metadataOf(dir).components.length, 1, 'the record was not');
    assertNoDanglingNames(dir);

    const problems: FileProblem[] = [];
    const after = await openMetadata(dir, (p) => problems.push(p));
    assert.deepEqual(problems, []);
    assert.deepEqual(after.data.components.map(plain), [component(1)], 'what was saved before is all there');
    assert.ok(!fs.existsSync(path.join(dir, 'components', `${sha256(texts.bundle)}.js`)), 'the texts nothing names were swept at the start');
    // The save made again goes through whole.
    await save(after, component(2));
    assert.deepEqual((await openMetadata(dir)).data.components.map(plain), [component(1), component(2)]);
  });

  it('the sweep removes only content files no version of metadata.json names', async () => {
    const dir = dataDir();
    const metadata = await openMetadata(dir);
    for (const n of [1, 2, 3]) await save(metadata, component(n));
    const nameOf = (n: number) => `${sha256(component(n).bundle)}.js`;
    // A file nothing names (a crash's), a temp file of an interrupted write, and a file named only by records set aside.
    const orphan = `${sha256('orphan')}.js`;
    fs.writeFileSync(path.join(dir, 'components', orphan), 'orphan');
    fs.writeFileSync(path.join(dir, 'components', `${orphan}.123.0.tmp`), 'half');
    const asideOnly = `${sha256('set aside')}.js`;
    fs.writeFileSync(path.join(dir, 'components', asideOnly), 'set aside');
    fs.writeFileSync(path.join(dir, 'metadata.json.damaged'), `${JSON.stringify({ collection: 'components', record: { id: 'sc_aside', content: { bundle: asideOnly } } })}\n`);

    // Component 2 deleted: the version before (metadata.json.prev) still names its files, so they stay.
    metadata.data.components = metadata.data.components.filter((c) => c.id !== 'sc_test2');
    await metadata.write();
    assert.ok(fs.existsSync(path.join(dir, 'components', nameOf(2))), 'kept while metadata.json.prev names it');
    assert.ok(!fs.existsSync(path.join(dir, 'components', orphan)), 'a file nothing names goes');
    assert.ok(!fs.readdirSync(path.join(dir, 'components')).some((n) => n.endsWith('.tmp')), 'temp files go');
    assert.ok(fs.existsSync(path.join(dir, 'components', asideOnly)), 'records set aside keep their files');
    assertNoDanglingNames(dir);

    // Once no version names it (another write), the next start sweeps it; the others stay.
    metadata.data.webhooks = [];
    await metadata.write();
    const reopened = await openMetadata(dir);
    assert.ok(!fs.existsSync(path.join(dir, 'components', nameOf(2))));
    for (const n of [1, 3]) assert.ok(fs.existsSync(path.join(dir, 'components', nameOf(n))));
    assertNoDanglingNames(dir);
    assert.deepEqual(reopened.data.components.map(plain), [component(1), component(3)]);
  });

  it('a record naming a missing content file is reported at the start with the source and the fix, and reading it says so', async () => {
    const dir = dataDir();
    const metadata = await openMetadata(dir);
    await save(metadata, component(1));
    metadata.data.sources.push({ id: 'dc_big', component_id: 'sc_test1', name: 'Big one', name_slug: 'big-one', configured_props: {}, endpoints: {}, active: true, created_at: 1, updated_at: 1 });
    await metadata.write();
    fs.rmSync(path.join(dir, 'components', `${sha256(component(1).bundle)}.js`));
    const problems: FileProblem[] = [];
    const reopened = await openMetadata(dir, (p) => problems.push(p));
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.message ?? '', /component sc_test1 keeps its bundle in components\/[0-9a-f]{64}\.js, which is missing: source dc_big \("Big one"\) cannot load until .*spout update dc_big --code FILE/);
    const [record] = reopened.data.components;
    assert.equal(record?.code, component(1).code, 'its other texts read as before');
    assert.throws(
      () => record?.bundle,
      (err: unknown) => err instanceof StoredContentMissing && /is missing from the data dir; restore it from a backup, or save the code again/.test(err.message),
    );
  });
});
