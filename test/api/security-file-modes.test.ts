// Issue 12: what the service writes into a data dir is its user's alone (files 0600, folders
// 0700), even in a data dir that already existed with 0755 and under the usual 022 umask.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startNpmRegistry, writePackage } from '../helpers/npm-registry';
import { startReceiver } from '../helpers/receiver';
import { startSpout, tempDir, waitFor } from '../helpers/service';
import { createWebhook, subscribe } from '../helpers/webhooks';

const EVERYTHING = `import pad from "spout-modes-pad@^1";
export default {
  name: "Writes everywhere", version: "0.1.0", dedupe: "unique",
  props: { http: "$.interface.http", db: "$.service.db", store: { type: "data_store" } },
  async run(event) {
    this.db.set("count", (this.db.get("count") ?? 0) + 1);
    await this.store.set("last", event.body);
    this.$emit({ padded: pad(String(event.body.n), 4) }, { id: event.body.n });
  },
};`;

const ACTION = `export default { key: "modes-noop", name: "No-op", version: "0.0.1", type: "action", props: {}, async run() { return 1; } };`;

/** Every path under `dir` (not `dir` itself) with its permission bits. */
function walk(dir: string): Array<{ file: string; mode: number; isDir: boolean }> {
  const out: Array<{ file: string; mode: number; isDir: boolean }> = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const stat = fs.lstatSync(file);
    if (stat.isSymbolicLink()) continue;
    out.push({ file, mode: stat.mode & 0o777, isDir: stat.isDirectory() });
    if (stat.isDirectory()) out.push(...walk(file));
  }
  return out;
}

describe('data dir modes', () => {
  it('writes files 0600 and folders 0700 into an existing 0755 data dir', async () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o755);
    // Left by an older version: a world-readable events folder and key.
    fs.mkdirSync(path.join(dataDir, 'events'), { mode: 0o755 });
    fs.chmodSync(path.join(dataDir, 'events'), 0o755);
    fs.writeFileSync(path.join(dataDir, 'api-key'), 'spk_modes_test_key_0001\n', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'api-key'), 0o644);

    const packages = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-modes-pkg-'));
    const registry = await startNpmRegistry([writePackage(packages, { name: 'spout-modes-pad', version: '1.0.0', main: 'index.js' }, { 'index.js': 'module.exports = (s, n) => s.padStart(n, "0");\n' })]);
    const receiver = await startReceiver();
    const spout = await startSpout({ dataDir, keyInDataDir: true, apiKey: 'spk_modes_test_key_0001', args: ['--npm-registry', registry.url] });
    try {
      const store = (await spout.api('POST', '/v1/data_stores', { name: 'Modes' })).json.data.id as string;
      assert.equal((await spout.api('PUT', `/v1/data_stores/${store}/records/from-api`, { value: 1 })).status, 200);
      const deployed = await spout.api('POST', '/v1/sources', { component_code: EVERYTHING, configured_props: { store: { dataStore: store } } });
      assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
      const hook = await createWebhook(spout, receiver.url);
      await subscribe(spout, deployed.json.data.id, hook.id);
      const res = await fetch(deployed.json.data.configured_props.http.endpoint_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: 7 }) });
      assert.equal(res.status, 200, await res.text());
      await waitFor(() => receiver.received.length === 1, 10_000, 'the delivery');
      const wf = await spout.api('POST', '/v1/workflows', { name: 'Modes', trigger: { type: 'manual' }, steps: [{ name: 'noop', component_code: ACTION }] });
      assert.equal(wf.status, 200, JSON.stringify(wf.json));
      assert.equal((await spout.api('POST', `/v1/workflows/${wf.json.data.id}/run`, {})).status, 200);
      assert.equal((await spout.api('GET', '/v1/components/registry?limit=1')).status, 200);
      assert.equal((await spout.api('POST', '/v1/settings/api-key/rotate')).status, 200);
    } finally {
      await spout.stop();
      await receiver.close();
      await registry.stop();
    }

    assert.equal(fs.statSync(dataDir).mode & 0o777, 0o755, "the user's own folder keeps its mode");
    const entries = walk(dataDir);
    const names = new Set(entries.map((e) => path.relative(dataDir, e.file).split(path.sep)[0]));
    for (const expected of ['api-key', 'secret.key', 'metadata.json', 'components', 'deliveries.jsonl', 'events', 'db', 'dedupe', 'data_stores', 'workflow-runs', 'packages']) {
      assert.ok(names.has(expected), `${expected} was written (the test covers it)`);
    }
    // npm writes the package cache with its own modes; the cache folder keeps all of it private.
    assert.equal(fs.statSync(path.join(dataDir, 'packages')).mode & 0o777, 0o700);
    const wrong = entries
      .filter((e) => !path.relative(dataDir, e.file).startsWith(`packages${path.sep}`))
      .filter((e) => e.mode !== (e.isDir ? 0o700 : 0o600))
      .map((e) => `${path.relative(dataDir, e.file)} ${e.mode.toString(8)}`);
    assert.deepEqual(wrong, [], 'every file 0600 and every folder 0700');
    fs.rmSync(packages, { recursive: true, force: true });
  });
});
