// `spout describe SRC --files DIR` writes a registry source's original files (issue 43, point 5);
// `spout update SRC --files DIR` sends them back edited, and the service bundles and runs them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

const TREE = path.resolve('test', 'fixtures', 'components', 'files');
const APP = 'notely/notely.app.mjs';

describe('spout describe/update --files', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout({ args: ['--registry', TREE] });
  });
  after(async () => {
    await spout.stop();
  });

  it('writes the files as the registry has them, and an edit sent back runs', async () => {
    const env = cliEnv(spout);
    const deployed = await cli(['deploy', 'notely-new-note', '--json'], env);
    assert.equal(deployed.code, 0, deployed.stderr);
    const id = deployed.json<{ id: string }>().id;
    const dir = tempDir('spout-files-out-');
    const described = await cli(['describe', id, '--files', dir], env);
    assert.equal(described.code, 0, described.stderr);
    assert.match(described.stdout, /Wrote 4 files under .* \(the component: notely\/sources\/new-note\/new-note\.mjs\)/);
    for (const rel of [APP, 'notely/common/format.mjs', 'notely/sources/new-note/new-note.mjs', 'notely/package.json']) {
      assert.equal(fs.readFileSync(path.join(dir, rel), 'utf8'), fs.readFileSync(path.join(TREE, rel), 'utf8'), rel);
    }
    const app = path.join(dir, APP);
    fs.writeFileSync(app, fs.readFileSync(app, 'utf8').replace('hello from the app', 'hello from the cli'));
    const updated = await cli(['update', id, '--files', dir], env);
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal((await spout.api('POST', `/v1/sources/${id}/run`)).status, 200);
    const note = await waitFor(async () => (await spout.api('GET', `/v1/sources/${id}/event_summaries?expand=event&limit=1`)).json.data[0]?.event.note as string | undefined);
    assert.equal(note, 'HELLO FROM THE CLI!');
  });

  it('says so when a source keeps no files, and what gives its code', async () => {
    const env = cliEnv(spout);
    const file = path.join(tempDir('spout-own-'), 'own.mjs');
    fs.writeFileSync(file, 'export default { name: "Own", version: "0.0.1", props: {}, async run() {} };\n');
    const deployed = await cli(['deploy', file, '--json'], env);
    assert.equal(deployed.code, 0, deployed.stderr);
    const res = await cli(['describe', deployed.json<{ id: string }>().id, '--files', tempDir('spout-files-out-')], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /keeps no original files \(its code is one file\)/);
  });
});
