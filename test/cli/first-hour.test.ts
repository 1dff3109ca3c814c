// What a new user trips over in the first hour with the CLI (issue 16): addressing a source by the
// key it was deployed by, typos of commands and options, `spout dev` on a file that does not build,
// `spout` from outside the clone (npm link), and `npm start` on a busy port.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson, startCli } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

describe('the CLI in the first hour', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
  });
  after(async () => void (await spout.stop()));

  it('addresses a source by the registry key it was deployed by, and lists both when two share it', async () => {
    const first = await cliJson(['deploy', 'http-new-requests', '--no-follow'], env);
    assert.equal(first.component_key, 'http-new-requests');
    const events = await cli(['events', 'http-new-requests'], env);
    assert.equal(events.code, 0, events.stderr);
    const described = await cliJson(['describe', 'http-new-requests'], env);
    assert.equal(described.id, first.id);

    const second = await cliJson(['deploy', 'http-new-requests', '--no-follow'], env);
    const both = await cli(['events', 'http-new-requests'], env);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /matches 2 sources; give the id or slug of one:/);
    for (const s of [first, second]) assert.ok(both.stderr.includes(s.id), both.stderr);
    await cli(['delete', first.id], env);
    await cli(['delete', second.id], env);
  });

  it('points a mistyped command at the nearest one and at "spout --help", and quotes an unknown option evenly', async () => {
    const [typo, nonsense, option, close] = await Promise.all([cli(['deplyo', 'x.mjs'], env), cli(['frobnicate'], env), cli(['list', 'sources', '--bogus-flag'], env), cli(['deploy', 'x.mjs', '--nmae', 'y'], env)]);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown command "deplyo"; did you mean "spout deploy"\?\nRun "spout --help" for the commands\./);
    assert.match(nonsense.stderr, /unknown command "frobnicate"\nRun "spout --help" for the commands\./);
    assert.doesNotMatch(nonsense.stderr, /frobnicate --help/);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /unknown option "--bogus-flag"/);
    assert.equal((option.stderr.match(/"/g) ?? []).length % 2, 0, `balanced quotes: ${option.stderr}`);
    assert.match(option.stderr, /Run "spout list --help" for its options\./);
    assert.match(close.stderr, /unknown option "--nmae"; did you mean "--name"\?/);
    const version = await cli(['--version'], env);
    assert.match(version.stdout, /^spout \d+\.\d+\.\d+/);
  });

  it('spout dev on a file that does not build: waits without claiming a deployed source, and prints paths outside the folder as absolute', async () => {
    const dir = tempDir('spout-dev-bad-');
    const file = path.join(dir, 'bad.mjs');
    fs.writeFileSync(file, 'export default {\n  name: "Bad",\n  version: "0.1.0",\n  async run() { this.$emit({ a: 1 }\n};\n');
    const elsewhere = tempDir('spout-dev-cwd-');
    const dev = startCli(['dev', file], env, { cwd: elsewhere });
    try {
      await waitFor(() => /Watching/.test(dev.output()), 10_000, 'the watching line');
      const text = dev.output();
      assert.match(text, /has errors; nothing is deployed yet; save a fixed version/);
      assert.ok(text.includes(`${file}:5:`), `absolute file:line in:\n${text}`);
      assert.doesNotMatch(text, /\.\.\//);
      assert.doesNotMatch(text, /stays deployed/);
    } finally {
      assert.equal(await dev.interrupt(), 0);
    }
    assert.match(dev.output(), /nothing was deployed/);
  });

  it('works from any folder once linked (npm link), as the README says', () => {
    const prefix = tempDir('spout-link-');
    const link = spawnSync('npm', ['link', '--ignore-scripts', '--no-audit', '--no-fund'], { env: { ...process.env, npm_config_prefix: prefix }, encoding: 'utf8' });
    assert.equal(link.status, 0, link.stderr);
    const bin = path.join(prefix, 'bin', 'spout');
    const help = spawnSync(bin, ['--help'], { cwd: tempDir('spout-elsewhere-'), env: cliEnv(null) as NodeJS.ProcessEnv, encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /Usage: spout <command>/);
  });

  it('npm start on a busy port says how to pass --port through npm', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const child = spawn(process.execPath, ['scripts/start.js', '--port', String(port)], {
        env: { ...process.env, SPOUT_HEADLESS: '1', SPOUT_DATA_DIR: tempDir(), CI: 'true', npm_lifecycle_event: 'start' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 1, out);
      assert.match(out, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use.*npm start -- --port 0`));
    } finally {
      busy.close();
    }
  });
});
