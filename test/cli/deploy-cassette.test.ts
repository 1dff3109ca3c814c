// Issue 45 (4, 5): `spout deploy --network discover --skeleton FILE` lists every call a deploy makes
// and writes them as a cassette to fill in; `--cassette FILE` deploys with it (hooks replay from it);
// a failed deploy prints its hook run's unanswered calls and points at --cassette.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir } from '../helpers/service';

const API = 'https://sheets.example-api.test';

/** A polling source in the registry's shape, written for this test: its deploy() reads two things from the API. */
const SOURCE = `export default {
  key: "sheet-new-rows",
  name: "New rows",
  version: "0.0.1",
  type: "source",
  props: { db: "$.service.db", token: { type: "string", secret: true }, sheet: { type: "string" } },
  hooks: {
    async deploy() {
      const meta = await fetch("${API}/v4/sheets/" + this.sheet + "?fields=title", { headers: { authorization: "Bearer " + this.token } }).then((r) => r.json());
      const rows = await fetch("${API}/v4/sheets/" + this.sheet + "/values/A1:Z", { headers: { authorization: "Bearer " + this.token } }).then((r) => r.json());
      if (!meta.title) throw new Error("the sheet has no title");
      this.db.set("seen", (rows.values ?? []).length);
    },
  },
  async run() {
    this.$emit({ seen: this.db.get("seen") }, { id: String(Date.now()) });
  },
};
`;

describe('spout deploy --cassette / --network discover --skeleton', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  const dir = tempDir('spout-cli-deploy-cassette-');
  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
    fs.writeFileSync(path.join(dir, 'rows.mjs'), SOURCE);
  });
  after(async () => {
    await spout.stop();
  });
  const props = JSON.stringify({ token: 'tok_CLEAR_777', sheet: 'S1' });

  it('discovers every call of a deploy in one try, writes the skeleton, and deploys with it filled in', async () => {
    const failed = await cli(['deploy', 'rows.mjs', '--props', props, '--network', 'discover', '--skeleton', 'rows.cassette.json', '--no-follow'], env, { cwd: dir });
    // Discovery answers {}: this deploy() then throws, and the calls it made are still listed.
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /2 calls of the deploy had no recording:/);
    assert.match(failed.stderr, /GET https:\/\/sheets\.example-api\.test\/v4\/sheets\/S1\?fields=title/);
    assert.match(failed.stderr, /GET https:\/\/sheets\.example-api\.test\/v4\/sheets\/S1\/values\/A1:Z/);
    const skeleton = JSON.parse(fs.readFileSync(path.join(dir, 'rows.cassette.json'), 'utf8')) as { entries: Array<{ request: { url: string; headers: Record<string, string> }; response: { status: number; body: string } }> };
    assert.equal(skeleton.entries.length, 2);
    assert.equal(skeleton.entries[0]!.request.headers.authorization, '********');
    assert.ok(!JSON.stringify(skeleton).includes('tok_CLEAR_777'));

    skeleton.entries[0]!.response.body = '{"title":"Leads"}';
    skeleton.entries[1]!.response.body = '{"values":[["a"],["b"]]}';
    fs.writeFileSync(path.join(dir, 'rows.cassette.json'), JSON.stringify(skeleton));
    const source = (await cliJson(['deploy', 'rows.mjs', '--props', props, '--cassette', 'rows.cassette.json', '--no-follow'], env, { cwd: dir })) as { id: string; network_mode: string };
    assert.equal(source.network_mode, 'replay');
    assert.equal((await cli(['run', source.id], env)).code, 0);
  });

  it('says what a failed deploy lacked and how to give it', async () => {
    fs.writeFileSync(path.join(dir, 'empty.cassette.json'), '{"entries":[]}');
    const r = await cli(['deploy', 'rows.mjs', '--props', props, '--cassette', 'empty.cassette.json', '--no-follow'], env, { cwd: dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no recording of GET https:\/\/sheets\.example-api\.test\/v4\/sheets\/S1\?fields=title/);
    assert.match(r.stderr, /spout deploy --cassette FILE/);
    assert.doesNotMatch(r.stderr, /\/v1\/sources\/dc_/);
    assert.match(r.stderr, /--skeleton FILE writes them as a cassette to fill in/);
  });

  it('turns a discovery run’s calls into a cassette to fill in (spout cassette skeleton)', async () => {
    fs.writeFileSync(
      path.join(dir, 'changes.mjs'),
      `export default {
  name: "Changes", version: "0.0.1", type: "source", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } } },
  async run() {
    const a = await fetch("${API}/v4/changes?q=name%20contains%20'x'", { method: "POST", body: '{"since":1}' }).then((r) => r.json());
    const b = await fetch("${API}/v4/about").then((r) => r.json());
    this.$emit({ a, b }, { id: "1" });
  },
};
`,
    );
    const source = (await cliJson(['deploy', 'changes.mjs', '--network', 'discover', '--no-follow'], env, { cwd: dir })) as { id: string };
    const ran = (await cliJson(['run', source.id], env)) as { invocation_id: string; error: unknown };
    assert.equal(ran.error, null);
    const r = await cli(['cassette', 'skeleton', ran.invocation_id, 'changes.cassette.json'], env, { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Added 2 calls of inv_/);
    const written = JSON.parse(fs.readFileSync(path.join(dir, 'changes.cassette.json'), 'utf8')) as { entries: Array<{ request: { method: string; url: string; body: string } }> };
    assert.deepEqual(
      written.entries.map((e) => [e.request.method, e.request.url, e.request.body]),
      [
        ['POST', `${API}/v4/changes?q=name%20contains%20%27x%27`, ''],
        ['GET', `${API}/v4/about`, ''],
      ],
    );
  });

  it('spout run --skeleton writes a polling run’s discovered calls in one step, and a plain run names that command', async () => {
    fs.writeFileSync(
      path.join(dir, 'poll.mjs'),
      `export default {
  name: "Poll", version: "0.0.1", type: "source", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } } },
  async run() {
    const page = await fetch("${API}/v4/items?page=1").then((r) => r.json());
    this.$emit({ items: page.items ?? [] }, { id: String(Date.now()) });
  },
};
`,
    );
    const source = (await cliJson(['deploy', 'poll.mjs', '--network', 'discover', '--no-follow'], env, { cwd: dir })) as { id: string };
    const plain = await cli(['run', source.id], env);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stderr, /1 call had no recording: "spout cassette skeleton inv_\S+ FILE" writes them as a cassette to fill in \(or run with --skeleton FILE\)/);
    assert.ok(!fs.existsSync(path.join(dir, 'poll.cassette.json')));

    const r = await cli(['run', source.id, '--skeleton', 'poll.cassette.json'], env, { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Added 1 call of inv_\S+ to .*poll\.cassette\.json:/);
    assert.doesNotMatch(r.stderr, /had no recording/);
    const written = JSON.parse(fs.readFileSync(path.join(dir, 'poll.cassette.json'), 'utf8')) as { entries: Array<{ request: { method: string; url: string }; response: { body: string } }> };
    assert.deepEqual(
      written.entries.map((e) => [e.request.method, e.request.url]),
      [['GET', `${API}/v4/items?page=1`]],
    );

    // Filled in and imported, the next run replays it: no call is unanswered, so no hint.
    written.entries[0]!.response.body = '{"items":[{"id":7}]}';
    fs.writeFileSync(path.join(dir, 'poll.cassette.json'), JSON.stringify(written));
    assert.equal((await cli(['cassette', 'import', source.id, 'poll.cassette.json'], env, { cwd: dir })).code, 0);
    assert.equal((await cli(['update', source.id, '--network', 'replay'], env)).code, 0);
    const replayed = await cli(['run', source.id], env);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.doesNotMatch(replayed.stderr, /had no recording/);
    assert.match(replayed.stdout, /"id": ?7/);
  });
});
