// Issue 42, point 6: deleting, updating or deactivating a source whose run is busy (a loop that
// never ends) answers at once (an update and a deactivation after a 2 s grace for runs under way,
// docs/runtime.md) instead of after the run's timeout: the run is stopped, failing with a message
// saying why, and the hooks run in a fresh host.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** A source (written for this test) whose run spins when asked; its hooks count their runs in a data store. */
const SPINNER = `export default {
  name: "Spinner", version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true }, store: { type: "data_store" } },
  hooks: {
    async deploy() { await this.count("deploy"); },
    async activate() { await this.count("activate"); },
    async deactivate() { await this.count("deactivate"); },
  },
  methods: {
    async count(key) { await this.store.set(key, ((await this.store.get(key)) ?? 0) + 1); },
  },
  async run(event) {
    if (event.query.spin) { await this.store.set("spinning", event.query.spin); for (;;) {} }
    this.http.respond({ status: 200, body: "ran" });
  },
};`;

/** The runs' timeout: an hour, so nothing here can end by it. */
const TIMEOUT_SECONDS = 3600;
/** What a client of the issue waited before giving up on a delete. */
const CLIENT_TIMEOUT_MS = 30_000;

describe('changing a source whose run is busy', () => {
  let spout: SpoutProcess;
  let storeId: string;
  before(async () => {
    spout = await startSpout();
    storeId = (await spout.api('POST', '/v1/data_stores', { name: 'Hook counts' })).json.data.id;
  });
  after(async () => void (await spout.stop()));

  const count = async (key: string) => (await spout.api('GET', `/v1/data_stores/${storeId}/records/${key}`)).json.data?.value as unknown;

  /** Deploys a spinner and starts a run that spins; resolves with the source and the spinning run's answer to come. */
  async function spinning(tag: string) {
    const source = await deploySource(spout, SPINNER, { configured_props: { store: { dataStore: storeId } }, timeout_seconds: TIMEOUT_SECONDS });
    const answer = fetch(`${source.endpoint}?spin=${tag}`, { method: 'POST' }).then(async (res) => ({ status: res.status, body: await res.text() }));
    await waitFor(async () => (await count('spinning')) === tag, 15_000, 'the run to spin');
    return { source, answer };
  }

  /** Calls /v1 as a client that gives up after CLIENT_TIMEOUT_MS. */
  const call = (method: string, route: string, body?: unknown) =>
    fetch(spout.url + route, { method, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS), headers: { authorization: `Bearer ${spout.apiKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  it('a delete stops the run at once, then runs deactivate() in a fresh host', async () => {
    const { source, answer } = await spinning('delete');
    const before = Number((await count('deactivate')) ?? 0);
    const res = await call('DELETE', `/v1/sources/${source.id}`);
    assert.ok(res.ok, `DELETE answered ${res.status}`);
    const stopped = await answer;
    assert.equal(stopped.status, 502);
    assert.match(stopped.body, new RegExp(`its run failed: source ${source.id} was deleted while this run was under way or waiting, and the run was stopped`));
    assert.equal(await count('deactivate'), before + 1, 'deactivate() ran');
    assert.equal((await spout.api('GET', `/v1/sources/${source.id}`)).status, 404);
  });

  it('an update stops the run (after the grace, not its timeout), runs deactivate() and activate(), and the source runs again', async () => {
    const { source, answer } = await spinning('update');
    const before = { deactivate: Number((await count('deactivate')) ?? 0), activate: Number((await count('activate')) ?? 0) };
    const res = await call('PUT', `/v1/sources/${source.id}`, { name: 'Renamed spinner' });
    assert.equal(res.status, 200, await res.text());
    const stopped = await answer;
    assert.equal(stopped.status, 502);
    assert.match(stopped.body, new RegExp(`source ${source.id} was updated while this run was under way or waiting, and the run was stopped`));
    assert.deepEqual({ deactivate: await count('deactivate'), activate: await count('activate') }, { deactivate: before.deactivate + 1, activate: before.activate + 1 });
    const again = await fetch(source.endpoint, { method: 'POST' });
    assert.equal(await again.text(), 'ran');
  });

  it('deactivating stops the run (after the grace, not its timeout) and runs deactivate()', async () => {
    const { source, answer } = await spinning('deactivate');
    const before = Number((await count('deactivate')) ?? 0);
    const res = await call('PUT', `/v1/sources/${source.id}`, { active: false });
    assert.equal(res.status, 200, await res.text());
    assert.match((await answer).body, new RegExp(`source ${source.id} was deactivated while this run was under way or waiting, and the run was stopped`));
    assert.equal(await count('deactivate'), before + 1);
  });
});
