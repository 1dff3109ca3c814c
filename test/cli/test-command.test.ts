// `spout test`: discovery, reports and exit codes, snapshots, and --watch, on test files written
// here into temp folders (plain node:test and matchSnapshot from "spout/testing").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { cli, cliEnv, startCli } from '../helpers/cli';
import { tempDir, waitFor } from '../helpers/service';

const PASSING = `import test from 'node:test';
import assert from 'node:assert/strict';
test('adds up', () => assert.equal(1 + 1, 2));
test('not yet', { skip: 'later' }, () => {});
`;

const FAILING = `import test from 'node:test';
import assert from 'node:assert/strict';
test('alpha passes', () => {});
test('beta fails', () => assert.equal('got', 'wanted'));
`;

/** Snapshots of what value.json holds, so a run can change the value without touching the test. */
const SNAPSHOT = `import test from 'node:test';
import fs from 'node:fs';
import { matchSnapshot } from 'spout/testing';
test('emits the order', (t) => {
  matchSnapshot(t, JSON.parse(fs.readFileSync(new URL('./value.json', import.meta.url), 'utf8')));
});
`;

const TYPESCRIPT = `import test from 'node:test';
import assert from 'node:assert/strict';
import { matchSnapshot } from 'spout/testing';
import { total, type Order } from './orders.js';
test('totals typed orders', (t) => {
  const orders: Order[] = [{ id: 1, amount: 2 }, { id: 2, amount: 3 }];
  assert.equal(total(orders), 5);
  matchSnapshot(t, orders.map((o) => o.id));
});
`;

const ORDERS_TS = `export interface Order { id: number; amount: number }
export const total = (orders: Order[]): number => orders.reduce((sum, o) => sum + o.amount, 0);
`;

/** Whether `xml` is well-formed as far as its tags go: every element closed, in order. */
function balancedXml(xml: string): boolean {
  const open: string[] = [];
  for (const [, closing, name, selfClosing] of xml.replace(/<\?xml[^>]*\?>/, '').matchAll(/<(\/?)([A-Za-z][\w:-]*)[^>]*?(\/?)>/g)) {
    if (selfClosing) continue;
    if (!closing) open.push(name as string);
    else if (open.pop() !== name) return false;
  }
  return open.length === 0;
}

describe('spout test', () => {
  const dirs: string[] = [];
  const env = cliEnv(null, { CI: undefined, SPOUT_UPDATE_SNAPSHOTS: undefined });
  /** A fresh folder holding `files` (paths relative to it). */
  const folder = (files: Record<string, string>): string => {
    const dir = tempDir('spout-test-cmd-');
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
  };
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds test files under the folder (not in node_modules or dot-folders), reports each test, and exits 1 on a failure', async () => {
    const dir = folder({ 'pass.test.mjs': PASSING, 'nested/fail.test.js': FAILING.replace(/import (\w+) from '([^']+)';/g, "const $1 = require('$2');"), 'node_modules/x/bad.test.mjs': FAILING, '.cache/bad.test.mjs': FAILING, 'helper.mjs': 'export {};\n' });
    fs.writeFileSync(path.join(dir, 'nested', 'package.json'), '{"type":"commonjs"}\n');
    const r = await cli(['test'], env, { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /✔ adds up/);
    assert.match(r.stdout, /﹣ not yet .*# later/);
    assert.match(r.stdout, /✖ beta fails/);
    assert.match(r.stdout, /'got' !== 'wanted'|Expected values to be strictly equal/);
    assert.match(r.stdout, /^2 passed, 1 failed, 1 skipped in \d+\.\d s$/m);
    const passing = await cli(['test', 'pass.test.mjs'], env, { cwd: dir });
    assert.equal(passing.code, 0, passing.stdout);
    assert.match(passing.stdout, /^1 passed, 0 failed, 1 skipped in /m);
  });

  it('runs TypeScript test files importing .ts modules and spout/testing from a folder with no node_modules', async () => {
    const dir = folder({ 'orders.test.ts': TYPESCRIPT, 'orders.ts': ORDERS_TS });
    const r = await cli(['test', dir], env);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /✔ totals typed orders/);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'orders.test.ts.snap.json'), 'utf8')), { 'totals typed orders #1': [1, 2] });
  });

  it('runs a loadSource test of an HTTP source beside it, snapshotting its events', async () => {
    const dir = folder({
      'hook.mjs': 'export default { key: "hook", name: "Hook", version: "0.1.0", type: "source", props: { http: "$.interface.http" },\n  async run(event) { this.$emit({ got: event.body }, { id: event.body.id, summary: `got ${event.body.id}` }); } };\n',
      'hook.test.ts': `import test from 'node:test';
import assert from 'node:assert/strict';
import { loadSource, matchSnapshot } from 'spout/testing';
test('emits what it got', async (t) => {
  const src = await loadSource('./hook.mjs', { cassette: false, now: '2026-01-01T00:00:00Z' });
  const r = await src.http({ method: 'POST', path: '/', body: { id: 7 } });
  assert.equal(r.error, null);
  matchSnapshot(t, r.events);
  await src.close();
});
`,
    });
    const r = await cli(['test'], env, { cwd: dir });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    const snapshots = JSON.parse(fs.readFileSync(path.join(dir, 'hook.test.ts.snap.json'), 'utf8'));
    assert.deepEqual(snapshots, { 'emits what it got #1': [{ event: { got: { id: 7 } }, metadata: { id: 7, name: null, summary: 'got 7', ts: Date.parse('2026-01-01T00:00:00Z') } }] });
  });

  it('prints TAP or JUnit XML, and writes JUnit XML to --junit FILE beside any report', async () => {
    const dir = folder({ 'a.test.mjs': FAILING });
    const tap = await cli(['test', '--reporter', 'tap'], env, { cwd: dir });
    assert.equal(tap.code, 1);
    assert.match(tap.stdout, /^TAP version 13$/m);
    assert.match(tap.stdout, /^ok 1 - alpha passes$/m);
    assert.match(tap.stdout, /^not ok 2 - beta fails$/m);
    assert.match(tap.stderr, /1 passed, 1 failed in /);
    const junit = await cli(['test', '--reporter', 'junit'], env, { cwd: dir });
    assert.match(junit.stdout, /^<\?xml version="1\.0"/);
    assert.ok(balancedXml(junit.stdout), junit.stdout);
    const file = path.join(dir, 'reports', 'junit.xml');
    const both = await cli(['test', '--junit', file], env, { cwd: dir });
    assert.equal(both.code, 1);
    assert.match(both.stdout, /✖ beta fails/);
    const xml = fs.readFileSync(file, 'utf8');
    assert.ok(balancedXml(xml), xml);
    assert.match(xml, /<testsuites>[\s\S]*<\/testsuites>\s*$/);
    assert.match(xml, /<testcase name="alpha passes"[^>]*\/>/);
    assert.match(xml, /<testcase name="beta fails"[^>]*>\s*<failure [^>]*>/);
  });

  it('--filter runs only the tests whose name contains the text, and fails when none does', async () => {
    const dir = folder({ 'a.test.mjs': FAILING });
    const r = await cli(['test', '--filter', 'alpha'], env, { cwd: dir });
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /✔ alpha passes/);
    assert.doesNotMatch(r.stdout, /beta/);
    assert.match(r.stdout, /^1 passed, 0 failed in /m);
    const none = await cli(['test', '--filter', 'gamma (x)'], env, { cwd: dir });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no test name contains "gamma \(x\)"/);
  });

  it('passes --record to the test processes (SPOUT_TEST_RECORD=1)', async () => {
    const dir = folder({ 'env.test.mjs': "import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('recording', () => assert.equal(process.env.SPOUT_TEST_RECORD, '1'));\n" });
    assert.equal((await cli(['test'], env, { cwd: dir })).code, 1);
    assert.equal((await cli(['test', '--record'], env, { cwd: dir })).code, 0);
  });

  it('exits 1 naming the folder searched when there is no test file, and 2 on bad usage', async () => {
    const dir = folder({ 'component.mjs': 'export default {};\n' });
    const none = await cli(['test'], env, { cwd: dir });
    assert.equal(none.code, 1);
    assert.match(none.stderr, new RegExp(`no test files \\(\\*\\.test\\.mjs, \\*\\.test\\.js, \\*\\.test\\.ts\\) under ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    for (const [args, message] of [
      [['test', '--reporterr', 'tap'], /unknown option "--reporterr"; did you mean "--reporter"\?/],
      [['test', '--reporter', 'dot'], /--reporter: "dot" is not a reporter; give spec, tap, junit/],
      [['test', path.join(dir, 'missing')], /missing: no such file or folder/],
      [['test', '--json'], /spout test has no --json: "--reporter tap" or "--reporter junit"/],
    ] as const) {
      const r = await cli([...args], env, { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /Run "spout test --help" for its options\./);
    }
    const help = await cli(['test', '--help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: spout test \[PATHS…\]/);
  });

  it('writes a missing snapshot, fails on a changed value with a diff, fails a missing one under CI, and rewrites with --update-snapshots', async () => {
    const dir = folder({ 'order.test.mjs': SNAPSHOT, 'value.json': '{"id":1,"summary":"first"}' });
    const snapFile = path.join(dir, 'order.test.mjs.snap.json');
    const first = await cli(['test'], env, { cwd: dir });
    assert.equal(first.code, 0, first.stdout);
    assert.match(first.stdout, /snapshot "emits the order #1" written to order\.test\.mjs\.snap\.json/);
    assert.equal(fs.readFileSync(snapFile, 'utf8'), '{\n  "emits the order #1": {\n    "id": 1,\n    "summary": "first"\n  }\n}\n');
    assert.equal((await cli(['test'], env, { cwd: dir })).code, 0);

    fs.writeFileSync(path.join(dir, 'value.json'), '{"id":1,"summary":"second"}');
    const changed = await cli(['test'], env, { cwd: dir });
    assert.equal(changed.code, 1);
    assert.match(changed.stdout, /snapshot "emits the order #1" in order\.test\.mjs\.snap\.json does not match/);
    assert.match(changed.stdout, /^\s*- {2}"summary": "first"$/m);
    assert.match(changed.stdout, /^\s*\+ {2}"summary": "second"$/m);
    assert.match(fs.readFileSync(snapFile, 'utf8'), /"first"/);

    const updated = await cli(['test', '--update-snapshots'], env, { cwd: dir });
    assert.equal(updated.code, 0, updated.stdout);
    assert.match(fs.readFileSync(snapFile, 'utf8'), /"summary": "second"/);

    fs.rmSync(snapFile);
    const ci = await cli(['test'], { ...env, CI: 'true' }, { cwd: dir });
    assert.equal(ci.code, 1);
    assert.match(ci.stdout, /no snapshot "emits the order #1" in order\.test\.mjs\.snap\.json, and none is written under CI: run "spout test --update-snapshots"/);
    assert.equal(fs.existsSync(snapFile), false);
  });

  it('--watch reruns the tests of a component when it changes, and a test file when it changes', async () => {
    const dir = folder({
      'counter.mjs': 'export const count = 1;\n',
      'counter.test.mjs': "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { count } from './counter.mjs';\ntest('counts one', () => assert.equal(count, 1));\n",
      'other.test.mjs': "import test from 'node:test';\ntest('other', () => {});\n",
    });
    const live = startCli(['test', '--watch'], env, { cwd: dir });
    try {
      const summaries = () => live.output().match(/^\d+ passed, \d+ failed.*$/gm) ?? [];
      await waitFor(() => live.output().includes('Watching for changes'), 20_000, 'the first run');
      assert.deepEqual(
        summaries().map((s) => s.replace(/ in .*/, '')),
        ['2 passed, 0 failed'],
      );
      fs.writeFileSync(path.join(dir, 'counter.mjs'), 'export const count = 2;\n');
      await waitFor(() => summaries().length === 2, 20_000, 'a rerun after counter.mjs changed');
      assert.match(live.output(), /── \S+ counter\.mjs changed: rerunning 1 test file ──/);
      assert.equal(summaries()[1]?.replace(/ in .*/, ''), '0 passed, 1 failed');
      fs.appendFileSync(path.join(dir, 'other.test.mjs'), '// touched\n');
      await waitFor(() => summaries().length === 3, 20_000, 'a rerun after other.test.mjs changed');
      assert.match(live.output(), /other\.test\.mjs changed: rerunning 1 test file/);
      assert.equal(summaries()[2]?.replace(/ in .*/, ''), '1 passed, 0 failed');
    } finally {
      assert.equal(await live.interrupt(), 0);
    }
  });
});
