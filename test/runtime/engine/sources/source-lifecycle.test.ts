// Deploy, update and remove through the sources' rooms, with real stores and component hosts.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { SourceManager } from '../../../../runtime/engine/sources/source-manager';
import { HookError } from '../../../../runtime/lib/error-kinds';
import type { SourceRecord } from '../../../../runtime/store/metadata';
import { type EngineStores, filesUnder, openSources } from '../../../helpers/engine';

/** A source that notes each hook in its db, and emits its version and the notes when run (written for this test). */
const VERSIONED = (version: number, activate = '') => `
export default {
  name: "Versioned",
  version: "0.0.${version}",
  props: { db: "$.service.db", http: { type: "$.interface.http" }, label: { type: "string", optional: true } },
  methods: { note(what) { this.db.set("hooks", [...(this.db.get("hooks") ?? []), what + "@${version}"]); } },
  hooks: {
    async deploy() { this.note("deploy"); },
    async activate() { this.note("activate"); ${activate} },
    async deactivate() { this.note("deactivate"); },
  },
  async run() { this.$emit({ version: ${version}, label: this.label ?? null, hooks: this.db.get("hooks") }); },
};`;

/** Deploys, writing to every store a source has, then fails in activate() (written for this test). */
const FAILS_TO_ACTIVATE = `
export default {
  name: "Fails to activate",
  version: "0.0.1",
  dedupe: "unique",
  props: { db: "$.service.db", folder: { type: "dir" } },
  hooks: {
    async deploy() {
      this.db.set("written", true);
      console.log("deploying");
      this.$emit({ from: "deploy" }, { id: "once" });
    },
    async activate() { throw new Error("no credentials yet"); },
  },
  async run() {},
};`;

let sources: SourceManager;
let stores: EngineStores;
let stop: () => Promise<void>;

beforeEach(async () => ({ sources, stores, stop } = await openSources()));
afterEach(() => stop());

/** Runs the source by hand and answers what it emitted. */
async function runOnce(source: SourceRecord): Promise<{ version: number; label: string | null; hooks: string[] }> {
  const run = await sources.runNow(source);
  assert.equal(run.error, null);
  return JSON.parse(stores.events.find(source.id, run.record.emits[0]!.event_id!)!.json);
}

const hookRecords = (source: SourceRecord) =>
  stores.invocations
    .list(source.id)
    .filter((r) => r.trigger === 'hook')
    .reverse()
    .map((kept) => stores.invocations.read(kept))
    .map((r) => `${r.hook}:${r.status}`);

describe('SourceLifecycle', () => {
  it('deploys: runs deploy() then activate(), and keeps the source with its endpoint', async () => {
    const source = await sources.deploy({ code: VERSIONED(1) });
    assert.equal(sources.find(source.id), source);
    assert.equal(sources.byEndpoint(source.endpoints.http!)?.source, source);
    assert.deepEqual(hookRecords(source), ['deploy:ok', 'activate:ok']);
    assert.deepEqual((await runOnce(source)).hooks, ['deploy@1', 'activate@1']);
  });

  it('fails an update whose activate() throws, and puts the previous version back as it was', async () => {
    const source = await sources.deploy({ code: VERSIONED(1), configured_props: { label: 'first' } });
    const before = structuredClone(source);
    await assert.rejects(sources.update(source, { code: VERSIONED(2, 'throw new Error("v2 refuses");'), configured_props: { label: 'second' } }), (err: unknown) => err instanceof HookError && err.message === 'the activate() hook failed: v2 refuses');
    assert.deepEqual(source, before, 'the record is unchanged');
    const after = await runOnce(source);
    assert.equal(after.version, 1, 'the previous code still runs');
    assert.equal(after.label, 'first', 'with its previous values');
    // v1 deactivated, v2 failed to activate, v1 activated again.
    assert.deepEqual(after.hooks, ['deploy@1', 'activate@1', 'deactivate@1', 'activate@2', 'activate@1']);
    assert.deepEqual(hookRecords(source), ['deploy:ok', 'activate:ok', 'deactivate:ok', 'activate:error', 'activate:ok']);
  });

  it('updates in place: new code and values take over, the endpoint stays', async () => {
    const source = await sources.deploy({ code: VERSIONED(1) });
    const endpoint = source.endpoints.http;
    const updated = await sources.update(source, { code: VERSIONED(2), configured_props: { label: 'new' }, name: 'Renamed' });
    assert.equal(updated, source, 'the record is updated in place');
    assert.equal(source.endpoints.http, endpoint);
    assert.equal(source.name_slug, 'renamed');
    const event = await runOnce(source);
    assert.deepEqual([event.version, event.label], [2, 'new']);
    assert.deepEqual(event.hooks.slice(-2), ['deactivate@1', 'activate@2']);
  });

  it('leaves no data behind when a deploy fails in a hook', async () => {
    stores.metadata.data.auto_subscriptions.push({ id: 'auto_1', event_name: '$errors', listener_id: 'wh_1', created_at: 0 });
    const before = filesUnder(stores.dataDir);
    await assert.rejects(sources.deploy({ code: FAILS_TO_ACTIVATE, cassette: { version: 1, matching: { ignore_query: [], body: true, order: 'sequence' }, entries: [] } }), /the activate\(\) hook failed: no credentials yet/);
    // Writes still under way when the hook failed (the db, the run's record) must not bring anything back.
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(sources.list(), []);
    assert.deepEqual(stores.metadata.data.subscriptions, [], 'no auto-subscription for a source that was not deployed');
    assert.deepEqual(
      filesUnder(stores.dataDir).filter((f) => f.includes('dc_')),
      [],
      'nothing of the source is left in any store',
    );
    assert.deepEqual(
      filesUnder(stores.dataDir).filter((f) => !before.includes(f) && !f.startsWith('metadata')),
      [],
    );
  });

  it('removes a source: runs deactivate(), and deletes its data in every store', async () => {
    const source = await sources.deploy({ code: VERSIONED(1) });
    await runOnce(source);
    assert.ok(
      filesUnder(stores.dataDir).some((f) => f.includes(source.id)),
      'the source has data to remove',
    );
    await sources.remove(source);
    assert.equal(sources.find(source.id), undefined);
    assert.equal(sources.byEndpoint(source.endpoints.http!), undefined);
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(
      filesUnder(stores.dataDir).filter((f) => f.includes(source.id)),
      [],
    );
  });
});
