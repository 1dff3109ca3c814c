// The compat harness's command line (scripts/compat.ts): --help, a bad option, and --port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { tempDir } from '../helpers/service';

/** Runs the harness to completion: its exit code and output. */
function compat(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts', 'compat.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A port free on 127.0.0.1 a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('compat harness command line', () => {
  const tree = tempDir('spout-compat-tree-');
  after(() => fs.rmSync(tree, { recursive: true, force: true }));

  it('prints its usage for --help, options included, and exits 0', async () => {
    const help = await compat(['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^usage: npm run compat -- DIR/);
    assert.match(help.stdout, /--port P +the port spout serve listens on/);
  });

  it('answers an unknown option with the usage and status 2, not a stack', async () => {
    const bad = await compat(['--bogus']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown option '--bogus'/);
    assert.match(bad.stderr, /usage: npm run compat/);
    assert.doesNotMatch(bad.stderr, /ERR_PARSE_ARGS|at parseArgs/);
  });

  it('starts spout serve on the --port given', async () => {
    const file = path.join(tree, 'acme', 'actions', 'hello', 'hello.mjs');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'export default { key: "acme-hello", name: "Hello", version: "0.0.1", type: "action", props: {}, async run() { return 1; } };\n');
    const port = await freePort();
    const run = await compat([tree, '--port', String(port)]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`spout serve on http://127\\.0\\.0\\.1:${port}\\b`));
    assert.match(run.stdout, /loaded 1\/1 \(100\.0%\)/);
    const refused = await compat([tree, '--port', 'eighty']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--port eighty: give a port number from 0 to 65535/);
  });
});
