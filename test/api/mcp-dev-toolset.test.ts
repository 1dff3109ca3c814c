// The developer toolset (`spout mcp --dev`, `/mcp?toolset=dev`), driven by the official SDK's client
// playing an agent over both transports: the whole dev loop on a source with a bug, proved by a test; the root guard
// (outside the roots, a symlink out, the data dir); every tool's input schema through ajv's strict mode.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { cli, cliEnv } from '../helpers/cli';
import { connectMcp, type McpConnection, textOf } from '../helpers/mcp';
import { type SpoutProcess, startSpout, tempDir } from '../helpers/service';

/** The source an agent writes, with its bug: `run` calls `this.summarise`, declared as `summarize`. */
const BUGGY = `export default {
  name: "New order", key: "dev-new-order", version: "0.0.1", type: "source",
  props: { http: { type: "$.interface.http" } },
  methods: {
    summarize(order) {
      return "Order " + order.id + " for " + order.total;
    },
  },
  async run(event) {
    const order = event.body;
    console.log("received order", order.id);
    this.$emit(order, { id: order.id, summary: this.summarise(order) });
  },
};
`;
/** The test that proves the fix. */
const ORDER_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";
import { loadSource } from "spout/testing";

test("summarises an order", async (t) => {
  const src = await loadSource("./new-order.mjs", {});
  t.after(() => src.close());
  const r = await src.http({ method: "POST", body: { id: "A-3", total: 5 } });
  assert.equal(r.events[0].metadata.summary, "Order A-3 for 5");
});
`;
const BUG_LINE = BUGGY.split('\n').findIndex((l) => l.includes('this.summarise')) + 1;

/** Calls a tool and answers its result, counting the call. */
async function call(mcp: McpConnection, counter: { calls: number }, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  counter.calls += 1;
  return (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
}

describe('MCP developer toolset', () => {
  let spout: SpoutProcess;
  let root: string;

  before(async () => {
    spout = await startSpout({ keyInDataDir: true });
    root = fs.realpathSync(tempDir('spout-dev-root-'));
  });
  after(async () => spout?.stop());

  for (const transport of ['http', 'stdio'] as const) {
    it(`runs the whole dev loop over ${transport}`, async () => {
      const folder = path.join(root, transport);
      fs.mkdirSync(folder);
      const mcp = await connectMcp(spout, transport, transport === 'http' ? { query: new URLSearchParams({ toolset: 'dev', root: folder }).toString() } : { args: ['--dev', '--root', folder] });
      const counter = { calls: 0 };
      const started = Date.now();
      try {
        const { tools } = await mcp.client.listTools();
        assert.ok(tools.some((t) => t.name === 'deploy_source') && !tools.some((t) => t.name.startsWith('spout_')), 'the dev tools replace the action tools');
        assert.equal(tools.find((t) => t.name === 'delete_source')?.annotations?.destructiveHint, true);
        assert.equal(tools.find((t) => t.name === 'get_run')?.annotations?.readOnlyHint, true);
        assert.equal(tools.find((t) => t.name === 'run_tests')?.annotations?.readOnlyHint, false);

        const guide = await call(mcp, counter, 'component_guide', { topic: 'emit' });
        assert.match(textOf(guide), /dedupe/);
        const found = await call(mcp, counter, 'search_registry', { query: 'http requests' });
        assert.ok(!found.isError, textOf(found));

        const file = path.join(folder, 'new-order.mjs');
        fs.writeFileSync(file, BUGGY);
        const lint = await call(mcp, counter, 'lint_component', { file });
        assert.equal((lint.structuredContent as { ok: boolean }).ok, true, textOf(lint));
        const deployed = await call(mcp, counter, 'deploy_source', { file: 'new-order.mjs' });
        assert.ok(!deployed.isError, textOf(deployed));
        const sourceId = (deployed.structuredContent as { source_id: string }).source_id;

        const order = JSON.stringify({ id: 'A-1', total: 42 });
        const first = await call(mcp, counter, 'send_http', { source_id: sourceId, body: order });
        const failed = (first.structuredContent as { run: { run_id: string; error: { message: string; location: string; line: number } } }).run;
        assert.match(failed.error.message, /summarise is not a function/);
        assert.equal(failed.error.location.startsWith(`${file}:${BUG_LINE}`), true, failed.error.location);
        assert.match(textOf(first), new RegExp(`new-order\\.mjs:${BUG_LINE}`));

        fs.writeFileSync(file, BUGGY.replace('this.summarise(', 'this.summarize('));
        const updated = await call(mcp, counter, 'update_source', { source_id: sourceId, file });
        assert.ok(!updated.isError, textOf(updated));
        const second = await call(mcp, counter, 'send_http', { source_id: sourceId, body: JSON.stringify({ id: 'A-2', total: 7 }) });
        assert.match(textOf(second), /Order A-2 for 7/);
        const events = await call(mcp, counter, 'list_events', { source_id: sourceId });
        assert.match(textOf(events), /Order A-2 for 7/);

        const replayed = await call(mcp, counter, 'replay_run', { run_id: failed.run_id });
        const again = (replayed.structuredContent as { run: { status: string; replay_of: string; events: Array<{ summary: string }> } }).run;
        assert.equal(again.status, 'ok', textOf(replayed));
        assert.equal(again.replay_of, failed.run_id);
        assert.equal(again.events[0]?.summary, 'Order A-1 for 42');

        // …and prove it with a test, run by the same runner as `spout test`.
        fs.writeFileSync(path.join(folder, 'new-order.test.mjs'), ORDER_TEST);
        const tested = await call(mcp, counter, 'run_tests', { path: 'new-order.test.mjs' });
        assert.equal((tested.structuredContent as { passed: boolean }).passed, true, textOf(tested));
        assert.match(textOf(tested), /^1 passed, 0 failed/);

        const deleted = await call(mcp, counter, 'delete_source', { source_id: sourceId });
        assert.ok(!deleted.isError, textOf(deleted));
        const gone = await call(mcp, counter, 'get_logs', { source_id: sourceId });
        assert.equal(gone.isError, true);
        console.log(`# dev loop over ${transport}: ${counter.calls} tool calls in ${Date.now() - started} ms`);
      } finally {
        await mcp.client.close();
      }
    });
  }

  it('reads the guide as resources, describes, lints with lines, runs actions and timers, and reads runs and logs', async () => {
    const folder = path.join(root, 'others');
    fs.mkdirSync(folder);
    const mcp = await connectMcp(spout, 'http', { query: new URLSearchParams({ toolset: 'dev', root: folder }).toString() });
    const counter = { calls: 0 };
    try {
      const { resources } = await mcp.client.listResources();
      assert.ok(resources.some((r) => r.uri === 'spout://guide/props'));
      const props = await mcp.client.readResource({ uri: 'spout://guide/props' });
      assert.match(String((props.contents[0] as { text?: string } | undefined)?.text), /\$\.interface\.timer/);

      const described = await call(mcp, counter, 'describe_component', { ref: 'http-new-requests' });
      const example = described.structuredContent as { origin: string; file: string; props: Array<{ name: string }> };
      assert.equal(example.origin, 'registry');
      assert.ok(example.props.some((p) => p.name === 'http'));
      assert.match(textOf(described), /\/\/ http\/sources\/new-requests\/new-requests\.mjs\n[\s\S]*export default \{/);
      const unknown = await call(mcp, counter, 'describe_component', { ref: 'acme-nothing' });
      assert.equal(unknown.isError, true);
      assert.match(textOf(unknown), /search_registry/);

      fs.writeFileSync(path.join(folder, 'typo.mjs'), 'export default {\n  name: "Typo", key: "dev-typo", version: "0.0.1", type: "source",\n  props: {\n    count: { type: "integr" },\n  },\n  async run() {},\n};\n');
      const typo = (await call(mcp, counter, 'lint_component', { file: 'typo.mjs' })).structuredContent as { ok: boolean; errors: Array<{ path: string; line: number; column: number; location: string }> };
      assert.equal(typo.ok, false);
      assert.deepEqual([typo.errors[0]?.path, typo.errors[0]?.line, typo.errors[0]?.column], ['props.count.type', 4, 5]);
      assert.equal(typo.errors[0]?.location, `${path.join(folder, 'typo.mjs')}:4:5`);
      const syntax = (await call(mcp, counter, 'lint_component', { code: 'export default {\n  run() { const a = ; },\n};\n', filename: 'broken.mjs' })).structuredContent as { errors: Array<{ line: number }> };
      assert.equal(syntax.errors[0]?.line, 2);

      fs.writeFileSync(path.join(folder, 'shout.mjs'), 'export default { name: "Shout", key: "dev-shout", version: "0.0.1", type: "action", props: { text: { type: "string" } }, async run({ $ }) { $.export("$summary", "Shouted " + this.text); return this.text.toUpperCase(); } };\n');
      const shouted = await call(mcp, counter, 'run_action', { file: 'shout.mjs', props: { text: 'hi' } });
      assert.equal((shouted.structuredContent as { return_value: string }).return_value, 'HI');
      assert.match(textOf(shouted), /Shouted hi/);
      const byKey = await call(mcp, counter, 'run_action', { ref: 'dev-shout', props: { text: 'again' } });
      assert.equal((byKey.structuredContent as { return_value: string }).return_value, 'AGAIN');

      const timer =
        'export default { name: "Tick", key: "dev-tick", version: "0.0.1", type: "source", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } } }, async run(event) { console.log("tick at", event.timestamp); this.$emit({ at: event.timestamp }, { id: String(event.timestamp), summary: "tick" }); } };\n';
      const deployed = await call(mcp, counter, 'deploy_source', { code: timer, filename: 'tick.mjs' });
      const sourceId = (deployed.structuredContent as { source_id: string; timers: Record<string, unknown> }).source_id;
      const fired = (await call(mcp, counter, 'fire_timer', { source_id: sourceId })).structuredContent as { run: { run_id: string; status: string; events: Array<{ summary: string }> } };
      assert.equal(fired.run.status, 'ok');
      assert.equal(fired.run.events[0]?.summary, 'tick');
      const runs = (await call(mcp, counter, 'list_runs', { owner_id: sourceId })).structuredContent as { runs: Array<{ run_id: string; trigger: string }> };
      assert.ok(runs.runs.some((r) => r.run_id === fired.run.run_id && r.trigger === 'run_now'));
      const run = (await call(mcp, counter, 'get_run', { run_id: fired.run.run_id })).structuredContent as { run: { logs: string[] } };
      assert.ok(run.run.logs.some((l) => l.includes('tick at')));
      const logs = (await call(mcp, counter, 'get_logs', { source_id: sourceId })).structuredContent as { logs: Array<{ message: string; run_id: string | null }> };
      assert.ok(logs.logs.some((l) => l.message.includes('tick at') && l.run_id === fired.run.run_id));
      await call(mcp, counter, 'delete_source', { source_id: sourceId });

      const missing = await call(mcp, counter, 'deploy_source', { code: 'export default { name: "Needs", version: "0.0.1", type: "source", props: { http: "$.interface.http", token: { type: "string" } }, async run() {} };\n', filename: 'needs.mjs' });
      assert.equal(missing.isError, true);
      assert.equal(textOf(missing).match(/prop `token` is required/g)?.length, 1, textOf(missing));
      const noRuns = await call(mcp, counter, 'list_runs', { owner_id: 'dc_nothing' });
      assert.match(textOf(noRuns), /no source or action dc_nothing; deploy_source and run_action answer their ids/);
      const bad = await call(mcp, counter, 'send_http', { source_id: 'dc_nothing', method: 'P O S T' });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /method: must be an HTTP method/);
    } finally {
      await mcp.client.close();
    }
  });

  it('touches no files in a session started without roots, and refuses roots without the toolset', async () => {
    const mcp = await connectMcp(spout, 'http', { query: 'toolset=dev' });
    try {
      const refused = (await mcp.client.callTool({ name: 'lint_component', arguments: { file: 'x.mjs' } })) as CallToolResult;
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /may touch no files; start it with --root DIR/);
    } finally {
      await mcp.client.close();
    }
    await assert.rejects(connectMcp(spout, 'http', { query: `root=${encodeURIComponent(root)}` }), /add toolset=dev/);
    await assert.rejects(connectMcp(spout, 'http', { query: 'toolset=dev&root=relative/dir' }), /must be an absolute folder path/);
  });

  it('refuses files outside the roots, through a symlink, and in the data dir', async () => {
    const folder = path.join(root, 'guarded');
    fs.mkdirSync(folder);
    const outside = tempDir('spout-dev-outside-');
    fs.writeFileSync(path.join(outside, 'evil.mjs'), BUGGY);
    fs.symlinkSync(outside, path.join(folder, 'link'));
    const mcp = await connectMcp(spout, 'http', {
      query: new URLSearchParams([
        ['toolset', 'dev'],
        ['root', folder],
        ['root', spout.dataDir],
      ]).toString(),
    });
    const counter = { calls: 0 };
    try {
      const out = await call(mcp, counter, 'lint_component', { file: path.join(outside, 'evil.mjs') });
      assert.equal(out.isError, true);
      assert.match(textOf(out), /outside the folders this session may touch/);
      assert.ok(textOf(out).includes(folder), 'names the allowed folders');
      const linked = await call(mcp, counter, 'deploy_source', { file: 'link/evil.mjs' });
      assert.equal(linked.isError, true);
      assert.match(textOf(linked), /through a symbolic link/);
      const data = await call(mcp, counter, 'lint_component', { file: path.join(spout.dataDir, 'api-key') });
      assert.equal(data.isError, true);
      assert.match(textOf(data), /data dir, which agents may never read or write/);
      const dotdot = await call(mcp, counter, 'lint_component', { file: '../../etc/passwd' });
      assert.equal(dotdot.isError, true);
    } finally {
      await mcp.client.close();
    }
  });

  it('gives every tool an input schema that passes ajv strict mode', async () => {
    const mcp = await connectMcp(spout, 'http', { query: 'toolset=dev' });
    try {
      const { tools } = await mcp.client.listTools();
      assert.ok(tools.length >= 15);
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      for (const tool of tools) {
        assert.doesNotThrow(() => ajv.compile(tool.inputSchema), `${tool.name}'s input schema`);
        assert.equal(tool.inputSchema.type, 'object');
        assert.ok(tool.description && tool.annotations?.readOnlyHint !== undefined, `${tool.name} says whether it only reads`);
      }
    } finally {
      await mcp.client.close();
    }
  });
});

describe("the developer toolset's snippets", () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout({ keyInDataDir: true })));
  after(async () => spout?.stop());

  it("adds --dev and the roots to every client, and Claude Code's command", async () => {
    const res = await spout.api('GET', '/v1/mcp/snippets?toolset=dev&root=/home/me/components');
    assert.equal(res.status, 200);
    const { stdio, http, clients } = res.json.data as { stdio: { args: string[] }; http: { url: string }; clients: Array<{ client: string; config: Record<string, unknown> }> };
    assert.deepEqual(stdio.args.slice(-3), ['--dev', '--root', '/home/me/components']);
    assert.match(http.url, /\/mcp\?toolset=dev&root=%2Fhome%2Fme%2Fcomponents$/);
    const claude = clients.find((c) => c.client === 'claude-code');
    assert.match(String(claude?.config.command), /^claude mcp add spout-dev -- .* mcp .*--dev --root \/home\/me\/components$/);
    assert.ok(clients.filter((c) => c.client !== 'claude-code').every((c) => JSON.stringify(c.config).includes('spout-dev')));
    assert.equal((await spout.api('GET', '/v1/mcp/snippets?toolset=dev&root=relative')).status, 400);
  });

  it('prints them with spout mcp --config --dev, and refuses --root without --dev or a folder that is not one', async () => {
    const folder = tempDir('spout-dev-cli-');
    const printed = await cli(['mcp', '--config', '--dev', '--root', folder], cliEnv(spout));
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /Claude Code \(stdio\)/);
    assert.ok(printed.stdout.includes(`--dev --root ${folder}`), printed.stdout);
    assert.match(printed.stdout, /"spout-dev"/);
    const noDev = await cli(['mcp', '--root', folder], cliEnv(spout));
    assert.notEqual(noDev.code, 0);
    assert.match(noDev.stderr, /--root is a folder for the developer toolset; add --dev/);
    const missing = await cli(['mcp', '--dev', '--root', `${folder}/nothing`], cliEnv(spout));
    assert.match(missing.stderr, /--root: .*nothing is not a folder/);
    const mixed = await cli(['mcp', '--dev', '--app', 'http'], cliEnv(spout));
    assert.match(mixed.stderr, /--app, --account and --network choose the action tools/);
  });
});
