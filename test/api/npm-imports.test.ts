// Components that import npm packages: installed once from the registry given with --npm-registry
// (a local fake one), bundled in, and available offline afterwards.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type FakeRegistry, startNpmRegistry, writePackage } from '../helpers/npm-registry';
import { type SpoutProcess, startSpout, tempDir } from '../helpers/service';

const FIXTURE = path.resolve('test', 'fixtures', 'components', 'npm', 'pinned-import.mjs');

describe('npm imports in components', () => {
  let registry: FakeRegistry;
  let spout: SpoutProcess;
  let dataDir: string;
  let sourceDir: string;
  /** The source deployed from the fixture. */
  let fixtureId: string;

  before(async () => {
    sourceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-registry-src-'));
    const dirs = ['1.0.0', '1.2.0', '1.3.1', '2.0.0'].map((v) =>
      writePackage(
        sourceDir,
        { name: 'spout-test-pad', version: v, main: 'index.js' },
        {
          'index.js': `module.exports = function pad(s, n) { return String(s).padStart(n, '*'); };\nmodule.exports.version = ${JSON.stringify(v)};\n`,
          'lib/version.js': `module.exports = ${JSON.stringify(v)};\n`,
        },
      ),
    );
    registry = await startNpmRegistry(dirs);
    dataDir = tempDir();
    spout = await startSpout({ dataDir, args: ['--npm-registry', registry.url] });
  });
  after(async () => {
    await spout.stop();
    await registry.stop();
    fs.rmSync(sourceDir, { recursive: true, force: true });
  });

  it('installs a pinned import on deploy and runs the source with it', async () => {
    const code = `import pad from "spout-test-pad@^1.2";
      export default { name: "Padded", version: "0.1.0", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } } },
        async run() { this.$emit({ padded: pad("42", 6), version: pad.version }); } };`;
    const res = await spout.api('POST', '/v1/sources', { component_code: code });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const run = await spout.api('POST', `/v1/sources/${res.json.data.id}/run`);
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.data.error, null, JSON.stringify(run.json));
    const events = await spout.api('GET', `/v1/sources/${res.json.data.id}/event_summaries?limit=1`);
    assert.deepEqual(events.json.data[0].event, { padded: '****42', version: '1.3.1' });
    assert.ok(fs.existsSync(path.join(dataDir, 'packages', 'spout-test-pad@1.3.1', 'node_modules', 'spout-test-pad', 'package.json')));
    assert.match(spout.output(), /packages: installing spout-test-pad@\^1\.2 …\n/);
    assert.match(spout.output(), /packages: installed spout-test-pad@1\.3\.1 in /);
  });

  it('deploys a registry-shaped source pinning ~1.2.0 next to it, and fires its endpoint', async () => {
    const res = await spout.api('POST', '/v1/sources', { component_code: fs.readFileSync(FIXTURE, 'utf8'), component_filename: 'pinned-import.mjs' });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    fixtureId = res.json.data.id;
    const endpoint = res.json.data.configured_props.http.endpoint_url as string;
    const fired = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: 42 }) });
    assert.equal(fired.status, 200);
    const events = await spout.api('GET', `/v1/sources/${res.json.data.id}/event_summaries?limit=1`);
    assert.deepEqual(events.json.data[0].event, { order: '******42', padVersion: '1.2.0' });
    const cached = fs.readdirSync(path.join(dataDir, 'packages')).filter((e) => !e.startsWith('.'));
    assert.deepEqual(cached.sort(), ['spout-test-pad@1.2.0', 'spout-test-pad@1.3.1']);
  });

  it('answers 400 naming a package that does not exist', async () => {
    const code = `import thing from "spout-test-missing@^1";
      export default { name: "Broken", version: "0.1.0", props: { http: "$.interface.http" }, async run() { thing(); } };`;
    const res = await spout.api('POST', '/v1/sources', { component_code: code });
    assert.equal(res.status, 400);
    assert.match(res.json.error, /package "spout-test-missing" \(import "spout-test-missing@\^1"\) does not exist in registry http:\/\/127\.0\.0\.1:\d+\//);
    assert.match(res.json.errors[0].path, /^component\.mjs:1:\d+$/);
    const versions = await spout.api('POST', '/v1/components', { component_code: code.replace('spout-test-missing@^1', 'spout-test-pad@^7') });
    assert.equal(versions.status, 400);
    assert.match(versions.json.error, /package "spout-test-pad" has no version matching "\^7"/);
  });

  it('keeps working with the registry gone: sources reload, cached pins deploy, others fail naming the package', async () => {
    await spout.stop();
    await registry.stop();
    spout = await startSpout({ dataDir, args: ['--npm-registry', registry.url] });
    // The source deployed before runs from its stored bundle: nothing to install.
    const reloaded = await spout.api('GET', `/v1/sources/${fixtureId}`);
    await fetch(reloaded.json.data.configured_props.http.endpoint_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: 5 }) });
    const again = await spout.api('GET', `/v1/sources/${fixtureId}/event_summaries?limit=1`);
    assert.deepEqual(again.json.data[0].event, { order: '*******5', padVersion: '1.2.0' });

    const res = await spout.api('POST', '/v1/sources', { component_code: fs.readFileSync(FIXTURE, 'utf8').replace('New Padded Order', 'Offline copy'), component_filename: 'pinned-import.mjs' });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const endpoint = res.json.data.configured_props.http.endpoint_url as string;
    await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: 7 }) });
    const events = await spout.api('GET', `/v1/sources/${res.json.data.id}/event_summaries?limit=1`);
    assert.deepEqual(events.json.data[0].event, { order: '*******7', padVersion: '1.2.0' });

    const uncached = await spout.api('POST', '/v1/sources', { component_code: `import pad from "spout-test-pad@2"; export default { name: "X", version: "1", props: { http: "$.interface.http" }, async run() { pad(); } };` });
    assert.equal(uncached.status, 400);
    assert.match(uncached.json.error, /package "spout-test-pad@2" is not in Spout's package cache and could not be installed \(registry http:\/\/127\.0\.0\.1:\d+\/ unreachable: ECONNREFUSED\)/);
  });

  it('takes the registry from --npm-registry, checked, and documents it in --help', () => {
    const bad = spawnSync(process.execPath, ['dist/cli.js', 'serve', '--npm-registry', 'ftp://example.test/'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--npm-registry: "ftp:\/\/example\.test\/" is not an http\(s\) URL/);
    const help = spawnSync(process.execPath, ['dist/cli.js', 'serve', '--help'], { encoding: 'utf8' });
    assert.match(help.stdout, /--npm-registry URL .*\n.*DATA_DIR\/packages \(env SPOUT_NPM_REGISTRY/);
  });
});
