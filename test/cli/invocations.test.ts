// `spout invocations`, `spout replay [--edit]` and `spout dev --replay-last`, as the real binary.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson, startCli } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

const version = (n: number) => `export default {
  name: "Replayed",
  version: "0.1.${n}",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    if (event.query.fail) throw new Error("asked to fail");
    this.http.respond({ status: 200, body: "v${n}:" + event.bodyRaw });
  },
};
`;

describe('spout invocations and replay', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  const dir = tempDir('spout-cli-inv-');
  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
  });
  after(async () => void (await spout.stop()));

  it('lists runs (all, failed, searched), replays one, and replays an edited request', async () => {
    fs.writeFileSync(path.join(dir, 'replayed.mjs'), version(1));
    const source = await cliJson(['deploy', 'replayed.mjs', '--no-follow'], env, { cwd: dir });
    const endpoint = source.configured_props.http.endpoint_url as string;
    assert.equal(await (await fetch(`${endpoint}/hello?x=1`, { method: 'POST', body: 'payload' })).text(), 'v1:payload');
    await fetch(`${endpoint}?fail=1`, { method: 'POST' });
    const listed = await waitFor(
      async () => {
        const runs = await cliJson(['invocations', source.name_slug, '-n', '5'], env);
        return runs.length === 2 ? runs : null;
      },
      10_000,
      'two runs',
    );
    assert.deepEqual(
      listed.map((r: { status: string }) => r.status),
      ['error', 'ok'],
    );
    const failed = await cliJson(['invocations', source.id, '--failed'], env);
    assert.equal(failed.length, 1);
    assert.equal(failed[0].error.message, 'asked to fail');
    const text = await cli(['invocations', source.id], env);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /ok\s+inv\S+ POST \/hello\?x=1 → 200/);
    assert.match(text.stdout, /error\s+inv\S+ POST \/\?fail=1 → 502 .*asked to fail/);
    assert.equal((await cliJson(['invocations', source.id, '--search', 'PAYLOAD'], env)).length, 1);

    const ok = listed[1];
    const replayed = await cliJson(['replay', ok.id], env);
    assert.equal(replayed.replay_of, ok.id);
    assert.equal(replayed.response.body, 'v1:payload');

    // --edit: the "editor" is a script that changes the body.
    const editor = path.join(dir, 'editor.mjs');
    fs.writeFileSync(editor, `import fs from "node:fs";\nconst f = process.argv[2];\nconst r = JSON.parse(fs.readFileSync(f, "utf8"));\nr.body = "edited";\nfs.writeFileSync(f, JSON.stringify(r));\n`);
    fs.chmodSync(editor, 0o755);
    const edited = await cliJson(['replay', ok.id, '--edit'], { ...env, EDITOR: `${process.execPath} ${editor}`, VISUAL: undefined });
    assert.equal(edited.response.body, 'v1:edited');
    const noEditor = await cli(['replay', ok.id, '--edit'], { ...env, EDITOR: undefined, VISUAL: undefined });
    assert.equal(noEditor.code, 2);
    assert.match(noEditor.stderr, /set VISUAL or EDITOR/);
    const unknown = await cli(['replay', 'inv_nope'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no invocation inv_nope|not found/i);
  });

  it('spout dev --replay-last sends the last request again after each save', async () => {
    const file = path.join(dir, 'dev.mjs');
    fs.writeFileSync(file, version(1));
    const dev = startCli(['dev', 'dev.mjs', '--replay-last', '--json'], env, { cwd: dir });
    try {
      const deployed = await dev.waitForLine((l) => l.type === 'deployed', 'the deployed line');
      const endpoint = deployed.source.configured_props.http.endpoint_url as string;
      assert.equal(await (await fetch(endpoint, { method: 'POST', body: 'again' })).text(), 'v1:again');
      await waitFor(async () => (await cliJson(['invocations', deployed.source.id], env)).length === 1, 10_000, 'the request recorded');
      fs.writeFileSync(file, version(2));
      const line = await dev.waitForLine((l) => l.type === 'replayed', 'the replayed line', 15_000);
      assert.equal(line.invocation.response.body, 'v2:again');
      assert.equal(await dev.interrupt(), 0);
    } finally {
      dev.child.kill('SIGKILL');
    }
  });
});
