// `spout run-action` and `spout workflows`, run as the real binary against a real service.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir } from '../helpers/service';

/** An action that stops early when told to (written for this test). */
const MAYBE_STOP = `export default {
  name: "Maybe stop", version: "0.0.1", type: "action",
  props: { stop: { type: "boolean" } },
  async run({ steps, $ }) {
    console.log("trigger id", steps.trigger?.event?.id);
    if (this.stop) return $.flow.exit("asked to stop");
    $.export("$summary", "kept going");
    return { id: steps.trigger?.event?.id ?? null };
  },
};
`;

describe('spout run-action and workflows', () => {
  let spout: SpoutProcess;
  let env: ReturnType<typeof cliEnv>;
  const dir = tempDir('spout-cli-wf-');
  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
    fs.writeFileSync(path.join(dir, 'maybe-stop.mjs'), MAYBE_STOP);
  });
  after(async () => void (await spout.stop()));

  it('runs a registry action by key and a file, printing exports, return value and exit', async () => {
    const byKey = await cliJson(['run-action', 'formatting-format-text', '--props', '{"text":"hello","operation":"uppercase"}'], env);
    assert.equal(byKey.ret, 'HELLO');
    assert.equal(byKey.exports.$summary, 'Applied uppercase');
    assert.equal(byKey.error, null);

    const went = await cli(['run-action', 'maybe-stop.mjs', '--props', '{"stop":false}', '--steps', '{"trigger":{"event":{"id":9}}}'], env, { cwd: dir });
    assert.equal(went.code, 0, went.stderr);
    assert.match(went.stdout, /trigger id 9/);
    assert.match(went.stdout, /Summary: kept going/);
    assert.match(went.stdout, /Returned: \{"id":9\}/);
    const stopped = await cli(['run-action', 'maybe-stop.mjs', '--props', '{"stop":true}'], env, { cwd: dir });
    assert.match(stopped.stdout, /Exited: asked to stop/);

    const missing = await cli(['run-action', 'maybe-stop.mjs'], env, { cwd: dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing required props: stop/);
    const source = await cli(['run-action', 'http-new-requests'], env);
    assert.equal(source.code, 1);
    assert.match(source.stderr, /is a source; sources are deployed/);
  });

  it("runs the registry's http_request and data store actions", async () => {
    const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping?x=1`;
      const sent = await cliJson(['run-action', 'http-send-request', '--props', JSON.stringify({ request: { method: 'GET', url } })], env);
      assert.deepEqual(sent.ret, { path: '/ping?x=1' });
      assert.equal(sent.exports.$summary, 'Sent GET request');
    } finally {
      server.close();
    }
    const store = (await spout.api('POST', '/v1/data_stores', { name: 'cli' })).json.data.id;
    const props = JSON.stringify({ dataStore: { dataStore: store }, recordKey: 'greeting', value: { hi: true } });
    const added = await cliJson(['run-action', 'data_stores-add-update-record', '--props', props], env);
    assert.equal(added.exports.$summary, 'Added record `greeting`');
    const updated = await cli(['run-action', 'data_stores-add-update-record', '--props', props], env);
    assert.match(updated.stdout, /Summary: Updated record `greeting`/);
    assert.deepEqual((await spout.api('GET', `/v1/data_stores/${store}/records/greeting`)).json.data.value, { hi: true });
  });

  it('lists, runs, replays, exports, imports and deletes workflows', async () => {
    const action = (await spout.api('POST', '/v1/components', { component_code: MAYBE_STOP })).json.data.id;
    const created = await spout.api('POST', '/v1/workflows', { name: 'Nightly', trigger: { type: 'manual' }, steps: [{ name: 'check', component_id: action, configured_props: { stop: false } }] });
    const id = created.json.data.id as string;

    const list = await cliJson(['workflows', 'list'], env);
    assert.deepEqual(
      list.map((w: { id: string }) => w.id),
      [id],
    );
    const ran = await cliJson(['workflows', 'run', 'Nightly', '--event', '{"id":3}'], env);
    assert.equal(ran.status, 'success');
    assert.deepEqual(ran.steps[0].ret, { id: 3 });
    const text = await cli(['workflows', 'runs', id.slice(0, 6)], env);
    assert.match(text.stdout, new RegExp(`${ran.id} success`));
    assert.match(text.stdout, /check: \{"id":3\} — kept going/);
    const replay = await cliJson(['workflows', 'replay', id, ran.id], env);
    assert.equal(replay.replay_of, ran.id);

    const exported = await cli(['workflows', 'export', id], env);
    const file = path.join(dir, 'nightly.json');
    fs.writeFileSync(file, exported.stdout);
    const imported = await cliJson(['workflows', 'import', file], env);
    assert.notEqual(imported.id, id);
    assert.equal(imported.name, 'Nightly');

    assert.equal((await cli(['workflows', 'delete', id], env)).code, 0);
    const remaining = await cli(['workflows', 'describe', 'p_'], env);
    assert.equal(remaining.code, 0, 'one workflow is left, so the prefix is unique');
    const nothing = await cli(['workflows', 'describe', 'nope'], env);
    assert.equal(nothing.code, 1);
    assert.match(nothing.stderr, /no workflow matches "nope"/);
  });
});
