// Issue 45 (4-7): a polling source's cassette written by hand with the real key matches and is kept
// masked; a miss an SDK swallows is named in the run's logs with the closest entry; a failed
// deploy answers with its hook run and points at the deploy's own cassette; discovery mode
// answers what the cassette lacks with an empty success and lists it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout } from '../helpers/service';

const KEY = 'key_CLEAR_5a4b3c2d';
const API = 'https://api.acme-shop.test';

/** A polling source in the registry's shape, written for this test: it lists orders with an API key in the query. */
const POLLER = `
export default {
  key: "acme-new-orders",
  name: "New orders",
  version: "0.0.1",
  type: "source",
  dedupe: "unique",
  props: {
    db: "$.service.db",
    timer: { type: "$.interface.timer", default: { intervalSeconds: 900 } },
    apiKey: { type: "string", secret: true },
  },
  methods: {
    async orders() {
      // Like an SDK that hides the cause: the error it throws says nothing of the call.
      try {
        const res = await fetch("${API}/v1/orders.json?status=any&apiKey=" + this.apiKey);
        return (await res.json()).orders;
      } catch (err) {
        throw new Error("Unexpected error (error code: undefined): {}");
      }
    },
  },
  hooks: {
    async deploy() {
      const shop = await fetch("${API}/v1/shop.json?apiKey=" + this.apiKey).then((r) => r.json());
      this.db.set("shop", shop.name ?? null);
    },
  },
  async run() {
    // As @pipedream/platform's axios with debug: true does: the request's config, key and all.
    console.log("export: debug_config - " + JSON.stringify({ params: { apiKey: this.apiKey } }));
    for (const o of await this.orders()) this.$emit(o, { id: o.id, summary: "order " + o.id });
  },
};
`;

/** The cassette files on disk (each cassette, its copy and its previous version) that hold `text`. */
const cassetteFilesHolding = (dataDir: string, text: string) => {
  const dir = path.join(dataDir, 'cassettes');
  return fs.readdirSync(dir).filter((name) => fs.readFileSync(path.join(dir, name), 'utf8').includes(text));
};

const entry = (url: string, body: unknown) => ({ request: { method: 'GET', url }, response: { status: 200, body } });

interface Run {
  status: string;
  logs: Array<{ message: string }>;
  calls: Array<{ request: { method: string; url: string }; served_by: string; response: { status: number } | null }>;
}

describe('cassettes without guesswork', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout();
  });
  after(async () => {
    await spout.stop();
  });
  const lastRun = async (id: string) => ((await spout.api('GET', `/v1/sources/${id}/invocations?trigger=run_now`)).json.data as Run[])[0]!;

  it('matches a hand-written entry holding the key in clear, and keeps it masked', async () => {
    const cassette = { entries: [entry(`${API}/v1/shop.json?apiKey=${KEY}`, { name: 'Acme' }), entry(`${API}/v1/orders.json?status=any&apiKey=${KEY}`, { orders: [{ id: 1 }, { id: 2 }] })] };
    const source = await deploySource(spout, POLLER, { network_mode: 'replay', configured_props: { apiKey: KEY }, cassette });
    assert.equal((await spout.api('POST', `/v1/sources/${source.id}/run`)).status, 200);
    assert.equal((await lastRun(source.id)).status, 'ok');
    const saved = (await spout.api('GET', `/v1/sources/${source.id}/cassette`)).json.data as { entries: Array<{ request: { url: string } }> };
    assert.deepEqual(
      saved.entries.map((e) => e.request.url),
      [`${API}/v1/shop.json?apiKey=********`, `${API}/v1/orders.json?status=any&apiKey=********`],
    );
    // Not even the version a masked write replaced (`.prev`) keeps the key in clear on disk.
    assert.deepEqual(cassetteFilesHolding(spout.dataDir, KEY), []);
    // A PUT of an entry in clear is masked too, and still matches.
    const put = await spout.api('PUT', `/v1/sources/${source.id}/cassette`, { entries: [entry(`${API}/v1/orders.json?status=any&apiKey=${KEY}`, { orders: [{ id: 3 }] })] });
    assert.equal((put.json.data as { entries: Array<{ request: { url: string } }> }).entries[0]!.request.url, `${API}/v1/orders.json?status=any&apiKey=********`);
    assert.deepEqual(cassetteFilesHolding(spout.dataDir, KEY), []);
    assert.equal((await spout.api('POST', `/v1/sources/${source.id}/run`)).status, 200);
    assert.equal((await lastRun(source.id)).status, 'ok');
  });

  it('names a miss the component swallowed in the run’s logs, with the closest entry', async () => {
    const cassette = { entries: [entry(`${API}/v1/shop.json?apiKey=********`, { name: 'Acme' }), entry(`${API}/v1/orders.json?status=open&apiKey=********`, { orders: [] })] };
    const source = await deploySource(spout, POLLER, { network_mode: 'replay', configured_props: { apiKey: KEY }, cassette });
    await spout.api('POST', `/v1/sources/${source.id}/run`);
    const run = await lastRun(source.id);
    assert.equal(run.status, 'error');
    const line = run.logs.map((l) => l.message).find((m) => m.startsWith('no recording of GET'));
    assert.ok(line, JSON.stringify(run.logs));
    assert.match(line, /no recording of GET https:\/\/api\.acme-shop\.test\/v1\/orders\.json\?status=any&apiKey=\*{8}/);
    assert.match(line, /the closest is entry 1: GET https:\/\/api\.acme-shop\.test\/v1\/orders\.json\?status=open/);
  });

  it('answers a failed deploy with its hook run, pointing at the deploy’s cassette, not at a source that is gone', async () => {
    const res = await spout.api('POST', '/v1/sources', { component_code: POLLER, network_mode: 'replay', configured_props: { apiKey: KEY }, cassette: { entries: [] } });
    assert.equal(res.status, 400);
    const problem = res.json as { detail: string; run?: Run };
    assert.match(problem.detail, /no recording of GET https:\/\/api\.acme-shop\.test\/v1\/shop\.json/);
    assert.match(problem.detail, /spout deploy --cassette FILE/);
    assert.doesNotMatch(problem.detail, /\/v1\/sources\/dc_/);
    assert.equal(problem.run?.calls[0]?.request.url, `${API}/v1/shop.json?apiKey=********`);
    assert.ok(problem.run?.logs.some((l) => l.message.startsWith('no recording of GET')));
    const listed = (await spout.api('GET', '/v1/users/me/sources')).json.data as unknown[];
    assert.equal(listed.length, 2, 'the failed deploy kept no source');
  });

  it('discovery mode answers every unrecorded call with an empty success and lists it in the run', async () => {
    const source = await deploySource(spout, POLLER, { network_mode: 'discover', configured_props: { apiKey: KEY } });
    const hooks = (await spout.api('GET', `/v1/sources/${source.id}/invocations?trigger=hook`)).json.data as Run[];
    assert.deepEqual(
      hooks.flatMap((r) => r.calls.map((c) => [c.served_by, c.request.url, c.response?.status])),
      [['discovery', `${API}/v1/shop.json?apiKey=********`, 200]],
    );
    await spout.api('POST', `/v1/sources/${source.id}/run`);
    const run = await lastRun(source.id);
    assert.deepEqual(
      run.calls.map((c) => [c.served_by, c.request.method, c.request.url]),
      [['discovery', 'GET', `${API}/v1/orders.json?status=any&apiKey=********`]],
    );
    assert.ok(!run.logs.some((l) => l.message.includes(KEY)), 'the logs show the key masked');
    // The component's own line too, in the run's record and in the source's log.
    assert.ok(
      run.logs.some((l) => l.message.includes('{"params":{"apiKey":"********"}}')),
      JSON.stringify(run.logs),
    );
    const sourceLog = (await spout.api('GET', `/v1/sources/${source.id}/logs`)).json.data as Array<{ message: string }>;
    assert.ok(
      sourceLog.some((l) => l.message.includes('{"params":{"apiKey":"********"}}')),
      JSON.stringify(sourceLog),
    );
    assert.ok(!sourceLog.some((l) => l.message.includes(KEY)));
    assert.ok(run.logs.some((l) => l.message.includes('no recording of GET https://api.acme-shop.test/v1/orders.json?status=any&apiKey=********')));
  });
});
