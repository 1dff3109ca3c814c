// The local registry: a folder laid out like Pipedream's components/ tree, given with
// `spout serve --registry`, is indexed by key beside the bundled components, and its keys deploy.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** Writes files under `root` (paths relative to it). */
function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

// Components written for this test, in the shapes of the public registry: an app file, a
// common/ base spread into a source, an action using the app's propDefinition.
const TREE = {
  'gizmo/gizmo.app.mjs': `export default {
  type: "app",
  app: "gizmo",
  propDefinitions: {
    color: {
      type: "string",
      label: "Color",
      async options() { return ["red", "green", "blue"].map((c) => ({ label: c.toUpperCase(), value: c })); },
    },
  },
  methods: {
    describeGizmo(color, path) { return color + " gizmo at " + path; },
  },
};
`,
  'gizmo/sources/common/base.mjs': `import gizmo from "../../gizmo.app.mjs";
export default {
  props: {
    gizmo,
    http: { type: "$.interface.http" },
  },
  methods: {
    summary(text) { return "[gizmo] " + text; },
  },
};
`,
  'gizmo/sources/new-gizmo/new-gizmo.mjs': `import base from "../common/base.mjs";
export default {
  ...base,
  key: "gizmo-new-gizmo",
  name: "New Gizmo",
  description: "Emit each gizmo posted to the endpoint.",
  version: "0.0.1",
  type: "source",
  props: {
    ...base.props,
    color: { propDefinition: [base.props.gizmo, "color"] },
  },
  async run(event) {
    const text = this.gizmo.describeGizmo(this.color, event.path);
    this.$emit({ text }, { summary: this.summary(text) });
  },
};
`,
  'gizmo/sources/new-gizmo/test-event.mjs': 'export default { text: "red gizmo at /" };\n',
  'gizmo/actions/paint-gizmo/paint-gizmo.mjs': `import gizmo from "../../gizmo.app.mjs";
export default {
  key: "gizmo-paint-gizmo",
  name: "Paint Gizmo",
  description: "Paint a gizmo.",
  version: "0.0.1",
  type: "action",
  props: { gizmo, color: { propDefinition: [gizmo, "color"] } },
  async run({ $ }) { $.export("$summary", "painted"); return this.color; },
};
`,
  'broken/sources/bad-syntax/bad-syntax.mjs': `export default {
  key: "broken-bad-syntax",
  name: "Bad",
  version: "0.0.1",
  async run() { return = 1; },
};
`,
};

describe('the local registry', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  const registry = tempDir('spout-registry-');

  before(async () => {
    write(registry, TREE);
    spout = await startSpout({ args: ['--registry', registry] });
    env = cliEnv(spout);
  });
  after(async () => void (await spout.stop()));

  it('indexes a folder laid out like the public registry, reporting files that fail', async () => {
    const list = await cli(['list', 'components', '--registry', '--json'], env);
    assert.equal(list.code, 0, list.stderr);
    const items = list.json<any[]>();
    const gizmo = items.filter((c) => c.app === 'gizmo');
    assert.deepEqual(
      gizmo.map((c) => [c.key, c.type, c.path]),
      [
        ['gizmo-new-gizmo', 'source', 'gizmo/sources/new-gizmo/new-gizmo.mjs'],
        ['gizmo-paint-gizmo', 'action', 'gizmo/actions/paint-gizmo/paint-gizmo.mjs'],
      ],
    );
    assert.ok(gizmo.every((c) => c.bundled === false && c.folder === registry));
    assert.ok(items.some((c) => c.key === 'http-new-requests' && c.bundled));
    assert.deepEqual(
      gizmo[0].configurable_props.map((p: any) => p.name),
      ['gizmo', 'http', 'color'],
    );
    // The broken file is reported (with file:line), not fatal.
    assert.match(list.stderr, /broken\/sources\/bad-syntax\/bad-syntax\.mjs is not indexed: bad-syntax\.mjs:5:\d+/);

    const api = await spout.api('GET', '/v1/components/registry?limit=2');
    assert.equal(api.status, 200);
    assert.equal(api.json.data.length, 2);
    assert.ok(api.json.page_info.total_count >= 12);
    assert.deepEqual(
      api.json.errors.map((e: any) => [e.path, e.key]),
      [['broken/sources/bad-syntax/bad-syntax.mjs', 'broken-bad-syntax']],
    );
    const one = await spout.api('GET', '/v1/components/registry/gizmo-new-gizmo');
    assert.equal(one.json.data.name, 'New Gizmo');
    assert.match(one.json.data.code, /describeGizmo/);
    const broken = await spout.api('GET', '/v1/components/registry/broken-bad-syntax');
    assert.equal(broken.status, 404);
    assert.match(broken.json.detail, /could not be loaded from .*bad-syntax\.mjs/);

    const search = await spout.api('GET', '/v1/components/search?q=gizmo');
    assert.deepEqual([search.json.sources, search.json.actions], [['gizmo-new-gizmo'], ['gizmo-paint-gizmo']]);
    assert.deepEqual((await spout.api('GET', '/v1/components/search?query=parse%20json')).json.actions, ['formatting-parse-json']);
  });

  it('deploys its keys, and a changed file is deployed as changed', async () => {
    const missing = await cli(['deploy', 'gizmo-new-gizmo'], env);
    assert.equal(missing.code, 2);
    // App props are not asked for: offline a source deploys without an account.
    assert.match(missing.stderr, /missing required props: color \(string, "Color"\)/);
    const account = await spout.api('POST', '/v1/accounts', { app: 'gizmo', name: 'test gizmo', credentials: { api_key: 'k' } });
    assert.equal(account.status, 200, JSON.stringify(account.json));
    const gizmo = { authProvisionId: account.json.data.id };
    const source = await cliJson(['deploy', 'gizmo-new-gizmo', '--props', JSON.stringify({ gizmo, color: 'red' })], env);
    assert.equal(source.component_key, 'gizmo-new-gizmo');
    await fetch(`${source.configured_props.http.endpoint_url}/shelf`, { method: 'POST' });
    await waitFor(async () => (await spout.api('GET', `/v1/sources/${source.id}/event_summaries`)).json.data.length === 1, 5000, 'the event');
    const [event] = await cliJson<any[]>(['events', source.id], env);
    assert.equal(event.event.text, 'red gizmo at /shelf');
    assert.equal(event.metadata.summary, '[gizmo] red gizmo at /shelf');

    // Async/static options of the registry key are served for its configuration form.
    const options = await spout.api('POST', '/v1/components/configure', { id: 'gizmo-new-gizmo', prop_name: 'color' });
    assert.deepEqual(
      options.json.options.map((o: any) => o.value),
      ['red', 'green', 'blue'],
    );

    // Edit the common file the source spreads: the next deploy by key runs the new code.
    const base = path.join(registry, 'gizmo/sources/common/base.mjs');
    fs.writeFileSync(base, fs.readFileSync(base, 'utf8').replace('"[gizmo] "', '"[gizmo v2] "'));
    const second = await cliJson(['deploy', 'gizmo-new-gizmo', '--props', JSON.stringify({ gizmo, color: 'blue' }), '--name', 'second'], env);
    assert.notEqual(second.component_id, source.component_id);
    await fetch(`${second.configured_props.http.endpoint_url}/box`, { method: 'POST' });
    await waitFor(async () => (await spout.api('GET', `/v1/sources/${second.id}/event_summaries`)).json.data.length === 1, 5000, 'the event');
    assert.equal((await cliJson<any[]>(['events', 'second'], env))[0].metadata.summary, '[gizmo v2] blue gizmo at /box');

    // By the API too: component_key finds registry keys.
    const byApi = await spout.api('POST', '/v1/sources', { component_key: 'schedule-interval', configured_props: { timer: { intervalSeconds: 3600 } } });
    assert.equal(byApi.status, 200, JSON.stringify(byApi.json));
    assert.equal(byApi.json.data.component_key, 'schedule-interval');
  });

  it('refuses a --registry that is not a folder', async () => {
    const bad = await cli(['serve', '--port', '0', '--data-dir', tempDir(), '--registry', path.join(registry, 'nope')], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--registry: ".*nope" is not a folder/);
  });
});
