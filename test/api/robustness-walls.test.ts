// Issue 22: the walls Node's permission model leaves open are closed, each with the same clear
// "components may not …" error: local sockets (by path and in the abstract namespace), the
// priority of other processes and a priority above the service's (issue 42), V8's flags, looking up files outside the grants (the answer is the
// same whether the file exists or not), and descriptors the host inherited.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** A source (written for this test) that tries the wall its request names and emits what happened. */
const WALLS = `import fs from "node:fs"; import net from "node:net"; import os from "node:os"; import v8 from "node:v8"; import { createRequire } from "node:module";
export default { name: "Walls", version: "0.1.0", props: { http: "$.interface.http" },
  async run(event) {
    const { wall, file, fd } = event.body;
    const attempt = async () => {
      if (wall === "unix") return new Promise((resolve, reject) => net.connect(file).on("connect", resolve).on("error", reject));
      if (wall === "abstract") return new Promise((resolve, reject) => net.connect("\\0spout-test").on("connect", resolve).on("error", reject));
      if (wall === "listen") return new Promise((resolve, reject) => net.createServer().listen(file, resolve).on("error", reject));
      if (wall === "priority") return os.setPriority(process.ppid, 19);
      if (wall === "own-priority") return os.setPriority(os.getPriority());
      if (wall === "raise-priority") {
        // Every form of the call; run as root, each would succeed without the wall.
        const errors = [];
        for (const call of [() => os.setPriority(-20), () => os.setPriority(0, -20), () => os.setPriority(process.pid, -20)]) {
          try { call(); errors.push(null); } catch (err) { errors.push(err.message); }
        }
        throw new Error(JSON.stringify({ errors, nice: os.getPriority() }));
      }
      if (wall === "v8") return v8.setFlagsFromString("--allow-natives-syntax");
      if (wall === "resolve") return createRequire("/").resolve(file);
      if (wall === "realpath") return fs.realpathSync(file);
      if (wall === "exists") {
        const found = await new Promise((resolve) => fs.exists(file, resolve));
        throw new Error(JSON.stringify({ sync: fs.existsSync(file), callback: found, relative: fs.existsSync("config/settings.json") }));
      }
      if (wall === "fd") return fs.writeSync(fd, "escaped\\n");
    };
    try {
      await attempt();
      this.$emit({ wall, error: null });
    } catch (err) {
      this.$emit({ wall, error: err.message, code: err.code ?? null });
    }
  },
};`;

async function tryWall(spout: SpoutProcess, source: { id: string; endpoint: string }, body: Record<string, unknown>): Promise<{ error: string | null; code: string | null }> {
  const before = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=1`)).json.page_info.total_count as number;
  const res = await fetch(source.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  return waitFor(
    async () => {
      const page = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=1&expand=event`)).json;
      return page.page_info.total_count > before ? (page.data[0].event as { error: string | null; code: string | null }) : undefined;
    },
    15_000,
    `the ${String(body.wall)} attempt`,
  );
}

describe('the walls around a component', () => {
  let spout: SpoutProcess;
  let source: { id: string; endpoint: string };
  before(async () => {
    spout = await startSpout();
    source = await deploySource(spout, WALLS);
  });
  after(async () => void (await spout.stop()));

  it('refuses UNIX-domain sockets by path and in the abstract namespace, to connect and to listen', async () => {
    const socket = path.join(tempDir(), 'agent.sock');
    for (const [wall, what] of [
      ['unix', JSON.stringify(socket)],
      ['abstract', '"\\u0000spout-test"'],
      ['listen', JSON.stringify(socket)],
    ] as const) {
      const { error, code } = await tryWall(spout, source, { wall, file: socket });
      assert.ok(error?.includes(`${what}: components may not connect to or listen on local sockets (UNIX-domain sockets, abstract sockets, named pipes) (docs/security.md)`), `${wall}: ${error}`);
      assert.equal(code, 'ERR_ACCESS_DENIED');
    }
    assert.equal(fs.existsSync(socket), false);
  });

  it("refuses to change another process's priority (its own it may), and V8's flags", async () => {
    assert.equal((await tryWall(spout, source, { wall: 'priority' })).error, 'os.setPriority: components may not change the priority of another process (docs/security.md)');
    assert.equal((await tryWall(spout, source, { wall: 'own-priority' })).error, null);
    // Issue 42: run as root, a host could raise itself to nice -20, above the service.
    const service = os.getPriority(spout.child.pid as number);
    const raised = JSON.parse((await tryWall(spout, source, { wall: 'raise-priority' })).error ?? '{}') as { errors: Array<string | null>; nice: number };
    assert.deepEqual(raised.errors, Array(3).fill(`os.setPriority: components may not raise their priority above the service's (nice ${service}) (docs/security.md)`));
    assert.equal(raised.nice, service);
    assert.equal((await tryWall(spout, source, { wall: 'v8' })).error, "v8.setFlagsFromString: components may not change V8's flags (they open its internal functions) (docs/security.md)");
  });

  it('answers a look-up of a file outside the grants the same way whether it exists or not', async () => {
    const there = path.join(spout.dataDir, 'secret.key');
    const missing = path.join(spout.dataDir, 'no-such.key');
    for (const wall of ['resolve', 'realpath']) {
      const call = wall === 'resolve' ? 'require' : 'fs.realpathSync';
      for (const file of [there, missing]) {
        const { error, code } = await tryWall(spout, source, { wall, file });
        assert.equal(error, `${call}("${file}"): components may not look up files outside the folders granted to them (whether they exist included) (docs/security.md)`);
        assert.equal(code, 'ERR_ACCESS_DENIED');
      }
    }
  });

  it('answers existsSync and exists outside the grants with false, never a throw, whether the file is there or not', async () => {
    // Packages probe for optional files as they load (a cwd-relative `config/….json` among them), where Node promises no throw.
    for (const file of [path.join(spout.dataDir, 'secret.key'), path.join(spout.dataDir, 'no-such.key')]) {
      const { error } = await tryWall(spout, source, { wall: 'exists', file });
      assert.deepEqual(JSON.parse(error ?? 'null'), { sync: false, callback: false, relative: false }, file);
    }
  });
});

describe('a descriptor the service inherited', () => {
  it('cannot be used by a component', { skip: process.platform !== 'linux' || !fs.existsSync('/bin/bash') }, async () => {
    const dataDir = tempDir();
    const inherited = path.join(tempDir(), 'inherited.txt');
    // Whatever started the service left descriptor 300 open (and not closed on exec).
    const child = spawn('/bin/bash', ['-c', 'exec 300>"$0"; exec "$@"', inherited, process.execPath, path.resolve('dist', 'cli.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--api-key', 'k'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    try {
      const url = await waitFor(() => /Spout listening on (\S+)/.exec(out)?.[1], 15_000, 'the service');
      const api = async (method: string, route: string, body?: unknown) => {
        const res = await fetch(url + route, { method, headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: res.status, json: (await res.json()) as any, headers: res.headers };
      };
      const spout = { api, dataDir } as unknown as SpoutProcess;
      const source = await deploySource(spout, WALLS);
      const { error, code } = await tryWall(spout, source, { wall: 'fd', fd: 300 });
      assert.equal(error, 'fs.writeSync(300): components may not use file descriptors they did not open (docs/security.md)');
      assert.equal(code, 'ERR_ACCESS_DENIED');
      assert.equal(fs.readFileSync(inherited, 'utf8'), '');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
