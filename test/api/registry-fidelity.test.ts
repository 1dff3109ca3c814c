// Registry fidelity (issue 13): components in the shapes of Pipedream's registry load, deploy and
// run as they do there. Each class of failure the registry showed has a fixture of our own under
// test/fixtures/components/fidelity/, laid out like the registry's `components/` tree.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundleFile } from '../../runtime/components/bundle-file';
import type { ConfigurableProp } from '../../runtime/contract/component-shape';
import { dirFolders, dirGrants } from '../../runtime/props/dir/dir-folders';
import { type FakeRegistry, startNpmRegistry, writePackage } from '../helpers/npm-registry';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const APP = path.resolve('test', 'fixtures', 'components', 'fidelity', 'acme');
const fixture = (rel: string) => path.join(APP, rel);

describe('registry fidelity', () => {
  let registry: FakeRegistry;
  let spout: SpoutProcess;
  let receiver: Receiver;
  let packagesSrc: string;

  /** Saves a fixture as `spout publish` does (relative imports bundled by the CLI's bundler). */
  const publish = async (rel: string) => {
    const bundled = await bundleFile(fixture(rel));
    return spout.api('POST', '/v1/components', { component_code: bundled.code, component_filename: bundled.filename });
  };
  const paths = (list: Array<{ path: string }>) => list.map((w) => w.path);

  before(async () => {
    packagesSrc = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-fidelity-packages-'));
    const dirs = ['1.0.0', '1.2.0', '1.3.1', '2.0.0'].map((v) =>
      writePackage(
        packagesSrc,
        { name: 'spout-test-pad', version: v, main: 'index.js' },
        {
          'index.js': `module.exports = function pad(s, n) { return String(s).padStart(n, '*'); };\nmodule.exports.version = ${JSON.stringify(v)};\n`,
        },
      ),
    );
    dirs.push(
      writePackage(
        packagesSrc,
        { name: '@spout-test/app', version: '1.0.0', type: 'module', main: 'app.mjs' },
        {
          'app.mjs': `export default { type: 'app', app: 'spout_test', propDefinitions: { folder: { type: 'string', label: 'Folder' } } };\n`,
        },
      ),
    );
    // Its newest 1.x versions need dependencies that were never published (issue 45).
    for (const [v, dependencies] of [
      ['1.0.0', {}],
      ['1.1.0', {}],
      ['1.2.0', { 'spout-test-unpublished': '^1.0.0' }],
    ] as const) {
      dirs.push(writePackage(packagesSrc, { name: 'spout-test-broken', version: v, main: 'index.js', dependencies }, { 'index.js': `module.exports = ${JSON.stringify(v)};\n` }));
    }
    registry = await startNpmRegistry(dirs);
    spout = await startSpout({ args: ['--npm-registry', registry.url] });
    receiver = await startReceiver();
    receiver.respond = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"page":"fetched"}' });
  });
  after(async () => {
    await spout.stop();
    await registry.stop();
    await receiver.close();
    fs.rmSync(packagesSrc, { recursive: true, force: true });
  });

  it('accepts a default on a required prop with a warning, and uses it as the value', async () => {
    const saved = await publish('actions/greet/greet.mjs');
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    assert.deepEqual(paths(saved.json.data.warnings), ['props.greeting.default']);
    assert.match(saved.json.data.warnings[0].message, /default is allowed only on optional props; it is used as the prefilled value/);
    const run = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { folder: 'ab' } });
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    assert.equal(run.json.ret.text, 'hello **ab');
    assert.ok(paths(run.json.warnings).includes('props.greeting.default'), 'the run answer carries the warnings too');
  });

  it('deploys a source without run(), which emits the event that triggered it', async () => {
    const saved = await publish('sources/tick/tick.mjs');
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    assert.deepEqual(saved.json.data.warnings, []);
    const source = await spout.api('POST', '/v1/sources', { component_id: saved.json.data.id });
    assert.equal(source.status, 200, JSON.stringify(source.json));
    assert.deepEqual(source.json.warnings, []);
    // Its own timer (every 2 s) emits without any call.
    const events = await waitFor(
      async () => {
        const list = (await spout.api('GET', `/v1/sources/${source.json.data.id}/event_summaries`)).json.data;
        return list.length > 0 ? list : null;
      },
      10_000,
      'the timer event',
    );
    assert.equal(events[0].event.interval_seconds, 2);
    assert.equal(typeof events[0].event.timestamp, 'number');
    const http = await spout.api('POST', '/v1/sources', {
      component_code: 'export default { name: "Echo", version: "0.0.1", props: { http: "$.interface.http" } };',
    });
    assert.equal(http.status, 200, JSON.stringify(http.json));
    await fetch(`${http.json.data.configured_props.http.endpoint_url}/in?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    const emitted = await waitFor(async () => (await spout.api('GET', `/v1/sources/${http.json.data.id}/event_summaries`)).json.data[0], 5000, 'the HTTP event');
    assert.deepEqual([emitted.event.method, emitted.event.path, emitted.event.query, emitted.event.body], ['POST', '/in', { x: '1' }, { a: 1 }]);
    await spout.api('DELETE', `/v1/sources/${source.json.data.id}`);
  });

  it('runs an http_request action whose default has no url, with the url configured', async () => {
    const saved = await publish('actions/fetch-page/fetch-page.mjs');
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    const run = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { request: { method: 'GET', url: `${receiver.url}/page` } } });
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    assert.deepEqual(run.json.ret, { page: 'fetched' });
    const unconfigured = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id });
    assert.match(unconfigured.json.error.message, /no url is configured/);
  });

  it('runs app props without a connected account: $auth is empty, and the answer warns', async () => {
    const saved = await publish('actions/greet/greet.mjs');
    const run = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { folder: 'a' } });
    assert.deepEqual(run.json.ret.auth, {});
    const warning = run.json.warnings.find((w: { path: string }) => w.path === 'configured_props.acme');
    assert.match(warning.message, /prop `acme` has no connected account, so this\.acme\.\$auth is empty.*POST \/v1\/accounts/);
    // Apps without credentials (http, helper_functions…) get no such warning.
    const keyless = await spout.api('POST', '/v1/actions/run', {
      component_code: 'export default { name: "Keyless", version: "0.0.1", type: "action", props: { http: { type: "app", app: "http" } }, async run() { return this.http.$auth; } };',
    });
    assert.deepEqual([keyless.json.ret, keyless.json.warnings], [{}, []]);
  });

  it("gives dir props a folder of the source's own, and passes app-specific types' values as given", async () => {
    const stash = await publish('actions/stash-note/stash-note.mjs');
    assert.equal(stash.status, 200, JSON.stringify(stash.json));
    assert.deepEqual(stash.json.data.warnings, []);
    const run = await spout.api('POST', '/v1/actions/run', { id: stash.json.data.id, configured_props: { note: 'remember' } });
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    const folder = path.join(spout.dataDir, 'dirs', stash.json.data.id, 'dir');
    assert.equal(run.json.ret.folder, folder);
    assert.deepEqual([run.json.ret.back, run.json.ret.file.type, run.json.ret.file.size], ['remember', 'text/plain', 8]);
    assert.equal(fs.readFileSync(path.join(folder, 'notes', 'today.txt'), 'utf8'), 'remember');

    const typed = await publish('actions/typed-pick/typed-pick.mjs');
    assert.equal(typed.status, 200, JSON.stringify(typed.json));
    assert.deepEqual(paths(typed.json.data.warnings), ['props.channel.type', 'props.channels.type']);
    const picked = await spout.api('POST', '/v1/actions/run', { id: typed.json.data.id, configured_props: { channel: 'C123', channels: ['C1', 'C2'] } });
    assert.deepEqual(picked.json.ret, { channel: 'C123', channels: ['C1', 'C2'] });
    const missing = await spout.api('POST', '/v1/actions/run', { id: typed.json.data.id });
    assert.equal(missing.status, 400);
    assert.match(missing.json.detail, /prop `channel` is required/);
  });

  it("grants a host its own dir-props folder, created beforehand, beside the user's grants", () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-dirs-'));
    const root = path.join(data, 'dirs', 'dc_1');
    assert.deepEqual(dirGrants({ read: ['/home/me/photos'], write: [] }, data, 'dc_1'), { read: ['/home/me/photos', root], write: [root] });
    assert.ok(fs.statSync(root).isDirectory(), "Node's permission model covers a folder's contents only when it exists");
    const props = [
      { name: 'out', type: 'dir', accessMode: 'write' },
      { name: 'in', type: 'dir', accessMode: 'read' },
      { name: 'label', type: 'string' },
    ] as ConfigurableProp[];
    assert.deepEqual(dirFolders(props, { in: '/home/me/photos' }, 'dc_1', data), { out: { path: path.join(root, 'out'), write: true }, in: { path: '/home/me/photos', write: false } });
    fs.rmSync(data, { recursive: true, force: true });
  });

  it("uses an ES module app package's default export (its propDefinitions spread) and the app's package.json ranges", async () => {
    const saved = await publish('actions/greet/greet.mjs');
    const folder = saved.json.data.configurable_props.find((p: { name: string }) => p.name === 'folder');
    assert.equal(folder.label, 'Folder', "the package's propDefinitions were spread into props");
    const run = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { folder: 'x' } });
    assert.equal(run.json.ret.remoteApp, 'spout_test');
    // package.json asks ^1.2.0: the newest 1.x, not the registry's latest (2.0.0).
    assert.equal(run.json.ret.padVersion, '1.3.1');
    assert.ok(fs.existsSync(path.join(spout.dataDir, 'packages', 'spout-test-pad@1.3.1')));
    assert.ok(!fs.existsSync(path.join(spout.dataDir, 'packages', 'spout-test-pad@2.0.0')));
  });

  it("gives components the real @pipedream/platform's exports, offline and whatever version package.json asks", async () => {
    const saved = await publish('actions/greet/greet.mjs');
    const run = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { folder: 'x' } });
    assert.deepEqual(run.json.ret.platform, ['function', 'function', 'object', 900]);
    assert.ok(!fs.readdirSync(path.join(spout.dataDir, 'packages')).some((e) => e.startsWith('@pipedream')), 'the platform is not installed from npm');
    const failed = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { folder: 'x', greeting: 'fail' } });
    assert.deepEqual([failed.json.error.name, failed.json.error.message], ['ConfigurationError', 'greeting must not be fail']);
    // The platform's axios, against a local server.
    const axios = await spout.api('POST', '/v1/actions/run', {
      component_code: `import { axios } from "@pipedream/platform";
        export default { name: "Get", version: "0.0.1", type: "action", async run({ $ }) { return axios($, { url: ${JSON.stringify(`${receiver.url}/json`)}, params: { q: "1" } }); } };`,
    });
    assert.equal(axios.json.error, null, JSON.stringify(axios.json.error));
    assert.deepEqual(axios.json.ret, { page: 'fetched' });
  });

  it("loads an action spreading a source's common module, with warnings for what actions ignore", async () => {
    const saved = await publish('actions/tidy-up/tidy-up.mjs');
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    assert.deepEqual(paths(saved.json.data.warnings), ['hooks', 'dedupe', 'props.db.type']);
    const run = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id });
    assert.equal(run.json.error, null, JSON.stringify(run.json.error));
    assert.deepEqual(run.json.ret, { stored: 1 });
  });

  it('gives a withLabel prop {label, value}, in every form a client sends, to run, options and a deployed source (issue 45)', async () => {
    const saved = await publish('actions/get-row/get-row.mjs');
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    const table = saved.json.data.configurable_props.find((p: { name: string }) => p.name === 'tableId');
    assert.equal(table.withLabel, true);
    const projects = { label: 'Projects', value: 'tb_1' };
    for (const given of [projects, { __lv: projects }]) {
      const run = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { tableId: given, rowId: 'tb_1-row-2' } });
      assert.equal(run.status, 200, JSON.stringify(run.json));
      assert.deepEqual(run.json.ret, { tableId: 'tb_1', table: 'Projects', rowId: 'tb_1-row-2' }, JSON.stringify(given));
    }
    // A plain value is labelled with its own text: `.value` still works.
    const bare = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { tableId: 'tb_2', rowId: 'r' } });
    assert.deepEqual(bare.json.ret, { tableId: 'tb_2', table: 'tb_2', rowId: 'r' });
    // The next prop's options see `c.tableId.value`, whichever form the form holds.
    for (const given of ['tb_2', { label: 'People', value: 'tb_2' }, { __lv: { label: 'People', value: 'tb_2' } }]) {
      const rows = await spout.api('POST', '/v1/components/configure', { id: saved.json.data.id, prop_name: 'rowId', configured_props: { tableId: given } });
      assert.equal(rows.status, 200, JSON.stringify(rows.json));
      assert.deepEqual(
        rows.json.options.map((o: { value: string }) => o.value),
        ['tb_2-row-1', 'tb_2-row-2'],
        JSON.stringify(rows.json),
      );
    }
    const wrong = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { tableId: { label: 'Three', value: 3 }, rowId: 'r' } });
    assert.equal(wrong.status, 400);
    assert.match(wrong.json.detail, /prop `tableId` must be a string, not 3/);

    const source = await publish('sources/updated-row/updated-row.mjs');
    assert.equal(source.status, 200, JSON.stringify(source.json));
    const deployed = await spout.api('POST', '/v1/sources', { component_id: source.json.data.id, configured_props: { baseUrl: receiver.url, tableId: 'tb_1' } });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
    assert.deepEqual(deployed.json.data.configured_props.tableId, { label: 'tb_1', value: 'tb_1' });
    await spout.api('POST', `/v1/sources/${deployed.json.data.id}/run`);
    const emitted = await waitFor(async () => (await spout.api('GET', `/v1/sources/${deployed.json.data.id}/event_summaries`)).json.data[0], 10_000, 'the source to emit');
    assert.deepEqual(emitted.event, { url: `${receiver.url}/tables/tb_1/records`, table: 'tb_1', page: { page: 'fetched' } });
    await spout.api('DELETE', `/v1/sources/${deployed.json.data.id}`);
  });

  it('leaves hidden props out of what is required: hidden as written, or by additionalProps for the values given (issue 45)', async () => {
    const saved = await publish('actions/place-call/place-call.mjs');
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    const text = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { callType: 'text', text: 'hi' } });
    assert.equal(text.status, 200, JSON.stringify(text.json));
    assert.equal(text.json.error, null, JSON.stringify(text.json.error));
    assert.deepEqual(text.json.ret, { callType: 'text', url: null, applicationSid: null, region: null });
    // The props the call type needs are still required; the others stay hidden.
    const url = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { callType: 'url' } });
    assert.equal(url.status, 400);
    assert.deepEqual(
      url.json.errors.map((e: { path: string }) => e.path),
      ['configured_props.url', 'configured_props.region'],
    );
    assert.match(url.json.errors[0].message, /prop `url` is required/);
    const given = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id, configured_props: { callType: 'url', url: 'https://example.com/twiml', region: 'eu' } });
    assert.deepEqual(given.json.ret, { callType: 'url', url: 'https://example.com/twiml', applicationSid: null, region: 'eu' });
    // The form's prop set says which are hidden.
    const form = await spout.api('POST', '/v1/components/props', { id: saved.json.data.id, configured_props: { callType: 'text' } });
    assert.equal(form.status, 200, JSON.stringify(form.json));
    const hidden = (form.json.configurable_props ?? form.json.data.configurable_props).filter((p: { hidden?: boolean }) => p.hidden).map((p: { name: string }) => p.name);
    assert.deepEqual(hidden.sort(), ['applicationSid', 'legacyRoute', 'region', 'url']);
  });

  it('installs the newest version in the package.json range whose dependencies resolve, and says which (issue 45)', async () => {
    const saved = await publish('actions/broken-dependency/broken-dependency.mjs');
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    const run = await spout.api('POST', '/v1/actions/run', { id: saved.json.data.id });
    assert.deepEqual(run.json.ret, { version: '1.1.0' });
    assert.match(spout.output(), /packages: chose spout-test-broken@1\.1\.0 for "spout-test-broken@\^1\.0\.0": the newest version in "\^1\.0\.0" whose dependencies resolve \(1\.2\.0 cannot be installed\)/);
  });

  it('still rejects what cannot run, with the warnings beside the errors', async () => {
    const res = await spout.api('POST', '/v1/components', {
      component_code: 'export default { name: "Bad", version: "0.0.1", type: "action", props: { n: { type: "number", default: 1 } } };',
    });
    assert.equal(res.status, 400);
    assert.deepEqual(paths(res.json.errors), ['run', 'props.n.type']);
    assert.deepEqual(paths(res.json.warnings), ['props.n.default']);
  });
});
