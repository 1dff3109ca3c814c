// `spout dev` and a change made elsewhere (issue 43): the UI saves new code while dev watches the
// file; dev says so, writes the UI's code out for comparison, holds the next save of the file
// instead of replacing the UI's code with it, and replaces it only when the file is saved again.
// A change that kept dev's code (a rename) loses nothing to a save, which goes on as before.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliEnv, startCli } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** An HTTP source answering its greeting. */
const source = (greeting: string) => `export default {
  name: "Greeter",
  version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run() {
    this.http.respond({ status: 200, body: "${greeting}" });
  },
};
`;

describe('spout dev and changes made elsewhere', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout();
  });
  after(async () => void (await spout.stop()));

  it('reports a save from the UI, holds the next save of the file, and replaces the UI version only when saved again', async () => {
    const dir = tempDir('spout-dev-conflict-');
    const file = path.join(dir, 'greeter.mjs');
    fs.writeFileSync(file, source('from the file'));
    const dev = startCli(['dev', 'greeter.mjs', '--json'], cliEnv(spout), { cwd: dir });
    try {
      const deployed = await dev.waitForLine((l) => l.type === 'deployed', 'the deployed line');
      const id = deployed.source.id as string;
      const endpoint = deployed.source.configured_props.http.endpoint_url as string;
      const answer = async () => (await fetch(endpoint)).text();

      // The UI saves other code, based on the version dev deployed.
      const ui = await spout.api('PUT', `/v1/sources/${id}`, { component_code: source('from the UI'), base_version: 1 }, { 'x-spout-ui': '1' });
      assert.equal(ui.status, 200, JSON.stringify(ui.json));
      const changed = await dev.waitForLine((l) => l.type === 'changed', 'the changed line');
      assert.equal(changed.version, 2);
      assert.equal(changed.changed_by, 'ui');
      assert.equal(changed.code_changed, true);
      assert.match(changed.message, /changed from the UI: it is at version 2 .*next save of greeter\.mjs is held/);
      assert.match(fs.readFileSync(changed.code_file, 'utf8'), /from the UI/, "the UI's code is written out for comparison");

      // The next save of the file is not deployed: the UI's code keeps running.
      fs.writeFileSync(file, source('from the file, edited'));
      const conflict = await dev.waitForLine((l) => l.type === 'conflict', 'the conflict line');
      assert.equal(conflict.current_version, 2);
      assert.equal(conflict.base_version, 1);
      assert.match(conflict.message, /greeter\.mjs was not deployed: .*changed from the UI.*Save greeter\.mjs again/);
      assert.equal(await answer(), 'from the UI');
      assert.equal((await spout.api('GET', `/v1/sources/${id}`)).json.data.version, 2);

      // Saved again: now it replaces the UI's version, knowingly.
      fs.writeFileSync(file, source('from the file, edited'));
      const updated = await dev.waitForLine((l) => l.type === 'updated', 'the updated line');
      assert.equal(updated.source.version, 3);
      assert.equal(updated.source.changed_by, 'dev');
      assert.equal(await answer(), 'from the file, edited');

      // A rename in the UI keeps dev's code: said, and the next save goes on at once.
      await spout.api('PUT', `/v1/sources/${id}`, { name: 'Renamed in the UI', base_version: 3 }, { 'x-spout-ui': '1' });
      const renamed = await dev.waitForLine((l) => l.type === 'changed' && l.version === 4, 'the rename line');
      assert.equal(renamed.code_changed, false);
      fs.writeFileSync(file, source('from the file, third'));
      await waitFor(async () => (await answer()) === 'from the file, third', 10_000, 'the third save to be live');
      const now = (await spout.api('GET', `/v1/sources/${id}`)).json.data;
      assert.equal(now.version, 5);
      assert.equal(now.name, 'Renamed in the UI', 'the rename is kept');
      assert.equal(dev.lines().filter((l) => l.type === 'conflict').length, 1);
      assert.equal(await dev.interrupt(), 0);
    } finally {
      dev.child.kill('SIGKILL');
    }
  });
});
