// The MCP server's edges and choices: /mcp refuses callers without the key, a browser session or
// another origin or host; the /v1 settings choose hidden actions, registry apps, accounts and
// network modes (and clients hear of the new tools); an agent finds valid values and the props
// a reloadProps prop brings through the helper tools; the snippets configure a working client.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { cli, cliEnv } from '../helpers/cli';
import { connectMcp, type McpConnection, saveComponent, textOf } from '../helpers/mcp';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

const ORDER_ITEM = `export default {
  name: "Order item",
  key: "mcp_order_item",
  version: "0.1.0",
  type: "action",
  props: {
    kind: { type: "string", label: "Kind", options: ["shirt", "mug"], reloadProps: true },
    color: {
      type: "string",
      async options({ query }) {
        const all = this.kind === "shirt" ? ["red", "blue"] : ["white"];
        return all.filter((c) => !query || c.includes(query)).map((c) => ({ label: c.toUpperCase(), value: c }));
      },
    },
  },
  async additionalProps() {
    return this.kind === "shirt" ? { size: { type: "string", options: ["S", "M", "L"] } } : {};
  },
  async run({ $ }) {
    $.export("$summary", "Ordered a " + this.kind);
    return { kind: this.kind, color: this.color, size: this.size ?? null };
  },
};
`;

const GLOBEX = `export default { name: "Globex ping", key: "mcp_globex", version: "0.1.0", type: "action", props: { globex: { type: "app", app: "globex" } }, async run() { return this.globex.$auth.region; } };\n`;

const FETCH_LIVE = `export default { name: "Fetch status", key: "mcp_fetch_status", version: "0.1.0", type: "action", props: {}, async run() { return (await fetch("https://status.acme.invalid/")).status; } };\n`;

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('MCP server: refusals, settings, helper tools and snippets', () => {
  let spout: SpoutProcess;
  let mcp: McpConnection;
  const call = (name: string, args: Record<string, unknown> = {}, client = mcp.client) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  /** A raw POST to /mcp (fetch cannot set Host or Origin). */
  const post = (headers: Record<string, string>, body: unknown = INITIALIZE, query = '') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request(`${spout.url}/mcp${query}`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const bearer = () => ({ authorization: `Bearer ${spout.apiKey}` });
  const account = async (app: string, name: string, credentials: Record<string, unknown>) => (await spout.api('POST', '/v1/accounts', { app, name, credentials })).json.data.id as string;

  before(async () => {
    spout = await startSpout({ keyInDataDir: true });
    for (const [file, code] of Object.entries({ 'order-item.mjs': ORDER_ITEM, 'globex.mjs': GLOBEX, 'fetch-status.mjs': FETCH_LIVE })) await saveComponent(spout, code, file);
    mcp = await connectMcp(spout, 'http');
  });
  after(async () => {
    await mcp?.client.close();
    await spout?.stop();
  });

  it('refuses /mcp without the key, with a wrong key or a browser session, and from another origin or host', async () => {
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ authorization: 'Bearer wrong' })).status, 401);
    // A UI session cookie opens /v1 to the browser, never /mcp.
    const ui = await fetch(spout.uiUrl, { redirect: 'manual' });
    const cookie = (ui.headers.get('set-cookie') ?? '').split(';')[0] as string;
    assert.match(cookie, /^spout_session_/);
    assert.equal((await fetch(`${spout.url}/v1/settings`, { headers: { cookie } })).status, 200);
    assert.equal((await post({ cookie })).status, 401);
    const foreign = await post({ ...bearer(), origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.match(JSON.parse(foreign.body).detail, /origin https:\/\/evil\.example are refused/);
    const otherPort = new URL(spout.url);
    otherPort.port = String(Number(otherPort.port) + 1);
    assert.equal((await post({ ...bearer(), origin: otherPort.origin })).status, 403);
    assert.equal((await post({ ...bearer(), host: 'attacker.example' })).status, 403);
    // Within a session too: each request needs the key.
    const started = await post(bearer());
    assert.equal(started.status, 200);
    const session = started.headers['mcp-session-id'] as string;
    const listing = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    assert.equal((await post({ 'mcp-session-id': session }, listing)).status, 401);
    assert.equal((await post({ ...bearer(), 'mcp-session-id': session, origin: 'https://evil.example' }, listing)).status, 403);
    assert.equal((await post({ ...bearer(), 'mcp-session-id': 'not-a-session' }, listing)).status, 404);
    assert.equal((await post(bearer(), listing)).status, 400);
    // Over stdio, a wrong key fails the client's connect with the service's reason.
    await assert.rejects(connectMcp(spout, 'stdio', { args: ['--api-url', spout.url, '--api-key', 'wrong'] }), /API key/);
  });

  it('checks the settings it is given, and tells connected clients when they hide a tool', async () => {
    assert.deepEqual((await spout.api('GET', '/v1/mcp/settings')).json.data, { hidden_actions: [], registry_apps: [], accounts: {}, network_modes: {}, dev_toolset: false, dev_root: '' });
    const bad = await spout.api('PUT', '/v1/mcp/settings', { accounts: { acme: 'apn_missing' }, network_modes: { x: 'sometimes' }, registry_apps: ['Not A Slug'], dev_toolset: 'yes', dev_root: 'components' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json.errors.map((e: { path: string }) => e.path).sort(), ['dev_root', 'dev_toolset', 'network_modes.x', 'registry_apps.0']);
    assert.match(bad.json.detail, /dev_root: must be an absolute folder path/);
    const unknownAccount = await spout.api('PUT', '/v1/mcp/settings', { accounts: { acme: 'apn_missing' } });
    assert.equal(unknownAccount.status, 400);
    assert.match(unknownAccount.json.detail, /accounts\.acme: no connected account apn_missing/);

    assert.ok((await mcp.client.listTools()).tools.some((t) => t.name === 'mcp_fetch_status'));
    let changes = 0;
    mcp.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    assert.equal((await spout.api('PUT', '/v1/mcp/settings', { hidden_actions: ['mcp_fetch_status'] })).status, 200);
    await waitFor(() => changes > 0, 10_000, 'tools/list_changed');
    assert.ok(!(await mcp.client.listTools()).tools.some((t) => t.name === 'mcp_fetch_status'));
    await assert.rejects(call('mcp_fetch_status'), /no tool mcp_fetch_status/);
    // The settings screen still lists it, as hidden.
    const views = (await spout.api('GET', '/v1/mcp/tools?limit=100')).json.data;
    assert.equal(views.find((v: { name: string }) => v.name === 'mcp_fetch_status').exposed, false);
    await spout.api('PUT', '/v1/mcp/settings', { hidden_actions: [] });
  });

  it('exposes the registry actions of chosen apps, by session or by settings; a registry run does not make a saved tool', async () => {
    const formatting = await connectMcp(spout, 'http', { query: 'app=formatting' });
    try {
      const tool = (await formatting.client.listTools()).tools.find((t) => t.name === 'formatting-format-text');
      assert.ok(tool, 'formatting-format-text listed');
      assert.deepEqual((tool.inputSchema.properties as Record<string, { enum?: string[] }>).operation?.enum?.slice(0, 2), ['uppercase', 'lowercase']);
      const result = await call('formatting-format-text', { text: 'hello mcp', operation: 'uppercase' }, formatting.client);
      assert.deepEqual(result.structuredContent, { return_value: 'HELLO MCP', exports: { $summary: 'Applied uppercase' } });
    } finally {
      await formatting.client.close();
    }
    assert.ok(!(await mcp.client.listTools()).tools.some((t) => t.name === 'formatting-format-text'));
    await spout.api('PUT', '/v1/mcp/settings', { registry_apps: ['formatting'] });
    assert.ok((await mcp.client.listTools()).tools.some((t) => t.name === 'formatting-format-text'));
    await spout.api('PUT', '/v1/mcp/settings', { registry_apps: [] });
  });

  it('refuses to guess between accounts of one app: the settings or the session choose', async () => {
    const east = await account('globex', 'east', { region: 'us-east' });
    await account('globex', 'west', { region: 'us-west' });
    const ambiguous = await call('mcp_globex');
    assert.equal(ambiguous.isError, true);
    assert.match(textOf(ambiguous), /app "globex" has 2 connected accounts .*choose one/);
    const binding = (await spout.api('GET', '/v1/mcp/tools?limit=100')).json.data.find((v: { name: string }) => v.name === 'mcp_globex').accounts[0];
    assert.equal(binding.status, 'choose');

    const session = await connectMcp(spout, 'http', { query: `account=globex=${east}` });
    try {
      assert.equal((await call('mcp_globex', {}, session.client)).structuredContent?.return_value, 'us-east');
    } finally {
      await session.client.close();
    }
    assert.equal((await spout.api('PUT', '/v1/mcp/settings', { accounts: { globex: east } })).status, 200);
    assert.equal((await call('mcp_globex')).structuredContent?.return_value, 'us-east');
    const bad = await post(bearer(), INITIALIZE, '?account=apn_nope');
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.body).detail, /no connected account apn_nope/);
  });

  it('lets an agent list valid values and learn the props a reloadProps prop brings, then call with them', async () => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === 'mcp_order_item')!;
    assert.equal(tool.inputSchema.additionalProperties, true);
    assert.match(String(tool.description), /spout_reload_props/);
    const options = await call('spout_prop_options', { tool: 'mcp_order_item', prop: 'color', configured_props: { kind: 'shirt' }, query: 'r' });
    assert.deepEqual(options.structuredContent, { options: [{ label: 'RED', value: 'red' }], context: null });
    const reloaded = await call('spout_reload_props', { tool: 'mcp_order_item', configured_props: { kind: 'shirt' } });
    const schema = reloaded.structuredContent?.input_schema as { properties: Record<string, { enum?: string[] }>; required: string[] };
    assert.deepEqual(schema.properties.size?.enum, ['S', 'M', 'L']);
    assert.ok(schema.required.includes('size'));
    const ordered = await call('mcp_order_item', { kind: 'shirt', color: 'red', size: 'L' });
    assert.deepEqual(ordered.structuredContent?.return_value, { kind: 'shirt', color: 'red', size: 'L' });
    const missing = await call('mcp_order_item', { kind: 'shirt', color: 'red' });
    assert.match(textOf(missing), /prop `size` is required/);
  });

  it('honours a session network mode (spout mcp --network replay) and announces a deleted action', async () => {
    const stdio = await connectMcp(spout, 'stdio', { args: ['--network', 'replay'] });
    try {
      const replayed = await call('mcp_fetch_status', {}, stdio.client);
      assert.equal(replayed.isError, true);
      assert.match(textOf(replayed), /no recording of GET https:\/\/status\.acme\.invalid\//);
      await stdio.client.listTools();
      let changes = 0;
      stdio.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
      assert.equal((await spout.api('DELETE', '/v1/components/mcp_fetch_status')).status, 204);
      await waitFor(() => changes > 0, 10_000, 'tools/list_changed');
      assert.ok(!(await stdio.client.listTools()).tools.some((t) => t.name === 'mcp_fetch_status'));
      assert.equal((await spout.api('DELETE', '/v1/components/mcp_fetch_status')).status, 404);
    } finally {
      await stdio.client.close();
    }
  });

  it('keeps a stdio client working across a restart of the service, on whatever port it comes back, and the settings', async () => {
    const stdio = await connectMcp(spout, 'stdio');
    try {
      assert.equal((await call('mcp_globex', {}, stdio.client)).structuredContent?.return_value, 'us-east');
      const devFolder = path.resolve('components');
      assert.equal((await spout.api('PUT', '/v1/mcp/settings', { dev_toolset: true, dev_root: devFolder })).status, 200);
      await spout.stop();
      spout = await startSpout({ dataDir: spout.dataDir, keyInDataDir: true });
      // Settings → MCP's developer toolset switch and folder survive the restart.
      const kept = (await spout.api('GET', '/v1/mcp/settings')).json.data;
      assert.deepEqual([kept.dev_toolset, kept.dev_root], [true, devFolder]);
      const after = await call('mcp_globex', {}, stdio.client);
      assert.equal(after.structuredContent?.return_value, 'us-east', textOf(after));
      await waitFor(() => stdio.stderr().includes('a new session was started'), 10_000, 'the relay to say so');
    } finally {
      await stdio.client.close();
    }
  });

  it('answers the snippets that configure clients, and the stdio one works as given', async () => {
    const { data } = (await spout.api('GET', '/v1/mcp/snippets')).json;
    assert.deepEqual(data.stdio.args.slice(-3), ['mcp', '--data-dir', spout.dataDir]);
    assert.equal(data.http.url, `${spout.url}/mcp`);
    assert.ok(!JSON.stringify(data).includes(spout.apiKey), 'snippets never hold the key');
    assert.deepEqual(
      data.clients.map((c: { client: string; transport: string }) => `${c.client}/${c.transport}`),
      ['claude-desktop/stdio', 'cursor/stdio', 'cursor/http', 'vscode/stdio', 'vscode/http'],
    );
    assert.deepEqual(data.clients[0].config.mcpServers.spout, { command: data.stdio.command, args: data.stdio.args });

    const client = new Client({ name: 'snippet', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: data.stdio.command, args: data.stdio.args, env: { ...getDefaultEnvironment(), XDG_CONFIG_HOME: tempDir('spout-mcp-config-') }, stderr: 'pipe' }));
    try {
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'mcp_order_item'));
    } finally {
      await client.close();
    }

    const printed = await cli(['mcp', '--config'], cliEnv(spout));
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /Claude Desktop \(stdio\)/);
    assert.match(printed.stdout, new RegExp(`HTTP endpoint: ${spout.url}/mcp`));
  });
});
