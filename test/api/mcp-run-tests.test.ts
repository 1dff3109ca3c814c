// The developer toolset's run_tests, driven by the official SDK's client: a component's passing and
// failing tests (the failure at its assertion's file:line), a name filter, the root guard, the
// permission model around the test processes, and a hanging test killed at the timeout.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, type McpConnection, textOf } from '../helpers/mcp';
import { type SpoutProcess, startSpout, tempDir } from '../helpers/service';

const COMPONENT = `export default {
  name: "Counter", key: "dev-counter", version: "0.0.1", type: "source",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    this.$emit({ n: event.body.n }, { id: String(event.body.n), summary: "count " + event.body.n });
  },
};
`;

/** A test file of the counter: `expected` is the summary it asserts. */
function testFile(name: string, expected: string): string {
  return `import { test } from "node:test";
import assert from "node:assert/strict";
import { loadSource } from "spout/testing";

test("${name}", async (t) => {
  const src = await loadSource("./counter.mjs", {});
  t.after(() => src.close());
  const r = await src.http({ method: "POST", body: { n: 3 } });
  assert.equal(r.events[0].metadata.summary, "${expected}");
});
`;
}
const ASSERT_LINE =
  testFile('x', 'y')
    .split('\n')
    .findIndex((l) => l.includes('assert.equal(')) + 1;

interface RunAnswer {
  passed: boolean;
  totals: { passed: number; failed: number };
  timed_out?: string;
  tests: Array<{ name: string; file: string; status: string; duration_ms: number; failure?: { message: string; at: string } }>;
}

async function runTests(mcp: McpConnection, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await mcp.client.callTool({ name: 'run_tests', arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
}

/** Resolves once process `pid` is gone. */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('MCP run_tests', () => {
  let spout: SpoutProcess;
  let root: string;
  let mcp: McpConnection;

  before(async () => {
    spout = await startSpout({ keyInDataDir: true });
    root = fs.realpathSync(tempDir('spout-run-tests-root-'));
    fs.writeFileSync(path.join(root, 'counter.mjs'), COMPONENT);
    fs.writeFileSync(path.join(root, 'counter.test.mjs'), testFile('emits the count', 'count 3'));
    fs.writeFileSync(path.join(root, 'broken.test.mjs'), testFile('expects the wrong summary', 'count 4'));
    mcp = await connectMcp(spout, 'http', { query: new URLSearchParams({ toolset: 'dev', root }).toString() });
  });
  after(async () => {
    await mcp?.client.close();
    await spout?.stop();
  });

  it('answers each test of a folder: the pass, and the failure at its assertion', async () => {
    const listed = (await mcp.client.listTools()).tools.find((t) => t.name === 'run_tests');
    assert.deepEqual([listed?.annotations?.readOnlyHint, listed?.annotations?.destructiveHint], [false, false]);
    const result = await runTests(mcp, { path: '.' });
    assert.ok(!result.isError, textOf(result));
    const answer = result.structuredContent as unknown as RunAnswer;
    assert.equal(answer.passed, false);
    assert.deepEqual([answer.totals.passed, answer.totals.failed], [1, 1]);
    const [failed, passed] = answer.tests;
    assert.deepEqual([failed?.name, failed?.status, failed?.file], ['expects the wrong summary', 'fail', path.join(root, 'broken.test.mjs')]);
    assert.equal(failed?.failure?.at, `${path.join(root, 'broken.test.mjs')}:${ASSERT_LINE}`);
    assert.match(String(failed?.failure?.message), /\+ 'count 3'\n- 'count 4'/);
    assert.deepEqual([passed?.name, passed?.status], ['emits the count', 'pass']);
    assert.ok(textOf(result).includes(`1 passed, 1 failed`), textOf(result));
    assert.ok(textOf(result).includes(`broken.test.mjs:${ASSERT_LINE}`), textOf(result));

    const one = (await runTests(mcp, { path: 'counter.test.mjs' })).structuredContent as unknown as RunAnswer;
    assert.deepEqual([one.passed, one.tests.length], [true, 1]);
    const filtered = (await runTests(mcp, { path: root, filter: 'wrong' })).structuredContent as unknown as RunAnswer;
    assert.deepEqual(
      filtered.tests.map((t) => t.name),
      ['expects the wrong summary'],
    );
  });

  it('refuses a path outside the roots, a file that is not a test, and a root that holds the data dir', async () => {
    const outside = tempDir('spout-run-tests-outside-');
    fs.writeFileSync(path.join(outside, 'evil.test.mjs'), testFile('x', 'y'));
    const out = await runTests(mcp, { path: path.join(outside, 'evil.test.mjs') });
    assert.equal(out.isError, true);
    assert.match(textOf(out), /outside the folders this session may touch/);
    const component = await runTests(mcp, { path: 'counter.mjs' });
    assert.equal(component.isError, true);
    assert.match(textOf(component), /not a test file; test files are named NAME\.test\.mjs/);
    // A root holding the data dir: the tests' read grant would cover it.
    const wide = path.dirname(spout.dataDir);
    const broad = await connectMcp(spout, 'http', { query: new URLSearchParams({ toolset: 'dev', root: wide }).toString() });
    try {
      const refused = await runTests(broad, { path: path.join(root, 'counter.test.mjs') });
      assert.equal(refused.isError, true, textOf(refused));
      assert.match(textOf(refused), /holds Spout's data dir, which test processes would be able to read/);
    } finally {
      await broad.client.close();
    }
  });

  it("keeps test processes to the roots: a test cannot read Spout's data dir", async () => {
    const folder = path.join(root, 'peek');
    fs.mkdirSync(folder);
    const key = path.join(spout.dataDir, 'api-key');
    assert.ok(fs.existsSync(key));
    fs.writeFileSync(path.join(folder, 'peek.test.mjs'), `import { test } from "node:test";\nimport fs from "node:fs";\ntest("peeks", () => {\n  fs.readFileSync(${JSON.stringify(key)}, "utf8");\n});\n`);
    const answer = (await runTests(mcp, { path: 'peek' })).structuredContent as unknown as RunAnswer;
    assert.equal(answer.tests[0]?.status, 'fail');
    assert.match(String(answer.tests[0]?.failure?.message), /Access to this API has been restricted/);
  });

  it('kills a run that outlives its timeout, test processes included', async () => {
    const folder = path.join(root, 'hang');
    fs.mkdirSync(folder);
    const pidFile = path.join(folder, 'pid');
    fs.writeFileSync(path.join(folder, 'hang.test.mjs'), `import { test } from "node:test";\nimport fs from "node:fs";\ntest("never ends", async () => {\n  fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\n  await new Promise(() => setInterval(() => {}, 1000));\n});\n`);
    const result = await runTests(mcp, { path: 'hang', timeout_seconds: 2 });
    const answer = result.structuredContent as unknown as RunAnswer;
    assert.equal(answer.passed, false);
    assert.match(String(answer.timed_out), /killed after 2 s; still running: .*hang\.test\.mjs/);
    assert.match(textOf(result), /killed at the timeout/);
    await gone(Number(fs.readFileSync(pidFile, 'utf8')));
  });
});
