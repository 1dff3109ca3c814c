// spout/testing's loadSource and loadAction, driven as a user's test drives them: the test clock
// (Date stands still, timers run on it, schedules fire with advance), faults, recording a cassette
// from a local server, the answer of a custom-response endpoint, load errors, db and data stores.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadAction, loadSource } from '../../../runtime/testing/spout-testing';
import { tempDir } from '../../helpers/service';

/** Writes files into a fresh folder; returns its path. */
function project(files: Record<string, string>): string {
  const dir = tempDir('spout-testing-');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

const NOW = Date.parse('2026-01-01T00:00:00Z');

const CLOCKED = `import { setTimeout as sleep } from "node:timers/promises";
export default {
  name: "Clocked", version: "0.1.0", dedupe: "greatest",
  props: {
    timer: { type: "$.interface.timer", default: { intervalSeconds: 600 } },
    nightly: { type: "$.interface.timer", default: { cron: "0 2 * * *" } },
    db: "$.service.db",
  },
  async run(event) {
    const before = Date.now();
    await new Promise((r) => setTimeout(r, 5000));
    await sleep(1000);
    const n = (this.db.get("n") ?? 0) + 1;
    this.db.set("n", n);
    this.$emit({ event, waited: Date.now() - before, date: new Date().toISOString() }, { id: n, summary: "run " + n });
  },
};
`;

describe('spout/testing: the test clock', () => {
  const dir = project({ 'clocked.mjs': CLOCKED });

  it("stands still at `now`, runs the component's waits on it at once, and fires timers by schedule", async (t) => {
    const src = await loadSource(path.join(dir, 'clocked.mjs'), { now: NOW });
    t.after(() => src.close());
    const started = performance.now();
    const r = await src.timer();
    assert.equal(r.error, null);
    // 6 s of waiting took less real time than it says (no fixed bound: the machine may be slow), and the clock moved by exactly that.
    assert.deepEqual(r.events[0]?.event, { event: { timestamp: NOW / 1000, interval_seconds: 600 }, waited: 6000, date: '2026-01-01T00:00:06.000Z' });
    assert.ok(performance.now() - started < 6000);
    assert.equal(src.clock.now(), NOW + 6000);
    assert.equal(src.db.get('n'), 1);

    // Two hours: the 10-minute timer fires 12 times from its phase at load; the nightly cron at 02:00 once.
    const runs = await src.clock.advance('2h');
    const timestamps = runs.map((run) => (run.events[0]!.event as { event: { timestamp: number; cron?: string } }).event);
    assert.equal(timestamps.length, 13);
    assert.deepEqual(timestamps.slice(0, 2), [
      { timestamp: NOW / 1000 + 600, interval_seconds: 600 },
      { timestamp: NOW / 1000 + 1200, interval_seconds: 600 },
    ]);
    assert.ok(timestamps.some((e) => e.cron === '0 2 * * *' && e.timestamp === NOW / 1000 + 7200));
    assert.equal(src.db.get('n'), 14);
    assert.equal(src.events.length, 14);
  });

  it('reads durations as people write them and refuses others', async (t) => {
    const src = await loadSource(path.join(dir, 'clocked.mjs'), { now: NOW });
    t.after(() => src.close());
    assert.deepEqual(await src.clock.advance('1m30s'), []);
    assert.equal(src.clock.now(), NOW + 90_000);
    await assert.rejects(src.clock.advance('soon'), /not a duration; write a number of milliseconds or text such as "500ms"/);
  });
});

const CALLER = `export default {
  name: "Caller", version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true }, token: { type: "string", secret: true } },
  async run(event) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 10_000);
    try {
      const res = await fetch(event.body.url, { headers: { authorization: "Bearer " + this.token }, signal: controller.signal });
      const data = await res.json();
      this.$emit(data, { summary: "got " + res.status });
      if (!event.body.silent) this.http.respond({ status: res.status, body: data });
    } catch (err) {
      this.http.respond({ status: 599, body: { failed: err.name + ": " + err.message } });
    } finally {
      clearTimeout(timer);
    }
  },
};
`;

describe('spout/testing: calls, faults and recording', () => {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, auth: req.headers.authorization }));
  });
  after(() => server.close());

  it('records a cassette with the credential masked, then answers from it offline', async (t) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders?page=1`;
    const dir = project({ 'caller.mjs': CALLER });
    process.env.SPOUT_TEST_RECORD = '1';
    const recording = await loadSource(path.join(dir, 'caller.mjs'), { props: { token: 'tok-very-secret' } }).finally(() => delete process.env.SPOUT_TEST_RECORD);
    t.after(() => recording.close());
    const live = await recording.http({ body: { url } });
    assert.equal(live.status, 200);
    // The component got the real answer; the recording keeps it masked.
    assert.deepEqual(live.body, { path: '/orders?page=1', auth: 'Bearer tok-very-secret' });
    const cassette = fs.readFileSync(path.join(dir, 'caller.cassette.json'), 'utf8');
    assert.doesNotMatch(cassette, /tok-very-secret/);
    assert.match(cassette, /"authorization": "\*\*\*\*\*\*\*\*"/);

    server.close();
    const replaying = await loadSource(path.join(dir, 'caller.mjs'), { props: { token: 'tok-very-secret' } });
    t.after(() => replaying.close());
    const replayed = await replaying.http({ body: { url } });
    assert.equal(replayed.status, 200);
    assert.equal(replayed.calls[0]?.served_by, 'cassette');
  });

  it('makes calls time out, reset or answer as a test says, and names an unrecorded one', async (t) => {
    const dir = project({ 'caller.mjs': CALLER });
    const src = await loadSource(path.join(dir, 'caller.mjs'), { props: { token: 'x-token' }, now: NOW });
    t.after(() => src.close());
    const url = 'https://api.example.com/orders';
    src.network.fail(`GET ${url}*`, { timeout: true, times: 1 });
    const timedOut = await src.http({ body: { url } });
    // The component's own 10 s timeout ended the call, on the test clock.
    assert.deepEqual(timedOut.body, { failed: 'AbortError: This operation was aborted' });
    assert.equal(src.clock.now(), NOW + 10_000);
    src.network.fail(`GET ${url}*`, { reset: true, times: 1 });
    assert.deepEqual((await src.http({ body: { url } })).body, { failed: 'Error: socket hang up' });
    src.network.fail('https://api.example.com/*', { status: 503, retryAfter: 7, times: 1 });
    const refused = await src.http({ body: { url } });
    assert.equal(refused.status, 503);
    assert.equal(refused.calls[0]?.response?.headers['retry-after'], '7');
    // Offline, a call with no recording fails the test, even when the component catches it.
    await assert.rejects(src.http({ body: { url } }), (err: Error & { result?: { status?: number } }) => {
      assert.equal(err.name, 'UnrecordedCallError');
      assert.match(err.message, /^no recording of GET https:\/\/api\.example\.com\/orders: cassette .*caller\.cassette\.json has no entries; record it with `spout test --record`/);
      assert.equal(err.result?.status, 599);
      return true;
    });
    assert.throws(() => src.network.fail('api.example.com', { status: 500 }), /give an absolute URL/);
  });

  it('answers 502 for a custom-response endpoint whose run did not respond', async (t) => {
    const dir = project({ 'caller.mjs': CALLER, 'caller.cassette.json': JSON.stringify({ entries: [{ request: { method: 'GET', url: 'https://api.example.com/x' }, response: { status: 200, body: { ok: 1 } } }] }) });
    const src = await loadSource(path.join(dir, 'caller.mjs'), { props: { token: 'x-token' } });
    t.after(() => src.close());
    const r = await src.http({ body: { url: 'https://api.example.com/x', silent: true } });
    assert.equal(r.status, 502);
    assert.match(JSON.stringify(r.body), /its run ended without calling respond\(\)/);
    assert.equal(r.events.length, 1);
  });
});

describe('spout/testing: loading', () => {
  it('fires a static timer by its schedule, whatever is configured', async (t) => {
    const dir = project({ 'fixed.mjs': 'export default { name: "Fixed", version: "0.1.0", props: { timer: { type: "$.interface.timer", static: { intervalSeconds: 900 } } }, async run(event) { this.$emit(event); } };\n' });
    const src = await loadSource(path.join(dir, 'fixed.mjs'), { now: NOW });
    t.after(() => src.close());
    assert.deepEqual((await src.timer()).events[0]?.event, { timestamp: NOW / 1000, interval_seconds: 900 });
    assert.equal((await src.clock.advance('1h')).length, 4);
  });

  it('finds a named cassette beside the test, and names one that is missing', async (t) => {
    const dir = project({ 'caller.mjs': CALLER });
    const here = path.dirname(new URL(import.meta.url).pathname);
    const cassette = path.join(here, 'beside-this-test.cassette.json');
    fs.writeFileSync(cassette, JSON.stringify({ entries: [{ request: { method: 'GET', url: 'https://api.example.com/y' }, response: { status: 200, body: { y: 1 } } }] }));
    t.after(() => fs.rmSync(cassette, { force: true }));
    const src = await loadSource(path.join(dir, 'caller.mjs'), { props: { token: 'x-token' }, cassette: './beside-this-test.cassette.json' });
    t.after(() => src.close());
    assert.deepEqual((await src.http({ body: { url: 'https://api.example.com/y' } })).body, { y: 1 });
    await assert.rejects(loadSource(path.join(dir, 'caller.mjs'), { props: { token: 'x' }, cassette: './nowhere.cassette.json' }), /nowhere\.cassette\.json: no such cassette file; record one with `spout test --record`/);
  });

  it('names the file and each problem of a component that cannot load', async () => {
    const dir = project({ 'bad.mjs': 'export default { name: "Bad", version: "0.1.0", props: { n: { type: "string", min: 1 } }, async run() {} };\n' });
    await assert.rejects(loadSource(path.join(dir, 'bad.mjs')), (err: Error) => err.message.startsWith(`${path.join(dir, 'bad.mjs')} cannot be loaded:`) && /props\.n/.test(err.message));
    await assert.rejects(loadSource(path.join(dir, 'missing.mjs')), /no such component file/);
  });

  it("points a run's error at the component's own file, line and column", async (t) => {
    const dir = project({ 'thrower.mjs': 'export default {\n  name: "Thrower", version: "0.1.0",\n  async run() {\n    throw new Error("boom");\n  },\n};\n' });
    const src = await loadSource(path.join(dir, 'thrower.mjs'));
    t.after(() => src.close());
    const r = await src.timer();
    assert.equal(r.error?.message, 'boom');
    assert.match(r.error?.stack ?? '', new RegExp(`${path.join(dir, 'thrower.mjs').replace(/[.\\/]/g, '\\$&')}:4:11`));
  });

  it('refuses accounts for a prop that is not an app prop, and props the component does not have', async () => {
    const dir = project({ 'plain.mjs': 'export default { name: "Plain", version: "0.1.0", props: { n: { type: "integer" } }, async run() {} };\n' });
    await assert.rejects(loadSource(path.join(dir, 'plain.mjs'), { props: { n: 1 }, accounts: { slack: { token: 'x' } } }), /accounts\.slack: the component has no app prop `slack`/);
    await assert.rejects(loadSource(path.join(dir, 'plain.mjs'), { props: { n: 1, m: 2 } }), /the component has no prop `m`/);
  });

  it('runs an action with an app prop and a data store, on the test clock', async (t) => {
    const dir = project({
      'keep.mjs': `export default {
  name: "Keep", version: "0.1.0", type: "action",
  props: { store: { type: "data_store" }, app: { type: "app", app: "acme" }, text: { type: "string" } },
  async run({ $ }) {
    const previous = await this.store.get("last");
    await this.store.set("last", this.text);
    $.export("$summary", "kept " + this.text + " at " + new Date().toISOString());
    return { previous, key: this.app.$auth.api_key };
  },
};
`,
    });
    const action = loadAction(path.join(dir, 'keep.mjs'), { props: { text: 'a' }, accounts: { app: { api_key: 'k1' } }, now: NOW });
    t.after(() => action.close());
    const first = await action.run();
    assert.equal(first.error, null);
    assert.equal(first.summary, 'kept a at 2026-01-01T00:00:00.000Z');
    assert.deepEqual(first.returnValue, { key: 'k1' });
    assert.deepEqual((await action.run()).returnValue, { previous: 'a', key: 'k1' });
  });
});
