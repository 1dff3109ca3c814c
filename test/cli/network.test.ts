// `spout dev --record` then `--replay` beside the component file, `spout cassette export|import`
// and `spout update --network`, as the real binary.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson, startCli } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

const SOURCE = (url: string) => `export default {
  name: "Feed reader",
  version: "0.1.0",
  props: { key: { type: "string", secret: true } },
  async run() {
    const res = await fetch("${url}/feed?key=" + this.key);
    this.$emit(await res.json());
  },
};
`;

describe('spout dev --record / --replay, spout cassette', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  let api: http.Server;
  let url: string;
  const dir = tempDir('spout-cli-net-');
  before(async () => {
    api = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"first post"}'));
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    spout = await startSpout();
    env = cliEnv(spout);
  });
  after(async () => {
    await spout.stop();
    api.close();
  });

  const lastEvent = async (id: string) => waitFor(async () => ((await cliJson(['events', id, '-n', '1'], env)) as Array<{ event: unknown }>)[0]?.event, 10_000, 'an event');

  it('records beside the file, replays with the API gone, and moves cassettes between sources', async () => {
    const file = path.join(dir, 'feed.mjs');
    fs.writeFileSync(file, SOURCE(url));
    const recording = startCli(['dev', 'feed.mjs', '--record', '--props', '{"key":"k_SECRET_12345"}', '--json'], env, { cwd: dir });
    let recorder: string;
    try {
      recorder = (await recording.waitForLine((l) => l.type === 'deployed', 'the deployed line')).source.id;
      assert.equal((await cli(['run', recorder], env)).code, 0);
      assert.deepEqual(await lastEvent(recorder), { title: 'first post' });
      assert.equal(await recording.interrupt(), 0);
    } finally {
      recording.child.kill('SIGKILL');
    }
    const cassetteFile = path.join(dir, 'feed.cassette.json');
    const saved = fs.readFileSync(cassetteFile, 'utf8');
    assert.equal((JSON.parse(saved) as { entries: unknown[] }).entries.length, 1);
    assert.ok(!saved.includes('k_SECRET_12345'), 'the secret prop is masked in the cassette');

    api.close();
    api.closeAllConnections();
    const replaying = startCli(['dev', 'feed.mjs', '--replay', '--props', '{"key":"k_SECRET_12345"}', '--json'], env, { cwd: dir });
    try {
      const replayer = (await replaying.waitForLine((l) => l.type === 'deployed', 'the deployed line')).source.id as string;
      assert.equal((await cli(['run', replayer], env)).code, 0);
      assert.deepEqual(await lastEvent(replayer), { title: 'first post' }, 'the recorded answer, with the API gone');
      assert.equal(await replaying.interrupt(), 0);
    } finally {
      replaying.child.kill('SIGKILL');
    }

    const other = (await cliJson(['deploy', 'feed.mjs', '--props', '{"key":"k_SECRET_12345"}', '--no-follow'], env, { cwd: dir })) as { id: string };
    assert.equal((await cli(['cassette', 'import', other.id, 'feed.cassette.json'], env, { cwd: dir })).code, 0);
    assert.equal((await cli(['update', other.id, '--network', 'replay'], env)).code, 0);
    assert.equal((await cli(['run', other.id], env)).code, 0);
    assert.deepEqual(await lastEvent(other.id), { title: 'first post' });
    const exported = await cli(['cassette', 'export', other.id], env);
    assert.equal(JSON.parse(exported.stdout).entries.length, 1);

    const bad = await cli(['update', other.id, '--network', 'offline'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /"offline" is not a mode; give one of live, record, replay, replay-or-live/);
    fs.writeFileSync(path.join(dir, 'lonely.mjs'), SOURCE(url));
    const none = await cli(['dev', 'lonely.mjs', '--replay'], env, { cwd: dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no lonely\.cassette\.json to replay; record one first with "spout dev lonely\.mjs --record"/);
  });
});
