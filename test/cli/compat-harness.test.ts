// The compat harness's command line (scripts/compat.ts): --help, a bad option, and --port; run
// mode's placeholders and classes, on a tree written here in the registry's shapes.
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
  const runTree = tempDir('spout-compat-run-');
  const brokenTree = tempDir('spout-compat-broken-');
  after(() => {
    for (const dir of [tree, runTree, brokenTree]) fs.rmSync(dir, { recursive: true, force: true });
  });

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

  it('counts a load failure that is the registry’s own bug apart from Spout’s', async () => {
    const file = path.join(brokenTree, 'zonely', 'sources', 'new-file', 'new-file.js');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // As a registry source requiring its app one folder too shallow.
    fs.writeFileSync(file, 'const zonely = require("../zonely.app.js");\nmodule.exports = { key: "zonely-new-file", name: "New File", version: "0.0.1", type: "source", props: { zonely }, async run() {} };\n');
    const run = await compat([brokenTree]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /loaded 0\/1 \(0\.0%\).*failed by the registry's own bug 1, in Spout 0/);
    assert.match(run.stdout, /\[registry-bug: imports a file that is not in the tree\] zonely\/sources\/new-file\/new-file\.js: /);
  });

  it('gives placeholders an app’s own checks pass (an id written as one word, a compared value, an http_request URL), classes a check no placeholder passes as the component’s own, and a program start as refused by design', async () => {
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(runTree, rel)), { recursive: true });
      fs.writeFileSync(path.join(runTree, rel), text);
    };
    write('zonely/package.json', '{ "name": "@pipedream/zonely", "version": "0.1.0", "dependencies": {} }\n');
    write('zonely/zonely.app.mjs', 'export default { type: "app", app: "zonely", propDefinitions: {}, methods: { base() { return `https://api${this.$auth.zoneid}.zonely.test`; } } };\n');
    // Checks the account as pCloud's actions do: a zone id of "1" or "2", and a plan compared by value.
    write(
      'zonely/actions/list-files/list-files.mjs',
      `import zonely from "../../zonely.app.mjs";
export default { key: "zonely-list-files", name: "List Files", version: "0.0.1", type: "action", props: { zonely, numSeconds: { type: "string", label: "Num Seconds" } },
  async run({ $ }) {
    if (!["1", "2"].includes(this.zonely.$auth.zoneid)) throw new Error("Unable to read your account's zone - try reconnecting your Zonely account");
    if (this.zonely.$auth.plan !== "team") throw new Error("Listing files needs a team plan");
    const until = new Date(Date.now() + this.numSeconds * 1000).toISOString();
    const res = await fetch(this.zonely.base() + "/files?until=" + until);
    return res.status;
  } };
`,
    );
    write(
      'zonely/actions/send-request/send-request.mjs',
      `import zonely from "../../zonely.app.mjs";
export default { key: "zonely-send-request", name: "Send Request", version: "0.0.1", type: "action", props: { zonely, request: { type: "http_request", label: "Request", default: { method: "POST" } } },
  async run() { return this.request.execute(); } };
`,
    );
    write(
      'zonely/actions/convert-audio/convert-audio.mjs',
      `import { exec } from "child_process";
import { promisify } from "util";
import zonely from "../../zonely.app.mjs";
export default { key: "zonely-convert-audio", name: "Convert Audio", version: "0.0.1", type: "action", props: { zonely },
  async run() { await promisify(exec)("mkdir -p /tmp/chunks"); return "converted"; } };
`,
    );
    // A check of the account no placeholder passes: its own message says so.
    write(
      'zonely/actions/get-status/get-status.mjs',
      `import zonely from "../../zonely.app.mjs";
export default { key: "zonely-get-status", name: "Get Status", version: "0.0.1", type: "action", props: { zonely },
  async run() {
    if (!/^v[0-9]+$/.test(this.zonely.$auth.api_version)) throw new Error("Your account has no API version - reconnect it");
    return "ok";
  } };
`,
    );
    const json = path.join(runTree, 'outcomes.json');
    const run = await compat([runTree, '--run', '--actions', '4', '--seed', '1', '--json', json]);
    assert.equal(run.code, 0, run.stderr);
    const outcomes = (JSON.parse(fs.readFileSync(json, 'utf8')) as { outcomes: Array<{ rel: string; result: string; why: string | null; message: string | null }> }).outcomes;
    const by = Object.fromEntries(outcomes.map((o) => [o.rel.split(path.sep).at(-1), o]));
    assert.equal(by['list-files.mjs']?.result, 'reached-http', JSON.stringify(by['list-files.mjs']));
    assert.match(by['list-files.mjs']?.message ?? '', /no recording of GET https:\/\/api1\.zonely\.test\/files\?until=/);
    assert.equal(by['send-request.mjs']?.result, 'reached-http', JSON.stringify(by['send-request.mjs']));
    assert.match(by['send-request.mjs']?.message ?? '', /no recording of POST https:\/\/example\.com\//);
    assert.equal(by['convert-audio.mjs']?.result, 'by-design', JSON.stringify(by['convert-audio.mjs']));
    assert.equal(by['get-status.mjs']?.result, 'placeholder', JSON.stringify(by['get-status.mjs']));
    assert.match(by['get-status.mjs']?.why ?? '', /its own check of the connected account/);
    assert.match(run.stdout, /by what Spout refuses by design 1, failed in Spout 0/);
  });
});
