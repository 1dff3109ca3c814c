// Registry code is shown and edited as the registry has it (issue 43, point 5): a registry
// component's reads give its original files (the component, its app file, its common/ module,
// comments and all), not only its bundle; a source is updated by sending edited files, which the
// service bundles, and the next read gives the edited files back.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

const TREE = path.resolve('test', 'fixtures', 'components', 'files');
const ENTRY = 'notely/sources/new-note/new-note.mjs';
const APP = 'notely/notely.app.mjs';
const COMMON = 'notely/common/format.mjs';
const MANIFEST = 'notely/package.json';

type Files = Array<{ path: string; code: string }>;
const onDisk = (rel: string) => fs.readFileSync(path.join(TREE, rel), 'utf8');
const byPath = (files: Files) => Object.fromEntries(files.map((f) => [f.path, f.code]));

describe('registry components keep their original files', () => {
  let spout: SpoutProcess;
  const dataDir = tempDir();

  before(async () => {
    spout = await startSpout({ dataDir, args: ['--registry', TREE] });
  });
  after(async () => {
    await spout.stop();
  });

  /** Runs the source now and answers the note it emitted. */
  const runNote = async (id: string) => {
    const run = await spout.api('POST', `/v1/sources/${id}/run`);
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.data.error, null, JSON.stringify(run.json.data.error));
    const events = await waitFor(async () => {
      const res = await spout.api('GET', `/v1/sources/${id}/event_summaries?expand=event&limit=1`);
      return res.json.data.length ? res.json.data : null;
    });
    return events[0].event.note as string;
  };

  const deploy = async () => {
    const res = await spout.api('POST', '/v1/sources', { component_key: 'notely-new-note' });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json.data as { id: string; component_id: string };
  };

  it('gives the registry component read, the deployed source and its component the files verbatim, the entry first', async () => {
    const registry = await spout.api('GET', '/v1/components/registry/notely-new-note');
    assert.equal(registry.status, 200, JSON.stringify(registry.json));
    assert.equal(registry.json.data.entry_file, ENTRY);
    assert.deepEqual(
      (registry.json.data.files as Files).map((f) => f.path),
      [ENTRY, COMMON, APP, MANIFEST],
    );
    for (const [rel, code] of Object.entries(byPath(registry.json.data.files))) assert.equal(code, onDisk(rel), `${rel} as the registry has it`);
    // The bundle is still there for older clients.
    assert.match(registry.json.data.code, /greeting/);

    const source = await deploy();
    const read = await spout.api('GET', `/v1/sources/${source.id}`);
    assert.equal(read.json.data.entry_file, ENTRY);
    assert.equal(read.json.data.code_is_bundle, undefined);
    const files = byPath(read.json.data.files);
    assert.equal(files[ENTRY], onDisk(ENTRY));
    assert.match(files[ENTRY] as string, /\/\/ Emits one note each time it runs/);
    assert.equal(files[APP], onDisk(APP));
    assert.equal(files[COMMON], onDisk(COMMON));
    assert.doesNotMatch(files[ENTRY] as string, /var \w+_default/);

    const component = await spout.api('GET', `/v1/components/${source.component_id}`);
    assert.deepEqual(component.json.data.files, read.json.data.files);
    assert.equal(await runNote(source.id), 'HELLO FROM THE APP!');
    await spout.api('DELETE', `/v1/sources/${source.id}`);
  });

  it('updates a source from edited files: the new code runs and the next read gives the edited files', async () => {
    const source = await deploy();
    const read = await spout.api('GET', `/v1/sources/${source.id}`);
    const edited = (read.json.data.files as Files).map((f) => (f.path === APP ? { ...f, code: f.code.replace('// The Notely app', '// Edited here: the Notely app').replace('hello from the app', 'hello from the edit') } : f));
    const put = await spout.api('PUT', `/v1/sources/${source.id}`, { files: edited });
    assert.equal(put.status, 200, JSON.stringify(put.json));
    assert.equal(await runNote(source.id), 'HELLO FROM THE EDIT!');
    const again = await spout.api('GET', `/v1/sources/${source.id}`);
    assert.deepEqual(again.json.data.files, edited);
    assert.equal(again.json.data.entry_file, ENTRY);

    // A comment is an edit too, though the bundle drops it: it is kept, not lost to an equal bundle.
    const commented = edited.map((f) => (f.path === COMMON ? { ...f, code: `// A comment only\n${f.code}` } : f));
    assert.equal((await spout.api('PUT', `/v1/sources/${source.id}`, { files: commented })).status, 200);
    assert.deepEqual((await spout.api('GET', `/v1/sources/${source.id}`)).json.data.files, commented);
    await spout.api('DELETE', `/v1/sources/${source.id}`);
  });

  it('refuses files that are not safe relative paths, or reach outside themselves, naming the fix', async () => {
    const source = await deploy();
    const files = (await spout.api('GET', `/v1/sources/${source.id}`)).json.data.files as Files;
    for (const bad of ['../escape.mjs', '/etc/passwd', 'notely/../../x.mjs', 'notely/./x.mjs', 'a\\b.mjs', '']) {
      const res = await spout.api('PUT', `/v1/sources/${source.id}`, { files: [...files, { path: bad, code: 'export default {}' }] });
      assert.equal(res.status, 400, `${bad}: ${JSON.stringify(res.json)}`);
      assert.match(res.json.detail, /relative path inside the component/);
    }
    const outside = files.map((f) => (f.path === ENTRY ? { ...f, code: `import secret from "../../../../../../etc/hostname";\n${f.code}` } : f));
    const escaped = await spout.api('PUT', `/v1/sources/${source.id}`, { files: outside });
    assert.equal(escaped.status, 400, JSON.stringify(escaped.json));
    assert.match(JSON.stringify(escaped.json), /outside the component's files/);
    const noEntry = await spout.api('PUT', `/v1/sources/${source.id}`, { files: files.filter((f) => f.path !== ENTRY) });
    assert.equal(noEntry.status, 400);
    assert.match(JSON.stringify(noEntry.json), /is not one of the files given/);
    const both = await spout.api('PUT', `/v1/sources/${source.id}`, { files, component_code: 'export default {}' });
    assert.equal(both.status, 400);
    const tooMany = await spout.api('PUT', `/v1/sources/${source.id}`, { files: Array.from({ length: 201 }, (_, i) => ({ path: `f${i}.mjs`, code: '' })) });
    assert.equal(tooMany.status, 400);
    // The source runs as it did.
    assert.equal(await runNote(source.id), 'HELLO FROM THE APP!');
    await spout.api('DELETE', `/v1/sources/${source.id}`);
  });

  it('keeps single-file code as it is, and says when a source deployed before files were kept shows its bundle', async () => {
    const own = await spout.api('POST', '/v1/sources', { component_code: 'export default { name: "Own", version: "0.0.1", props: {}, async run() {} };' });
    const ownRead = await spout.api('GET', `/v1/sources/${own.json.data.id}`);
    assert.equal(ownRead.json.data.files, undefined);
    assert.equal(ownRead.json.data.code_is_bundle, undefined);

    // A source of an older Spout: its registry component was saved with the bundle only.
    const source = await deploy();
    await spout.stop();
    const file = path.join(dataDir, 'metadata.json');
    const metadata = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const c of metadata.components) {
      delete c.files;
      delete c.entry_file;
    }
    fs.writeFileSync(file, JSON.stringify(metadata));
    spout = await startSpout({ dataDir, args: ['--registry', TREE] });
    const read = await spout.api('GET', `/v1/sources/${source.id}`);
    assert.equal(read.json.data.code_is_bundle, true);
    assert.equal(read.json.data.files, undefined);
    assert.equal(await runNote(source.id), 'HELLO FROM THE APP!');
  });
});
