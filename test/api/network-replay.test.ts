// Outgoing HTTP calls: every call a run makes is in its record (credentials masked); in record mode
// they are saved to the source's cassette, in replay mode answered from it with the real API gone;
// a call nobody recorded fails saying how to record it; a hand-written 429 drives the retry path.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const TOKEN = 'tok_SECRET_9f8e7d6c';

/** A polling source (written for this test): keeps its page in this.db, retries once on 429. */
const POLLER = `
export default {
  name: "Poller",
  version: "0.1.0",
  dedupe: "unique",
  props: {
    db: "$.service.db",
    timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } },
    base: { type: "string" },
    token: { type: "string", secret: true },
  },
  methods: {
    async page(n) {
      return fetch(this.base + "/items?page=" + n + "&ts=" + Date.now(), { headers: { authorization: "Bearer " + this.token } });
    },
  },
  async run() {
    const n = this.db.get("page") ?? 1;
    let res = await this.page(n);
    if (res.status === 429) {
      console.log("rate limited, retrying after " + res.headers.get("retry-after") + " s");
      res = await this.page(n);
    }
    if (!res.ok) throw new Error("page " + n + " answered " + res.status);
    const { items } = await res.json();
    for (const item of items) this.$emit(item, { id: item.id, summary: item.title });
    this.db.set("page", n + 1);
  },
};
`;

interface Call {
  request: { method: string; url: string; headers: Record<string, string> };
  response: { status: number } | null;
  error: string | null;
  served_by: string;
}

describe('recording and replaying outgoing calls', () => {
  let spout: SpoutProcess;
  let api: http.Server;
  let base: string;
  let seen = 0;
  before(async () => {
    api = http.createServer((req, res) => {
      seen++;
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end('{}');
      const page = Number(url.searchParams.get('page'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [1, 2].map((i) => ({ id: `p${page}-${i}`, title: `item ${i} of page ${page}` })) }));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    spout = await startSpout();
  });
  after(async () => {
    await spout.stop();
    api.close();
  });

  const run = (id: string) => spout.api('POST', `/v1/sources/${id}/run`);
  const itemsOf = async (id: string) => ((await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=100`)).json.data as Array<{ event: { id: string } }>).map((e) => e.event.id).sort();
  const lastRun = async (id: string) => ((await spout.api('GET', `/v1/sources/${id}/invocations?trigger=run_now`)).json.data as Array<{ status: string; calls: Call[]; error: { message: string } | null; logs: Array<{ message: string }> }>)[0]!;

  it('records a polling source’s calls, replays them with the API gone, fails an unrecorded call clearly, and a hand-written 429 runs the retry path', async () => {
    const recorder = await deploySource(spout, POLLER, { network_mode: 'record', configured_props: { base, token: TOKEN } });
    for (let i = 0; i < 3; i++) assert.equal((await run(recorder.id)).status, 200);
    const recorded = await itemsOf(recorder.id);
    assert.equal(recorded.length, 6);
    const live = await lastRun(recorder.id);
    assert.equal(live.calls.length, 1);
    assert.equal(live.calls[0]!.served_by, 'live');
    assert.equal(live.calls[0]!.response!.status, 200);
    assert.match(live.calls[0]!.request.url, /\/items\?page=3&ts=\d+$/);
    assert.equal(live.calls[0]!.request.headers.authorization, '********', 'the Authorization header is masked in the record');

    const cassette = (await spout.api('GET', `/v1/sources/${recorder.id}/cassette`)).json.data as { entries: unknown[] };
    assert.equal(cassette.entries.length, 3);
    const file = fs.readFileSync(path.join(spout.dataDir, 'cassettes', `${recorder.id}.json`), 'utf8');
    assert.ok(!file.includes(TOKEN), 'the cassette file has no credential in clear');
    for (const dir of ['cassettes', 'invocations']) {
      for (const f of fs.readdirSync(path.join(spout.dataDir, dir))) assert.ok(!fs.readFileSync(path.join(spout.dataDir, dir, f), 'utf8').includes(TOKEN), `${dir}/${f} has no credential`);
    }

    // The API goes away; a new source replays the cassette and emits the same events.
    await new Promise<void>((r) => api.close(() => r()));
    api.closeAllConnections();
    const callsBefore = seen;
    const replayer = await deploySource(spout, POLLER, { network_mode: 'replay', configured_props: { base, token: TOKEN } });
    assert.equal((await spout.api('PUT', `/v1/sources/${replayer.id}/cassette`, cassette)).status, 200);
    for (let i = 0; i < 3; i++) await run(replayer.id);
    assert.deepEqual(await itemsOf(replayer.id), recorded);
    assert.equal(seen, callsBefore, 'nothing went out');
    const replayed = await lastRun(replayer.id);
    assert.equal(replayed.calls[0]!.served_by, 'cassette');

    // Page 4 was never recorded.
    await run(replayer.id);
    const missing = await lastRun(replayer.id);
    assert.equal(missing.status, 'error');
    assert.match(missing.calls[0]!.error ?? '', /no recording of GET http:\/\/127\.0\.0\.1:\d+\/items\?page=4/);
    assert.match(missing.calls[0]!.error ?? '', /record it with network mode "record"/);

    // A 429 written by hand before the first page: the source retries, then gets the page.
    const first = (cassette.entries as Array<{ request: { method: string; url: string } }>)[0]!;
    const mocked = { ...cassette, entries: [{ request: { method: 'GET', url: first.request.url }, response: { status: 429, headers: { 'retry-after': '0' }, body: '' } }, ...cassette.entries] };
    const retrier = await deploySource(spout, POLLER, { network_mode: 'replay', configured_props: { base, token: TOKEN } });
    assert.equal((await spout.api('PUT', `/v1/sources/${retrier.id}/cassette`, mocked)).status, 200);
    await run(retrier.id);
    const retried = await lastRun(retrier.id);
    assert.equal(retried.status, 'ok', JSON.stringify(retried.error));
    assert.deepEqual(
      retried.calls.map((c) => c.response?.status),
      [429, 200],
    );
    assert.match(retried.logs.map((l) => l.message).join('\n'), /rate limited, retrying after 0 s/);
    assert.deepEqual(await itemsOf(retrier.id), ['p1-1', 'p1-2']);
  });

  it('sees calls made through @pipedream/platform’s axios (http/https), and replays them', async () => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"via":"axios"}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/thing`;
    const code = `import { axios } from "@pipedream/platform";
export default { name: "Axios caller", version: "0.1.0", props: { url: { type: "string" } },
  async run() { const data = await axios(this, { url: this.url }); this.$emit(data); } };`;
    const source = await deploySource(spout, code, { network_mode: 'record', configured_props: { url } });
    await run(source.id);
    const recorded = await lastRun(source.id);
    assert.equal(recorded.calls.length, 1, JSON.stringify(recorded));
    assert.equal(recorded.calls[0]!.request.url, url);
    server.close();
    server.closeAllConnections();
    await spout.api('PUT', `/v1/sources/${source.id}`, { network_mode: 'replay' });
    await run(source.id);
    const replayed = await lastRun(source.id);
    assert.equal(replayed.status, 'ok', JSON.stringify(replayed.error));
    assert.equal(replayed.calls[0]!.served_by, 'cassette');
  });

  it('refuses a cassette that is not one, naming the field', async () => {
    const source = await deploySource(spout, POLLER, { configured_props: { base, token: TOKEN } });
    const bad = await spout.api('PUT', `/v1/sources/${source.id}/cassette`, { entries: [{ request: { method: 'GET', url: 'not a url' }, response: { status: 999 } }] });
    assert.equal(bad.status, 400);
    const paths = (bad.json.errors as Array<{ path: string }>).map((e) => e.path);
    assert.ok(paths.includes('entries.0.request.url') && paths.includes('entries.0.response.status'), JSON.stringify(bad.json.errors));
    const script = await spout.api('PUT', `/v1/sources/${source.id}/cassette`, { entries: [{ request: { method: 'GET', url: 'javascript:alert(1)' }, response: { status: 200 } }] });
    assert.equal(script.status, 400, 'only http(s) calls can be recorded');
    assert.match(JSON.stringify(script.json.errors), /entries\.0\.request\.url.*http or https/);
    await waitFor(async () => (await spout.api('GET', `/v1/sources/${source.id}`)).json.data.network_mode === 'live', 1000, 'the default mode');
  });
});
