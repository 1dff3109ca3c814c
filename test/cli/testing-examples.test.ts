// `spout test` on the worked examples of docs/testing.md (docs/examples/testing: a webhook source,
// a polling source with a cassette and clock.advance, an action with an app prop, faults), copied
// to a folder with no node_modules as a user's project would be: the report, the exit codes, the
// JUnit file, snapshots written then compared, an unmatched call's message, and a failing test.
// The same folder's Vitest file runs under Vitest.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliEnv } from '../helpers/cli';
import { tempDir } from '../helpers/service';

const EXAMPLES = path.resolve('docs/examples/testing');

/** A copy of the examples without their snapshot files (to see them written). */
function copyExamples(): string {
  const dir = path.join(tempDir('spout-examples-'), 'project');
  fs.cpSync(EXAMPLES, dir, { recursive: true, filter: (src) => !src.endsWith('.snap.json') && !src.includes('__snapshots__') });
  return dir;
}

/** A test of the webhook example that expects the wrong status, and one of a source calling an API its cassette never recorded. */
const FAILING = `import { test } from "node:test";
import assert from "node:assert/strict";
import { loadSource } from "spout/testing";
test("expects the wrong status on purpose", async (t) => {
  const src = await loadSource("./order-webhook.mjs", { props: { secret: "x" } });
  t.after(() => src.close());
  const r = await src.http({ method: "POST", headers: { "x-shop-secret": "x" }, body: { id: "o_1", total: 1, currency: "EUR", created_at: "2026-01-01T00:00:00Z" } });
  assert.equal(r.status, 200);
});
`;

const UNRECORDED_SOURCE = `export default {
  name: "Unrecorded",
  version: "0.1.0",
  props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } } },
  async run() {
    const res = await fetch("https://api.tracker.example/v1/issues?since=2030-01-01");
    this.$emit(await res.json());
  },
};
`;

const UNRECORDED_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";
import { loadSource } from "spout/testing";
test("calls an API the cassette does not hold", async (t) => {
  const src = await loadSource("./unrecorded.mjs", { cassette: "../polling/new-issues.cassette.json" });
  t.after(() => src.close());
  await src.timer();
});
`;

describe('spout test on the worked examples', () => {
  it('passes them, writes their snapshots and a JUnit file, then compares the snapshots', async () => {
    const dir = copyExamples();
    const junit = path.join(dir, 'junit.xml');
    const first = await cli(['test', dir, '--junit', junit], cliEnv(null, { CI: '' }), { cwd: dir, timeoutMs: 120_000 });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    for (const name of ['emits an order posted with the right secret', 'emits new issues oldest first, each once, as its timer fires', "retries a 429 after its Retry-After, on the test's clock", 'creates an issue and says so', 'reports an expired token']) {
      assert.ok(first.stdout.includes(name), `the report names "${name}":\n${first.stdout}`);
    }
    assert.match(first.stdout, /^8 passed, 0 failed/m);
    assert.ok(fs.existsSync(path.join(dir, 'webhook', 'order-webhook.test.mjs.snap.json')));
    const xml = fs.readFileSync(junit, 'utf8');
    assert.equal((xml.match(/<testcase /g) ?? []).length, 8);
    assert.doesNotMatch(xml, /<failure/);

    // A change to what the source emits fails its snapshot with a diff; --update-snapshots takes the change.
    const source = path.join(dir, 'webhook', 'order-webhook.mjs');
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace('this.$emit(order,', 'this.$emit({ ...order, channel: "web" },'));
    const env = cliEnv(null, { CI: '' });
    const webhook = path.join(dir, 'webhook');
    const changed = await cli(['test', webhook], env, { cwd: dir, timeoutMs: 120_000 });
    assert.equal(changed.code, 1, changed.stdout);
    assert.match(changed.stdout, /\+ +"channel": "web"/);
    const updated = await cli(['test', webhook, '--update-snapshots'], env, { cwd: dir, timeoutMs: 120_000 });
    assert.equal(updated.code, 0, updated.stdout);
    assert.match(fs.readFileSync(path.join(webhook, 'order-webhook.test.mjs.snap.json'), 'utf8'), /"channel": "web"/);
    const again = await cli(['test', webhook], env, { cwd: dir, timeoutMs: 120_000 });
    assert.equal(again.code, 0, again.stdout);
  });

  it('fails with exit 1, naming a failing test and an unmatched call with the closest recording', async () => {
    const dir = copyExamples();
    fs.writeFileSync(path.join(dir, 'webhook', 'wrong-status.test.mjs'), FAILING);
    fs.mkdirSync(path.join(dir, 'unrecorded'));
    fs.writeFileSync(path.join(dir, 'unrecorded', 'unrecorded.mjs'), UNRECORDED_SOURCE);
    fs.writeFileSync(path.join(dir, 'unrecorded', 'unrecorded.test.mjs'), UNRECORDED_TEST);
    const junit = path.join(dir, 'report.xml');
    const run = await cli(['test', dir, '--junit', junit], cliEnv(null, { CI: '' }), { cwd: dir, timeoutMs: 120_000 });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /^8 passed, 2 failed/m);
    assert.match(run.stdout, /expects the wrong status on purpose/);
    assert.match(run.stdout, /202 !== 200|Expected values to be strictly equal/);
    assert.match(
      run.stdout,
      /no recording of GET https:\/\/api\.tracker\.example\/v1\/issues\?since=2030-01-01: none of the 3 entries of cassette .*new-issues\.cassette\.json matches it; the closest is entry \d, GET https:\/\/api\.tracker\.example\/v1\/issues\?since=[^ ]+ \(query "since=2030-01-01" ≠ "since=[^"]+"\)/,
    );
    assert.equal((fs.readFileSync(junit, 'utf8').match(/<failure/g) ?? []).length, 2);
  });

  it('runs the Vitest example through spout/testing under Vitest', () => {
    const vitest = path.resolve('node_modules/vitest/vitest.mjs');
    const run = spawnSync(process.execPath, [vitest, 'run', '--root', EXAMPLES], { encoding: 'utf8', env: { ...process.env, CI: 'true', NODE_OPTIONS: '' }, timeout: 120_000 });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /1 passed/);
  });
});
