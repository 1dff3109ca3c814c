// Registry code runs as it does on Pipedream, not only loads (issue 21): components of a registry
// tree written for these tests (test/fixtures/components/runtime, in the registry's shapes) are
// deployed and run by key, the way a user would, against a local stand-in for their API.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type FakeRegistry, startNpmRegistry, writePackage } from '../helpers/npm-registry';
import { sourceFolderNow } from '../helpers/parked-hosts';
import { type SpoutProcess, startSpout, tempDir } from '../helpers/service';

const TREE = path.resolve('test', 'fixtures', 'components', 'runtime');
const API_KEY = 'pagely-secret-key-123';

/** The pagely API: two pages of items; every request is kept. */
async function startPagelyApi(): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? 1);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [1, 2].map((i) => ({ id: `${page}-${i}`, title: `item ${page}.${i}` })), more: page < 2 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('registry code runs as on Pipedream', () => {
  let spout: SpoutProcess;
  let api: Awaited<ReturnType<typeof startPagelyApi>>;
  let account: string;

  before(async () => {
    api = await startPagelyApi();
    spout = await startSpout({ args: ['--registry', TREE] });
    const created = await spout.api('POST', '/v1/accounts', { app: 'pagely', name: 'Pagely', credentials: { base_url: api.url, api_key: API_KEY } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    account = created.json.data.id;
  });
  after(async () => {
    await spout.stop();
    await api.close();
  });

  const runAction = (key: string, props: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => spout.api('POST', '/v1/actions/run', { id: key, configured_props: { pagely: { authProvisionId: account }, ...props }, ...extra });
  const deploy = async (key: string, props: Record<string, unknown> = {}) => {
    const res = await spout.api('POST', '/v1/sources', { component_key: key, configured_props: props });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json.data as { id: string; configured_props: Record<string, unknown> };
  };
  const events = async (id: string) => (await spout.api('GET', `/v1/sources/${id}/event_summaries?expand=event&limit=100`)).json.data as Array<{ event: any; metadata: { summary: string } }>;

  it('binds component and app methods to their instance, so methods passed on detached still work', async () => {
    const run = await runAction('pagely-list-titles', { prefix: '> ' });
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    assert.deepEqual(run.json.ret, ['> item 1.1', '> item 1.2', '> item 2.1', '> item 2.2', '> item 1.1']);
    assert.equal(run.json.exports.$summary, 'Listed 4 items');

    const source = await deploy('pagely-new-item', { pagely: { authProvisionId: account } });
    assert.equal((await spout.api('POST', `/v1/sources/${source.id}/run`)).status, 200);
    const emitted = await events(source.id);
    assert.deepEqual(emitted.map((e) => e.metadata.summary).sort(), ['Item: item 1.1', 'Item: item 1.2', 'Item: item 2.1', 'Item: item 2.2']);
  });

  it('keeps methods and $emit out of a spread of this, which registry code sends as a request body', async () => {
    const code = `
export default {
  name: "Spreads this", version: "0.0.1", type: "action",
  props: { title: { type: "string" }, count: { type: "integer", optional: true } },
  methods: { helper() { return 1; } },
  async run() { const { count, ...data } = this; return { keys: Object.keys(data), helper: this.helper(), emits: typeof this.$emit }; },
};`;
    const run = await spout.api('POST', '/v1/actions/run', { component_code: code, configured_props: { title: 'a', count: 2 } });
    assert.deepEqual(run.json.ret, { keys: ['title'], helper: 1, emits: 'function' });
  });

  it('deploys a source with a static timer on that schedule without asking, whatever is configured', async () => {
    const source = await deploy('pagely-new-report', { timer: { intervalSeconds: 5 } });
    assert.deepEqual(source.configured_props.timer, { intervalSeconds: 900 });
    const view = (await spout.api('GET', `/v1/sources/${source.id}`)).json.data;
    assert.deepEqual(view.timers.timer.schedule, { intervalSeconds: 900 });
    const component = (await spout.api('GET', '/v1/components/registry/pagely-new-report')).json.data;
    assert.deepEqual(component.configurable_props.find((p: { name: string }) => p.name === 'timer').static, { intervalSeconds: 900 });
  });

  it('gives an action run a private /tmp, reached as /tmp and os.tmpdir(), emptied after the run', async () => {
    const run = await runAction('pagely-save-report', { text: 'quarterly' });
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    const ret = run.json.ret;
    assert.equal(ret.read, 'quarterly and more');
    assert.equal(ret.filePath, '/tmp/pagely-report.txt');
    assert.equal(ret.tmpdir, '/tmp');
    assert.match(ret.workDir, /^\/tmp\/work-/, 'mkdtemp answers under /tmp');
    assert.equal(ret.inner, 'inner');
    assert.deepEqual(
      ret.listed.filter((f: string) => !f.startsWith('work-')),
      ['copy.txt', 'pagely-report.txt'],
    );
    assert.ok(!fs.existsSync('/tmp/pagely-report.txt'), 'the machine’s own /tmp was not written');
    const temps = fs
      .readdirSync(path.join(spout.dataDir, 'dirs'))
      .map((owner) => path.join(spout.dataDir, 'dirs', owner, '.tmp'))
      .filter((folder) => fs.existsSync(folder));
    assert.ok(temps.length > 0, 'the action has a temp folder in its own folder');
    for (const folder of temps) assert.deepEqual(fs.readdirSync(folder), [], `${folder} is emptied after the run`);
  });

  it('shows a prop additionalProps edits in place for the values that led to it, each time, and only then', async () => {
    const shape = async (delivery: string) => {
      const answer = await spout.api('POST', '/v1/components/props', { id: 'pagely-send-digest', configured_props: { delivery } });
      assert.equal(answer.status, 200, JSON.stringify(answer.json));
      const channel = answer.json.data.configurable_props.find((p: { name: string }) => p.name === 'channel');
      return { hidden: channel.hidden ?? false, optional: channel.optional ?? false };
    };
    // The same configuration session answers all three: an edit must not outlive its call.
    assert.deepEqual(await shape('channel'), { hidden: false, optional: false });
    assert.deepEqual(await shape('channel'), { hidden: false, optional: false }, 'asked again, the edited prop is still reported');
    assert.deepEqual(await shape('inbox'), { hidden: true, optional: true }, 'other values leave the prop as the component declares it');
    const refused = await runAction('pagely-send-digest', { delivery: 'channel' });
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(refused.json), /prop `channel` is required/);
    const run = await runAction('pagely-send-digest', { delivery: 'channel', channel: 'news' });
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.ret, 'news');
    assert.equal((await runAction('pagely-send-digest', { delivery: 'inbox' })).json.ret, 'inbox');
  });

  it('fails a program start as a program that cannot start (callback, error event), never starting it', async () => {
    const code = `
import { exec, execFile, spawn, execSync } from "child_process";
export default { name: "Starts", version: "0.0.1", type: "action", props: {}, async run() {
  // As google-auth-library asks the gcloud CLI for a project id, and goes on without one.
  const viaCallback = await new Promise((resolve) => exec("gcloud config config-helper --format json", (err, stdout) => resolve(err ? err.code : stdout)));
  const viaFile = await new Promise((resolve) => execFile("gcloud", ["--version"], (err) => resolve(err ? err.code : "ran")));
  const viaEvent = await new Promise((resolve) => spawn("gcloud", ["--version"]).on("error", (err) => resolve(err.code)).on("spawn", () => resolve("ran")));
  let sync;
  try { execSync("id"); sync = "ran"; } catch (err) { sync = err.code; }
  return { viaCallback, viaFile, viaEvent, sync };
} };`;
    const run = await spout.api('POST', '/v1/actions/run', { component_code: code });
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    assert.deepEqual(run.json.ret, { viaCallback: 'ERR_ACCESS_DENIED', viaFile: 'ERR_ACCESS_DENIED', viaEvent: 'ERR_ACCESS_DENIED', sync: 'ERR_ACCESS_DENIED' });
  });

  it('rejects a promisified program start (promisify(exec)) as a failed start, naming the program, and starts nothing', async () => {
    // As an audio action shells out (`promisify(exec)("mkdir -p /tmp/chunks")`), catching the
    // failure of a start it can do without.
    const code = `
import { exec, execFile, execSync } from "child_process";
import { promisify } from "util";
const execAsync = promisify(exec);
export default { name: "Shells out", version: "0.0.1", type: "action", props: {}, async run() {
  let threw = null;
  let pending;
  try { pending = execAsync("mkdir -p /tmp/chunks"); } catch (err) { threw = err.message; }
  const failed = await pending.then(() => "ran", (err) => ({ code: err.code, message: err.message, stdout: err.stdout }));
  const viaFile = await promisify(execFile)("ffmpeg", ["-i", "/tmp/a.mp3"]).then(() => "ran", (err) => err.message);
  let sync;
  try { execSync("id"); sync = "ran"; } catch (err) { sync = err.message; }
  return { threw, child: typeof pending.child, failed, viaFile, sync };
} };`;
    const run = await spout.api('POST', '/v1/actions/run', { component_code: code });
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    assert.deepEqual(run.json.ret, {
      threw: null,
      child: 'object',
      failed: { code: 'ERR_ACCESS_DENIED', message: 'exec("mkdir -p /tmp/chunks"): components may not start processes or run programs (docs/security.md)', stdout: '' },
      viaFile: 'execFile("ffmpeg"): components may not start processes or run programs (docs/security.md)',
      sync: 'execSync("id"): components may not start processes or run programs (docs/security.md)',
    });
    assert.ok(!fs.existsSync('/tmp/chunks'), 'no program ran');
  });

  it('runs an ES module as strict code, as Pipedream does, and a CommonJS one as Node runs it', async () => {
    // As an RSS action loops over an undeclared name (`for (url of this.feeds)`): an ES module
    // throws there, where sloppy code would make a global and go on.
    const esm = `
const plain = function () { return this === undefined ? "undefined" : "global"; };
export default { name: "Loops", version: "0.0.1", type: "action", props: {}, async run() {
  if (plain() !== "undefined") return "sloppy this";
  for (feedUrl of ["a", "b"]) {}
  return "ran";
} };`;
    const run = await spout.api('POST', '/v1/actions/run', { component_code: esm, component_filename: 'loops.mjs' });
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.error?.name, 'ReferenceError', JSON.stringify(run.json));
    assert.equal(run.json.error?.message, 'feedUrl is not defined');
    assert.match(run.json.error?.stack ?? '', /loops\.mjs:5:/, 'the stack still points at the component’s own line');

    const cjs = `
module.exports = { name: "Loops", version: "0.0.1", type: "action", props: {}, async run() {
  for (feedUrl of ["a", "b"]) {}
  return typeof feedUrl;
} };`;
    const sloppy = await spout.api('POST', '/v1/actions/run', { component_code: cjs, component_filename: 'loops.js' });
    assert.equal(sloppy.status, 200, JSON.stringify(sloppy.json));
    assert.equal(sloppy.json.error, null, JSON.stringify(sloppy.json.error));
    assert.equal(sloppy.json.ret, 'string');
  });

  it('offers a global WebSocket, as Node 22 does (clients such as Supabase’s need one)', async () => {
    const code = 'export default { name: "Ws", version: "0.0.1", type: "action", props: {}, async run() { return typeof WebSocket; } };';
    const run = await spout.api('POST', '/v1/actions/run', { component_code: code });
    assert.equal(run.json.ret, 'function', JSON.stringify(run.json));
  });

  it('runs a database action whose sql prop additionalProps adds, with the query as text or as a prepared statement', async () => {
    const tabulo = await spout.api('POST', '/v1/accounts', { app: 'tabulo', name: 'Tabulo', credentials: { host: 'db.example.com' } });
    const base = { tabulo: { authProvisionId: tabulo.json.data.id }, database: 'main' };
    const props = await spout.api('POST', '/v1/components/props', { id: 'tabulo-run-query', configured_props: base });
    assert.equal(props.status, 200, JSON.stringify(props.json));
    assert.deepEqual(
      props.json.data.configurable_props.find((p: { name: string }) => p.name === 'sql'),
      { name: 'sql', type: 'sql', auth: { app: 'tabulo' }, label: 'SQL Query' },
    );
    const text = await spout.api('POST', '/v1/actions/run', { id: 'tabulo-run-query', configured_props: { ...base, sql: 'SELECT 1' } });
    assert.equal(text.status, 200, JSON.stringify(text.json));
    assert.deepEqual(text.json.ret, { text: 'SELECT 1', values: [] });
    const prepared = await spout.api('POST', '/v1/actions/run', { id: 'tabulo-run-query', configured_props: { ...base, sql: { query: 'SELECT * FROM t WHERE id = $1', params: [7] } } });
    assert.deepEqual(prepared.json.ret, { text: 'SELECT * FROM t WHERE id = $1', values: [7] });
  });

  it('resolves /tmp as a module loads, also where it is only described (saved by key)', async () => {
    const run = await runAction('pagely-temp-root');
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    assert.deepEqual(run.json.ret, { loaded: '/tmp', now: '/tmp' });
  });

  it('gives a source its own /tmp that lasts between runs, is never another source’s, and goes with the source', async () => {
    const a = await deploy('pagely-new-report');
    const b = await deploy('pagely-new-report');
    for (let i = 0; i < 2; i++) assert.equal((await spout.api('POST', `/v1/sources/${a.id}/run`)).status, 200);
    assert.equal((await spout.api('POST', `/v1/sources/${b.id}/run`)).status, 200);
    assert.deepEqual((await events(a.id)).map((e) => e.event.after).sort(), ['x', 'xx']);
    assert.deepEqual(
      (await events(b.id)).map((e) => e.event),
      [{ before: '', after: 'x', interval: 900 }],
    );
    // While its host runs on the spare, the source's folder is in the spare's place.
    const folder = path.join(sourceFolderNow(spout.dataDir, a.id), '.tmp');
    assert.equal(fs.readFileSync(path.join(folder, 'pagely-report.txt'), 'utf8'), 'xx');
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    assert.equal((await spout.api('DELETE', `/v1/sources/${a.id}`)).status, 204);
    assert.ok(!fs.existsSync(folder), 'the temp folder is removed with the source');
    assert.ok(!fs.existsSync(path.join(spout.dataDir, 'dirs', a.id)), 'and its own folder');
  });

  it('refuses another source’s temp folder and the data dir, named by their real paths', async () => {
    const victim = await deploy('pagely-new-report');
    await spout.api('POST', `/v1/sources/${victim.id}/run`);
    const snoop = `
import fs from "fs";
export default {
  name: "Snoop", version: "0.0.1", type: "action", props: {},
  async run() {
    const tryRead = (p) => { try { return fs.readFileSync(p, "utf8"); } catch (err) { return err.code; } };
    return {
      other: tryRead(${JSON.stringify(path.join(spout.dataDir, 'dirs', victim.id, '.tmp', 'pagely-report.txt'))}),
      climb: tryRead("/tmp/../${path.basename(spout.dataDir)}/api-key"),
      key: tryRead(${JSON.stringify(path.join(spout.dataDir, 'api-key'))}),
    };
  },
};`;
    const run = await spout.api('POST', '/v1/actions/run', { component_code: snoop });
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.deepEqual(run.json.ret, { other: 'ERR_ACCESS_DENIED', climb: 'ERR_ACCESS_DENIED', key: 'ERR_ACCESS_DENIED' });
  });

  it('loads a component importing a sibling app that only the local tree has, at a range npm lacks', async () => {
    const run = await spout.api('POST', '/v1/actions/run', { id: 'orderly-sync-orders' });
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    assert.deepEqual(run.json.ret, { pageSize: 2, label: 'order 7' });
  });

  it('accepts numeric option labels and shows them as text', async () => {
    const component = (await spout.api('GET', '/v1/components/registry/pagely-pick-size')).json.data;
    assert.deepEqual(component.configurable_props.find((p: { name: string }) => p.name === 'level').options, [
      { label: 1, value: 1 },
      { label: 2, value: 2 },
    ]);
    const options = await spout.api('POST', '/v1/components/configure', { id: 'pagely-pick-size', prop_name: 'size', configured_props: {} });
    assert.equal(options.status, 200, JSON.stringify(options.json));
    assert.deepEqual(options.json.options, [
      { label: '1', value: 1 },
      { label: '2', value: 2 },
      { label: '5', value: 5 },
    ]);
    const run = await runAction('pagely-pick-size', { size: 5, level: 2 });
    assert.equal(run.json.ret, 10);
  });

  it('serves additionalProps and every other call of a replay-mode run from the cassette: nothing goes out', async () => {
    const before = api.seen.length;
    const run = await runAction('pagely-lookup-host', { host: 'example.com' }, { network_mode: 'replay' });
    assert.equal(run.status, 400, JSON.stringify(run.json));
    assert.match(run.json.detail, /additionalProps\(\) threw: no recording of GET http:\/\/127\.0\.0\.1:\d+\/items\?page=1&size=2/);
    assert.match(run.json.detail, /spout run-action --network record, or network_mode on POST \/v1\/actions\/run\), or add it to the action's cassette \(GET\/PUT \/v1\/components\/sc_\w+\/cassette\)/);
    assert.equal(api.seen.length, before, 'no request reached the API');

    // Recorded once, the same run replays; its DNS lookup is not HTTP and is refused, not made.
    const recorded = await runAction('pagely-lookup-host', { host: 'localhost' }, { network_mode: 'record' });
    assert.equal(recorded.json.error, null, JSON.stringify(recorded.json));
    const component = (await spout.api('GET', '/v1/components/registry/pagely-lookup-host')).json.data;
    const id = (await spout.api('GET', '/v1/users/me/components?limit=100')).json.data.find((c: { key: string }) => c.key === component.key).id;
    const cassette = (await spout.api('GET', `/v1/components/${id}/cassette`)).json.data;
    assert.equal(cassette.entries.length, 1, 'additionalProps’ call was recorded');
    const replayed = await runAction('pagely-lookup-host', { host: 'localhost' }, { network_mode: 'replay' });
    assert.equal(replayed.status, 200, JSON.stringify(replayed.json));
    assert.match(replayed.json.error.message, /no recording of a DNS lookup of localhost: network mode "replay" makes no live calls/);
  });

  it('serves clients that write their request only once the socket connects (as Stripe’s SDK does), live, recorded and replayed', async () => {
    const code = `
import http from "http";
export default {
  name: "Waits for connect", version: "0.0.1", type: "action", props: { url: { type: "string" } },
  async run() {
    return new Promise((resolve, reject) => {
      const req = http.request(this.url + "/items", { method: "POST", headers: { "content-type": "text/plain" } }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode, items: JSON.parse(body).items.length }));
      });
      req.on("error", reject);
      req.once("socket", (socket) => socket.once("connect", () => { req.write("hello"); req.end(); }));
    });
  },
};`;
    const saved = await spout.api('POST', '/v1/components', { component_code: code });
    const id = saved.json.data.id;
    const before = api.seen.length;
    for (const network_mode of ['live', 'record', 'replay']) {
      const run = await spout.api('POST', '/v1/actions/run', { id, configured_props: { url: api.url }, network_mode });
      assert.equal(run.json.error, null, `${network_mode}: ${JSON.stringify(run.json.error)}`);
      assert.deepEqual(run.json.ret, { status: 200, items: 2 }, network_mode);
    }
    assert.equal(api.seen.length, before + 2, 'live and record went out, replay did not');
  });

  it('fails at once, in every network mode, a request the interception cannot read (a path without "/", an unknown method), instead of waiting forever', async () => {
    // As an RSS client requests a feed "URL" that is not one: url.parse("feed") has no host and the path "feed".
    const code = `
import http from "http";
import { parse } from "url";
const get = (options) => new Promise((resolve) => {
  const req = http.request(options, (res) => resolve(res.statusCode));
  req.on("error", (err) => resolve(err.code + ": " + err.message));
  req.end();
});
export default {
  name: "Odd requests", version: "0.0.1", type: "action", props: { url: { type: "string" } },
  async run() {
    const { hostname, port } = new URL(this.url);
    return {
      path: await get({ ...parse("feed"), hostname, port }),
      method: await get({ hostname, port, method: "FETCH", path: "/items" }),
      plain: await get({ hostname, port, path: "/items" }),
    };
  },
};`;
    const saved = await spout.api('POST', '/v1/components', { component_code: code });
    const before = api.seen.length;
    for (const network_mode of ['live', 'replay']) {
      const run = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { url: api.url }, network_mode });
      assert.equal(run.json.error, null, `${network_mode}: ${JSON.stringify(run.json.error)}`);
      assert.equal(run.json.ret.path, `ERR_SPOUT_UNREADABLE_REQUEST: GET feed: Spout's HTTP interception cannot carry this request: its path "feed" does not start with "/"`, network_mode);
      assert.equal(run.json.ret.method, `ERR_SPOUT_UNREADABLE_REQUEST: FETCH /items: Spout's HTTP interception cannot carry this request: its method "FETCH" is not one of Node's http.METHODS`, network_mode);
      if (network_mode === 'live') assert.equal(run.json.ret.plain, 200);
      else assert.match(run.json.ret.plain, /^ERR_SPOUT_NOT_RECORDED: no recording of GET /);
    }
    assert.deepEqual(api.seen.slice(before), ['GET /items'], 'only the readable request went out, once, live');
  });

  it('says which call had no recording when a client retrying it runs into the timeout', async () => {
    const code = `
export default {
  name: "Retrier", version: "0.0.1", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } } },
  async run() {
    // As SDKs do with network errors: retry, without end.
    for (;;) { try { await fetch("https://api.example.com/v2/things"); } catch { await new Promise((r) => setTimeout(r, 100)); } }
  },
};`;
    const res = await spout.api('POST', '/v1/sources', { component_code: code, network_mode: 'replay', timeout_seconds: 2 });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const ran = await spout.api('POST', `/v1/sources/${res.json.data.id}/run`);
    assert.match(ran.json.data.error.message, /^timed out after 2 s; the run was stopped; it had made a call with no answer in replay, which its client may have retried until then \(no recording of GET https:\/\/api\.example\.com\/v2\/things/);
  });

  it('says so too for a connection or lookup no cassette can answer (a gRPC client retrying over HTTP/2), and makes none of them', async () => {
    const code = `
import dns from "node:dns";
import http2 from "node:http2";
export default {
  name: "Streamer", version: "0.0.1", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } } },
  async run() {
    // As gRPC clients do: a TXT lookup through a Resolver of their own, then HTTP/2, retried while unavailable.
    for (;;) {
      await new dns.promises.Resolver().resolveTxt("_grpc_config.pubsub.example.com").catch(() => null);
      await new Promise((resolve) => http2.connect("https://pubsub.example.com").on("error", resolve));
      await new Promise((r) => setTimeout(r, 100));
    }
  },
};`;
    const res = await spout.api('POST', '/v1/sources', { component_code: code, network_mode: 'replay', timeout_seconds: 2 });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const ran = await spout.api('POST', `/v1/sources/${res.json.data.id}/run`);
    assert.match(ran.json.data.error.message, /^timed out after 2 s; the run was stopped; it had made a call with no answer in replay, which its client may have retried until then \(no recording of a connection to pubsub\.example\.com:443: network mode "replay" makes no live calls/);
    const resolver = `
import dns from "node:dns";
export default { name: "Txt", version: "0.0.1", type: "action", props: {}, async run() {
  const callback = await new Promise((resolve) => new dns.Resolver().resolveTxt("example.com", (err) => resolve(err ? err.code : "looked up")));
  const promised = await new dns.promises.Resolver().resolve4("example.com").then(() => "looked up", (err) => err.code);
  return { callback, promised };
} };`;
    const run = await spout.api('POST', '/v1/actions/run', { component_code: resolver, network_mode: 'replay' });
    assert.deepEqual(run.json.ret, { callback: 'ERR_SPOUT_NOT_RECORDED', promised: 'ERR_SPOUT_NOT_RECORDED' });
  });

  it('masks only secret $auth fields in recordings, so a hand-written entry with the real host matches, body or not', async () => {
    const recorded = await runAction('pagely-list-titles', {}, { network_mode: 'record' });
    assert.equal(recorded.json.error, null, JSON.stringify(recorded.json.error));
    const record = (await spout.api('GET', `/v1/invocations/${recorded.json.invocation_id}`)).json.data;
    assert.ok(record.calls[0].request.url.startsWith(`${api.url}/items`), `the host stays readable: ${record.calls[0].request.url}`);
    assert.equal(record.calls[0].request.headers['x-pagely-key'], '********', 'the api_key is masked');
    assert.ok(!JSON.stringify(record).includes(API_KEY));

    // A POST answered by an entry written with only method, url and a response.
    const poster = `
import { axios } from "@pipedream/platform";
export default {
  name: "Poster", version: "0.0.1", type: "action", props: {},
  async run({ $ }) {
    return axios($, { method: "POST", url: "https://api.example.com/v1/things", data: { name: "thing", at: Date.now() } });
  },
};`;
    const saved = await spout.api('POST', '/v1/components', { component_code: poster });
    const id = saved.json.data.id;
    const put = await spout.api('PUT', `/v1/components/${id}/cassette`, { entries: [{ request: { method: 'POST', url: 'https://api.example.com/v1/things' }, response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"t1"}' } }] });
    assert.equal(put.status, 200, JSON.stringify(put.json));
    const run = await spout.api('POST', '/v1/actions/run', { id, network_mode: 'replay' });
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    assert.deepEqual(run.json.ret, { id: 't1' });
  });

  it('gives HTTP events the fields Pipedream sends: client_ip and the full url among them', async () => {
    const code = `
export default {
  name: "Fields", version: "0.0.1", props: { http: "$.interface.http" },
  async run(event) { this.$emit({ keys: Object.keys(event), client_ip: event.client_ip, url: event.url, path: event.path }); },
};`;
    const res = await spout.api('POST', '/v1/sources', { component_code: code });
    const source = res.json.data;
    const endpoint = source.configured_props.http.endpoint_url as string;
    await fetch(`${endpoint}/hooks/a?x=1`, { method: 'POST', body: 'hi' });
    await fetch(endpoint, { headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.1', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'abc.ngrok.app' } });
    const [second, first] = (await events(source.id)).map((e) => e.event);
    assert.deepEqual(first.keys, ['method', 'path', 'query', 'client_ip', 'url', 'headers', 'bodyRaw', 'body']);
    assert.equal(first.client_ip, '127.0.0.1');
    assert.equal(first.url, `${endpoint}/hooks/a?x=1`);
    assert.equal(first.path, '/hooks/a');
    assert.equal(second.client_ip, '203.0.113.9', 'a local tunnel’s X-Forwarded-For names the caller');
    assert.equal(second.url, `https://abc.ngrok.app${new URL(endpoint).pathname}`);
  });
});

describe('a fresh data dir', () => {
  let registry: FakeRegistry;
  let packages: string;
  before(async () => {
    packages = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-fresh-packages-'));
    registry = await startNpmRegistry([
      writePackage(packages, { name: 'spout-test-shout', version: '1.0.0', main: 'index.js' }, { 'index.js': 'module.exports = (s) => String(s).toUpperCase() + "!";\n' }),
      // An ES module whose import below awaits at its top level.
      writePackage(
        packages,
        { name: 'spout-test-awaits', version: '1.0.0', type: 'module', exports: './index.js' },
        {
          'index.js': 'export { ready } from "./inner.js";\n',
          'inner.js': 'export const ready = await Promise.resolve("ready");\n',
        },
      ),
      // An old package that asks Node which names are its built-in modules as it loads (precinct's way).
      writePackage(
        packages,
        { name: 'spout-test-core-names', version: '1.0.0', main: 'index.js' },
        {
          'index.js': 'var natives = process.binding("natives");\nmodule.exports = function packagesOf(names) { return names.filter(function (n) { return !natives[n]; }); };\n',
        },
      ),
      writePackage(
        packages,
        { name: 'spout-test-broken', version: '1.0.0', type: 'module', exports: './index.js' },
        {
          'index.js': 'import "./inner.js";\nexport const x = 1;\n',
          'inner.js': 'throw new Error("inner module failed");\n',
        },
      ),
    ]);
  });
  after(async () => {
    await registry.stop();
    fs.rmSync(packages, { recursive: true, force: true });
  });

  it('never fails the first npm import, and loads a package with top-level await below it', async () => {
    const dataDir = tempDir();
    fs.rmSync(dataDir, { recursive: true });
    const spout = await startSpout({ dataDir, args: ['--npm-registry', registry.url] });
    try {
      // Any first component starts the spare host, which the next one is described in.
      const first = await spout.api('POST', '/v1/components', { component_code: 'export default { name: "Plain", version: "0.0.1", type: "action", props: {}, async run() { return 1; } };' });
      assert.equal(first.status, 200, JSON.stringify(first.json));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const code = `
import shout from "spout-test-shout";
import { ready } from "spout-test-awaits";
export default { name: "Shout", version: "0.0.1", type: "action", props: {}, async run() { return shout(ready); } };`;
      const run = await spout.api('POST', '/v1/actions/run', { component_code: code });
      assert.equal(run.status, 200, JSON.stringify(run.json));
      assert.equal(run.json.error, null, JSON.stringify(run.json.error));
      assert.equal(run.json.ret, 'READY!');

      const broken = await spout.api('POST', '/v1/components', { component_code: 'import { x } from "spout-test-broken";\nexport default { name: "B", version: "0.0.1", type: "action", props: {}, async run() { return x; } };' });
      assert.equal(broken.status, 400, JSON.stringify(broken.json));
      assert.match(broken.json.detail, /package "spout-test-broken" could not be loaded: inner module failed/);
    } finally {
      await spout.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("loads an old package that asks process.binding('natives') for Node's module names, and refuses every other binding", async () => {
    const spout = await startSpout({ args: ['--npm-registry', registry.url] });
    try {
      const code = `
import packagesOf from "spout-test-core-names";
export default { name: "Core names", version: "0.0.1", type: "action", props: {}, async run() {
  let other;
  try { process.binding("fs"); other = "allowed"; } catch (err) { other = err.code; }
  return { packages: packagesOf(["fs", "node:path", "http", "left-pad"]), other };
} };`;
      const run = await spout.api('POST', '/v1/actions/run', { component_code: code });
      assert.equal(run.status, 200, JSON.stringify(run.json));
      assert.equal(run.json.error, null, JSON.stringify(run.json.error));
      assert.deepEqual(run.json.ret, { packages: ['node:path', 'left-pad'], other: 'ERR_ACCESS_DENIED' });
    } finally {
      await spout.stop();
    }
  });

  it('loads a registry key again after a failure, instead of answering 404 from memory', async () => {
    const tree = tempDir('spout-tree-');
    const dir = path.join(tree, 'later', 'actions', 'ping');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'ping.mjs'), 'import { answer } from "./answer.mjs";\nexport default { key: "later-ping", name: "Ping", version: "0.0.1", type: "action", props: {}, async run() { return answer; } };\n');
    const spout = await startSpout({ args: ['--registry', tree] });
    try {
      const missing = await spout.api('GET', '/v1/components/registry/later-ping');
      assert.equal(missing.status, 404);
      assert.match(missing.json.detail, /could not be loaded/);
      // The file it needed arrives; the entry file itself is unchanged.
      fs.writeFileSync(path.join(dir, 'answer.mjs'), 'export const answer = "pong";\n');
      const run = await spout.api('POST', '/v1/actions/run', { id: 'later-ping' });
      assert.equal(run.status, 200, JSON.stringify(run.json));
      assert.equal(run.json.ret, 'pong');
    } finally {
      await spout.stop();
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });
});
