// Spout as an MCP server, driven by the official SDK's client over both transports (streamable
// HTTP at /mcp, and stdio through `spout mcp`): saved actions as tools with their props as input
// schemas, calls that succeed, throw, use a local account or replay a cassette with no network,
// each recorded as an invocation "via MCP"; tools/list_changed when an action is saved; source
// events as resources with subscribe updates.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CallToolResult, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, type McpConnection, saveComponent, textOf } from '../helpers/mcp';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const ADD = `export default {
  name: "Add numbers",
  key: "mcp_add",
  version: "0.1.0",
  type: "action",
  description: "Adds two whole numbers.",
  props: {
    a: { type: "integer", label: "First number" },
    b: { type: "integer", optional: true, default: 2 },
    token: { type: "string", secret: true, optional: true },
  },
  async run({ $ }) {
    $.export("$summary", "Added " + this.a + " and " + this.b);
    $.export("parts", [this.a, this.b]);
    return { sum: this.a + this.b };
  },
};
`;

const FAIL = `export default {
  name: "Charge order",
  key: "mcp_fail",
  version: "0.1.0",
  type: "action",
  props: {},
  methods: {
    check(order) {
      if (!order.paid) {
        throw new Error("order " + order.id + " is not paid");
      }
    },
  },
  async run() {
    this.check({ id: 7, paid: false });
  },
};
`;

const WHOAMI = `export default {
  name: "Who am I",
  key: "mcp_whoami",
  version: "0.1.0",
  type: "action",
  props: { acme: { type: "app", app: "acme" }, greeting: { type: "string", optional: true } },
  async run({ $ }) {
    $.export("$summary", "Signed in as " + this.acme.$auth.user);
    return { user: this.acme.$auth.user, keyMatches: this.acme.$auth.api_key === "acme-key-1" };
  },
};
`;

const GET_ORDER = `export default {
  name: "Get order", key: "mcp_get_order", version: "0.1.0", type: "action",
  props: { id: { type: "integer", description: "The order's number." } },
  async run({ $ }) {
    const res = await fetch("https://api.acme.invalid/orders/" + this.id);
    const order = await res.json();
    $.export("$summary", "Order " + order.id + " is " + order.status);
    return order;
  },
};
`;

const EVERY_KIND = `export default {
  name: "Every kind",
  key: "mcp_every_kind",
  version: "0.1.0",
  type: "action",
  description: "Takes a prop of each kind.",
  props: {
    acme: { type: "app", app: "acme" },
    text: { type: "string", label: "Text", description: "Some text." },
    count: { type: "integer", min: 1, max: 10, optional: true, default: 3 },
    flag: { type: "boolean" },
    tags: { type: "string[]", options: [{ label: "Red", value: "r" }, { label: "Blue", value: "b" }] },
    sizes: { type: "integer[]", min: 0, max: 5, optional: true },
    checks: { type: "boolean[]", optional: true },
    meta: { type: "object", optional: true },
    payload: { type: "any", optional: true },
    mode: { type: "string", options: ["fast", "slow"], optional: true, default: "fast" },
    store: { type: "data_store", optional: true },
    request: { type: "http_request", optional: true },
    pick: { type: "string", optional: true, async options() { return ["x", "y"]; } },
    hiddenOne: { type: "string", hidden: true, optional: true },
    note: { type: "alert", alertType: "info", content: "FYI" },
  },
  async run() {
    return { text: this.text };
  },
};
`;

/** A new action for the tools/list_changed check. */
const fresh = (key: string) => `export default { name: "Fresh ${key}", key: "${key}", version: "0.1.0", type: "action", props: {}, async run() { return 1; } };\n`;

describe('MCP server over both transports', () => {
  let spout: SpoutProcess;
  const ids: Record<string, string> = {};

  before(async () => {
    // The key is kept in the data dir, as `spout mcp --data-dir DIR` finds it.
    spout = await startSpout({ keyInDataDir: true });
    for (const [file, code] of Object.entries({ 'add.mjs': ADD, 'fail.mjs': FAIL, 'whoami.mjs': WHOAMI, 'get-order.mjs': GET_ORDER, 'every-kind.mjs': EVERY_KIND })) ids[file] = await saveComponent(spout, code, file);
    const account = await spout.api('POST', '/v1/accounts', { app: 'acme', name: 'dev', credentials: { api_key: 'acme-key-1', user: 'ada' } });
    assert.equal(account.status, 200);
    // The API is gone (an .invalid host): the answer can only come from the cassette.
    const cassette = await spout.api('PUT', `/v1/components/${ids['get-order.mjs']}/cassette`, {
      entries: [{ request: { method: 'GET', url: 'https://api.acme.invalid/orders/42' }, response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":42,"status":"shipped"}' } }],
    });
    assert.equal(cassette.status, 200);
    assert.equal((await spout.api('PUT', '/v1/mcp/settings', { network_modes: { mcp_get_order: 'replay' } })).status, 200);
  });
  after(async () => void (await spout?.stop()));

  for (const transport of ['http', 'stdio'] as const) {
    describe(`over ${transport}`, () => {
      let mcp: McpConnection;
      const call = (name: string, args: Record<string, unknown> = {}) => mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
      before(async () => (mcp = await connectMcp(spout, transport)));
      after(async () => void (await mcp?.client.close()));

      it('lists every saved action as a tool whose input schema comes from its props', async () => {
        const { tools } = await mcp.client.listTools();
        const names = tools.map((t) => t.name);
        for (const name of ['mcp_add', 'mcp_fail', 'mcp_whoami', 'mcp_get_order', 'mcp_every_kind', 'spout_prop_options']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
        const add = tools.find((t) => t.name === 'mcp_add')!;
        assert.equal(add.description, 'Adds two whole numbers.');
        assert.equal(add.title, 'Add numbers');
        assert.deepEqual(add.inputSchema.required, ['a']);
        const every = tools.find((t) => t.name === 'mcp_every_kind')!.inputSchema.properties as Record<string, Record<string, unknown>>;
        assert.deepEqual(every.text, { title: 'Text', description: 'Some text.', type: 'string' });
        assert.deepEqual(every.count, { type: 'integer', minimum: 1, maximum: 10, default: 3 });
        assert.deepEqual(every.flag, { type: 'boolean' });
        assert.deepEqual(every.tags?.items, { type: 'string', enum: ['r', 'b'] });
        assert.match(String(every.tags?.description), /"r" \(Red\)/);
        assert.deepEqual(every.sizes, { type: 'array', items: { type: 'integer', minimum: 0, maximum: 5 } });
        assert.deepEqual(every.checks, { type: 'array', items: { type: 'boolean' } });
        assert.deepEqual(every.meta, { type: 'object' });
        assert.deepEqual(every.payload, {});
        assert.deepEqual(every.mode, { type: 'string', enum: ['fast', 'slow'], default: 'fast' });
        assert.equal(every.store?.type, 'string');
        assert.equal(every.request?.type, 'object');
        assert.match(String(every.pick?.description), /spout_prop_options/);
        // Bound by Spout or not input at all: never asked of the agent.
        for (const name of ['acme', 'hiddenOne', 'note']) assert.equal(every[name], undefined, name);
      });

      it('runs an action: $summary as text, the return value and exports as structured content, recorded via MCP', async () => {
        const result = await call('mcp_add', { a: 3, token: 'tok-very-secret' });
        assert.notEqual(result.isError, true, textOf(result));
        assert.equal((result.content[0] as { text: string }).text, 'Added 3 and 2');
        assert.deepEqual(result.structuredContent, { return_value: { sum: 5 }, exports: { $summary: 'Added 3 and 2', parts: [3, 2] } });
        const invocationId = result._meta?.['spout/invocation_id'] as string;
        const record = (await spout.api('GET', `/v1/invocations/${invocationId}`)).json.data;
        assert.equal(record.trigger, 'action');
        assert.equal(record.owner_id, ids['add.mjs']);
        assert.deepEqual(record.via, { kind: 'mcp', tool: 'mcp_add', arguments: { a: 3, token: '********' }, client: 'spout-test 1.0.0' });
        assert.deepEqual(record.result.ret, { sum: 5 });
        // The action's Activity lists it with the test runs.
        const listed = (await spout.api('GET', `/v1/components/${ids['add.mjs']}/invocations`)).json.data;
        assert.ok(listed.some((r: { id: string; via: { kind: string } | null }) => r.id === invocationId && r.via?.kind === 'mcp'));
      });

      it('answers arguments that do not fit, and a throw, as isError results: the message and the stack mapped to the file', async () => {
        const thrown = await call('mcp_fail');
        assert.equal(thrown.isError, true);
        const text = textOf(thrown);
        assert.match(text, /^Error: order 7 is not paid/);
        assert.match(text, /at check \(fail\.mjs:10:15\)\n\s+at run \(fail\.mjs:15:10\)/);
        const record = (await spout.api('GET', `/v1/invocations/${thrown._meta?.['spout/invocation_id']}`)).json.data;
        assert.equal(record.status, 'error');
        assert.equal(record.via.kind, 'mcp');

        const missing = await call('mcp_add', { b: 1 });
        assert.equal(missing.isError, true);
        assert.match(textOf(missing), /prop `a` is required/);
        const unknown = await call('mcp_add', { a: 1, c: 2 });
        assert.match(textOf(unknown), /mcp_add has no argument `c`; it takes `a`, `b`, `token`/);
        await assert.rejects(call('no_such_tool'), /no tool no_such_tool/);
      });

      it("binds an app prop to the user's local account; the agent can neither see nor choose it", async () => {
        const result = await call('mcp_whoami', {});
        assert.notEqual(result.isError, true, textOf(result));
        assert.deepEqual(result.structuredContent?.return_value, { user: 'ada', keyMatches: true });
        assert.equal((result.content[0] as { text: string }).text, 'Signed in as ada');
        const chosen = await call('mcp_whoami', { acme: { authProvisionId: 'apn_other' } });
        assert.equal(chosen.isError, true);
        assert.match(textOf(chosen), /`acme` is set by Spout/);
      });

      it('replays the action’s cassette in replay mode, with no network', async () => {
        const result = await call('mcp_get_order', { id: 42 });
        assert.notEqual(result.isError, true, textOf(result));
        assert.deepEqual(result.structuredContent?.return_value, { id: 42, status: 'shipped' });
        const record = (await spout.api('GET', `/v1/invocations/${result._meta?.['spout/invocation_id']}`)).json.data;
        assert.equal(record.calls.length, 1);
        assert.equal(record.calls[0].served_by, 'cassette');
        // A call nobody recorded fails saying so, instead of going out.
        const unrecorded = await call('mcp_get_order', { id: 43 });
        assert.equal(unrecorded.isError, true);
        assert.match(textOf(unrecorded), /no recording of GET https:\/\/api\.acme\.invalid\/orders\/43/);
      });

      it('announces tools/list_changed when an action is saved, and lists it', async () => {
        await mcp.client.listTools();
        let changes = 0;
        mcp.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
        await saveComponent(spout, fresh(`mcp_fresh_${transport}`), 'fresh.mjs');
        await waitFor(() => changes > 0, 10_000, 'tools/list_changed');
        const { tools } = await mcp.client.listTools();
        assert.ok(tools.some((t) => t.name === `mcp_fresh_${transport}`));
      });

      it("serves a source's latest events as a resource, and tells subscribers when it emits", async () => {
        const source = await deploySource(spout, undefined, { name: `echo ${transport}` });
        const uri = `spout://sources/${source.id}/events`;
        const { resources } = await mcp.client.listResources();
        assert.ok(resources.some((r) => r.uri === uri && r.mimeType === 'application/json'));
        const read = async (u: string) => JSON.parse(((await mcp.client.readResource({ uri: u })).contents[0] as { text: string }).text);
        assert.deepEqual((await read(uri)).events, []);
        const updated: string[] = [];
        mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
        await mcp.client.subscribeResource({ uri });
        const body = { n: 1, pad: 'x'.repeat(2000) };
        assert.equal((await fetch(source.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status, 200);
        await waitFor(() => updated.includes(uri), 10_000, 'resources/updated');
        // The list holds previews (data over 1 KB cut); one event's resource holds it whole.
        const { events } = await read(uri);
        assert.equal(events.length, 1);
        assert.equal(events[0].truncated, true);
        const one = await read(`${uri}/${events[0].id}`);
        assert.equal(one.id, events[0].id);
        assert.deepEqual(one.event.body, body);
        await assert.rejects(mcp.client.readResource({ uri: 'spout://sources/dc_nope/events' }), /no resource/);
        assert.equal(mcp.stderr(), '');
      });
    });
  }
});
