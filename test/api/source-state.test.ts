// `$.service.db` and hook order, through real deploys, updates, deletes and a restart.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver } from '../helpers/receiver';
import { type SpoutProcess, startSpout } from '../helpers/service';

/** A source that records each hook in its db and reports the db in every run (written for this test). */
const RECORDER = (version: string) => `
export default {
  name: "Hook recorder",
  version: "${version}",
  props: { db: "$.service.db", label: { type: "string", optional: true } },
  methods: {
    note(what) { this.db.set("hooks", [...(this.db.get("hooks") ?? []), what + "@${version}"]); },
  },
  hooks: {
    async deploy() { this.note("deploy"); this.db.set("deployedAt", 123); },
    async activate() { this.note("activate"); },
    async deactivate() { this.note("deactivate"); },
  },
  async run() {
    const runs = (this.db.get("runs") ?? 0) + 1;
    this.db.set("runs", runs);
    const copy = this.db.get("hooks");
    copy.push("mutated");
    this.$emit({ runs, hooks: this.db.get("hooks"), deployedAt: this.db.get("deployedAt"), label: this.label ?? null });
  },
};`;

describe('source state: db and hooks', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  const run = async (id: string) => {
    const res = await spout.api('POST', `/v1/sources/${id}/run`);
    assert.equal(res.json.data.error, null, JSON.stringify(res.json));
    return (await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=1`)).json.data[0].event;
  };

  it('keeps db values written in hooks and runs, per source, across updates and a restart', async () => {
    const a = (await spout.api('POST', '/v1/sources', { component_code: RECORDER('1.0.0') })).json.data.id as string;
    const b = (await spout.api('POST', '/v1/sources', { component_code: RECORDER('1.0.0') })).json.data.id as string;
    assert.deepEqual(await run(a), { runs: 1, hooks: ['deploy@1.0.0', 'activate@1.0.0'], deployedAt: 123, label: null });
    assert.equal((await run(a)).runs, 2);
    assert.equal((await run(b)).runs, 1, 'each source has its own db');

    // Update with new code: the old version deactivates, the new one activates, same db.
    const updated = await spout.api('PUT', `/v1/sources/${a}`, { component_code: RECORDER('2.0.0') });
    assert.equal(updated.status, 200, JSON.stringify(updated.json));
    assert.deepEqual((await run(a)).hooks, ['deploy@1.0.0', 'activate@1.0.0', 'deactivate@1.0.0', 'activate@2.0.0']);
    // Props only: deactivate then activate on the same code.
    await spout.api('PUT', `/v1/sources/${a}`, { configured_props: { label: 'x' } });
    const event = await run(a);
    assert.deepEqual(event.hooks.slice(-2), ['deactivate@2.0.0', 'activate@2.0.0']);
    assert.equal(event.label, 'x');
    assert.equal(event.runs, 4);

    await spout.stop();
    spout = await startSpout({ dataDir: spout.dataDir, apiKey: spout.apiKey });
    const afterRestart = await run(a);
    assert.equal(afterRestart.runs, 5, 'the db survives a restart');
    assert.equal(afterRestart.hooks.length, 6, 'a restart runs no hooks');

    // Delete: deactivate runs (it writes to the db one last time), then the db is gone.
    const dbFile = path.join(spout.dataDir, 'db', `${a}.json`);
    assert.ok(fs.existsSync(dbFile));
    assert.equal((await spout.api('DELETE', `/v1/sources/${a}`)).status, 204);
    assert.equal(fs.existsSync(dbFile), false);
  });

  it('runs deactivate on delete, with the db as the hooks before it left it', async () => {
    const receiver = await startReceiver();
    try {
      const code = `export default { name: "Delete hooks", version: "0.0.1", props: { db: "$.service.db" },
        hooks: {
          async deploy() { this.db.set("hooks", ["deploy"]); },
          async activate() { this.db.set("hooks", [...this.db.get("hooks"), "activate"]); },
          async deactivate() {
            await fetch(${JSON.stringify(receiver.url)}, { method: "POST", body: JSON.stringify([...this.db.get("hooks"), "deactivate"]) });
          },
        },
        async run() {} };`;
      const id = (await spout.api('POST', '/v1/sources', { component_code: code })).json.data.id as string;
      assert.equal(receiver.received.length, 0);
      assert.equal((await spout.api('DELETE', `/v1/sources/${id}`)).status, 204);
      assert.deepEqual(
        receiver.received.map((r) => JSON.parse(r.body)),
        [['deploy', 'activate', 'deactivate']],
      );
      assert.equal((await spout.api('GET', `/v1/sources/${id}`)).status, 404);
    } finally {
      await receiver.close();
    }
  });

  it('fails an update whose activate() throws with its message, and keeps the previous version running', async () => {
    const id = (await spout.api('POST', '/v1/sources', { component_code: RECORDER('1.0.0') })).json.data.id as string;
    const broken = RECORDER('3.0.0').replace('async activate() { this.note("activate"); }', 'async activate() { throw new Error("cannot reach the API"); }');
    const res = await spout.api('PUT', `/v1/sources/${id}`, { component_code: broken, configured_props: { label: 'new' } });
    assert.equal(res.status, 400);
    assert.match(res.json.error, /the activate\(\) hook failed: cannot reach the API/);
    const source = (await spout.api('GET', `/v1/sources/${id}`)).json.data;
    assert.equal(source.configured_props.label, undefined, 'the props are as before');
    const event = await run(id);
    assert.equal(event.label, null);
    // The old version was deactivated for the attempt and is active again; the new one never ran.
    assert.deepEqual(event.hooks, ['deploy@1.0.0', 'activate@1.0.0', 'deactivate@1.0.0', 'activate@1.0.0']);
  });

  it('refuses values that are not JSON, naming the key', async () => {
    const code = `export default { name: "Bad db", version: "0.0.1", props: { db: "$.service.db" },
      async run() { this.db.set("ok", { n: 1 }); this.db.set("when", () => 1); } };`;
    const id = (await spout.api('POST', '/v1/sources', { component_code: code })).json.data.id as string;
    const res = await spout.api('POST', `/v1/sources/${id}/run`);
    assert.match(res.json.data.error.message, /db\.set\("when"\): a function cannot be stored/);
    const cyclic = `export default { name: "Cyclic db", version: "0.0.1", props: { db: "$.service.db" },
      async run() { const a = {}; a.self = a; this.db.set("loop", a); } };`;
    const second = (await spout.api('POST', '/v1/sources', { component_code: cyclic })).json.data.id as string;
    assert.match((await spout.api('POST', `/v1/sources/${second}/run`)).json.data.error.message, /db\.set\("loop"\): the value is not JSON-serialisable/);
  });
});
