// Every way a component can fail ends only that run: the service answers, the next run of the
// same source works, and a neighbouring source carries on throughout.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deploySource, startSpout, waitFor, type SpoutProcess } from '../helpers/service';

/** A source (written for this test) that fails in the way the request body names, else emits. */
const FRAGILE = `
export default {
  name: "Fragile",
  version: "0.0.1",
  props: { http: "$.interface.http" },
  async run(event) {
    const how = event.body?.fail;
    if (how === "loop") while (true) {}
    if (how === "throw") throw new Error("thrown on purpose");
    if (how === "exit") process.exit(3);
    if (how === "reject") Promise.reject(new Error("nobody awaited this"));
    if (how === "oom") { const hog = []; for (;;) hog.push(new Array(1e6).fill(Math.random())); }
    if (how === "bigint") this.$emit({ n: 10n });
    if (how === "cycle") { const a = {}; a.self = a; this.$emit(a); }
    this.$emit({ ok: true, after: how ?? null });
  },
};`;

describe('sandbox failures', () => {
  let spout: SpoutProcess;
  let fragile: { id: string; endpoint: string };
  let neighbour: { id: string; endpoint: string };
  let ticker: { id: string };
  before(async () => {
    spout = await startSpout();
    fragile = await deploySource(spout, FRAGILE, { timeout_seconds: 2 });
    neighbour = await deploySource(spout);
    const tick = `export default { name: "Ticker", version: "0.0.1", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } } },
      async run(event) { this.$emit(event); } };`;
    ticker = await deploySource(spout, tick);
  });
  after(async () => void (await spout.stop()));

  const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const logs = async () => ((await spout.api('GET', `/v1/sources/${fragile.id}/logs?limit=100`)).json.data as Array<{ level: string; message: string }>).map((l) => l.message).join('\n');
  const events = async (id: string) => (await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=100`)).json.data as Array<{ event: Record<string, unknown> }>;

  /** Fails the fragile source one way, then checks the service, the source and its neighbour. */
  const survive = async (how: string, logged: RegExp) => {
    const neighbourBefore = (await events(neighbour.id)).length;
    const ticksBefore = (await events(ticker.id)).length;
    // The neighbour is called while the failing run is under way.
    const [failed, fine] = await Promise.all([post(fragile.endpoint, { fail: how }), post(neighbour.endpoint, { during: how })]);
    assert.equal(fine.status, 200);
    assert.equal(failed.status, 200, 'the caller is answered (the run is not a custom response)');
    await waitFor(async () => logged.test(await logs()), 10_000, `a log line matching ${logged}`);
    assert.equal((await spout.api('GET', '/v1/users/me/sources')).status, 200, 'the service answers');
    assert.equal((await post(fragile.endpoint, {})).status, 200);
    assert.deepEqual((await events(fragile.id))[0]!.event, { ok: true, after: null }, `the next run after "${how}" works`);
    assert.equal((await events(neighbour.id)).length, neighbourBefore + 1, 'the neighbour ran');
    await waitFor(async () => (await events(ticker.id)).length > ticksBefore, 10_000, 'the neighbouring timer to fire again');
  };

  it('an infinite loop is stopped at the source’s timeout and its worker replaced; a neighbour’s timer fires meanwhile', async () => {
    const started = Math.floor(Date.now() / 1000);
    await survive('loop', /timed out after 2 s; the run was stopped/);
    // The loop held its worker for 2 s; the ticker's own worker went on firing in that time.
    const during = (await events(ticker.id)).filter((e) => (e.event.timestamp as number) >= started && (e.event.timestamp as number) <= started + 2);
    assert.ok(during.length >= 1, 'the timer fired while the loop held the other worker');
  });

  it('a throw is logged with its stack', async () => {
    await survive('throw', /Error: thrown on purpose\n\s+at /);
  });

  it('process.exit ends only the worker', async () => {
    await survive('exit', /exited with code 3 \(process\.exit\?\)/);
  });

  it('a rejected promise nobody awaited is logged and the run goes on', async () => {
    await survive('reject', /Unhandled rejection: Error: nobody awaited this/);
    assert.ok((await events(fragile.id)).some((e) => e.event.after === 'reject'), 'the run that left the rejection behind still emitted');
  });

  it('running out of memory ends the run, not the service', async () => {
    await survive('oom', /crashed: .*(memory|ERR_WORKER_OUT_OF_MEMORY)/i);
  });

  it('a non-serialisable $emit payload fails the run with a clear message', async () => {
    await survive('bigint', /\$emit: the event is not JSON-serialisable \(Do not know how to serialize a BigInt\)/);
    await survive('cycle', /\$emit: the event is not JSON-serialisable \(Converting circular structure to JSON/);
  });
});
