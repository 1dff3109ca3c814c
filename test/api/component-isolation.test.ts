// A component runs in a host process of its own under Node's permission model. Every way a
// component can fail or attack ends at most its own host: the service answers, the next run of the
// same source works, and a neighbouring source (an HTTP endpoint and a timer) carries on
// throughout. Written as a hostile or careless component author would.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deploySource, outsideTmpDir, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** A source (written for this test) that fails or attacks in the way the request body names, else emits. */
const HOSTILE = `
import fs from "node:fs";
import cp from "node:child_process";
import { Worker } from "node:worker_threads";
const forge = (message) => {
  const body = Buffer.from(JSON.stringify(message));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length);
  fs.writeSync(3, Buffer.concat([head, body]));
};
export default {
  name: "Hostile",
  version: "0.0.1",
  props: { http: "$.interface.http", store: { type: "data_store", optional: true } },
  async run(event) {
    const { fail: how, path: file } = event.body ?? {};
    if (how === "loop") while (true) {}
    if (how === "throw") throw new Error("thrown on purpose");
    if (how === "exit") process.exit(3);
    if (how === "reject") Promise.reject(new Error("nobody awaited this"));
    if (how === "heap") { const hog = []; for (;;) hog.push(new Array(1e6).fill(Math.random())); }
    if (how === "buffers") { const hog = []; for (;;) hog.push(Buffer.alloc(64 << 20, 1)); }
    if (how === "kill") process.kill(process.pid, "SIGKILL");
    if (how === "term") process.kill(process.pid, "SIGTERM");
    if (how === "abort") process.abort();
    if (how === "uncaught") { setTimeout(() => { throw new Error("thrown from a timer"); }, 0); await new Promise((r) => setTimeout(r, 1000)); }
    if (how === "kill-parent") process.kill(process.ppid, "SIGKILL");
    if (how === "kill-group") process.kill(0, "SIGKILL");
    if (how === "debug-parent") process._debugProcess(process.ppid);
    if (how === "read") this.$emit({ stolen: fs.readFileSync(file, "utf8") });
    if (how === "write") fs.writeFileSync(file, "escaped");
    if (how === "spawn") cp.execSync("id");
    if (how === "thread") new Worker("1", { eval: true });
    if (how === "env") { this.$emit({ env: Object.keys(process.env) }); return; }
    if (how === "forge-garbage") { fs.writeSync(3, Buffer.from([255, 255, 255, 127, 1, 2, 3])); await new Promise((r) => setTimeout(r, 1000)); }
    if (how === "forge-store") forge({ type: "call", callId: 424242, request: { service: "data_store", storeId: event.body.store, call: { op: "set", key: "pwned", value: 1 } } });
    if (how === "bigint") this.$emit({ n: 10n });
    if (how === "cycle") { const a = {}; a.self = a; this.$emit(a); }
    this.$emit({ ok: true, after: how ?? null });
  },
};`;

describe('component isolation', () => {
  let spout: SpoutProcess;
  let hostile: { id: string; endpoint: string };
  let neighbour: { id: string; endpoint: string };
  let ticker: { id: string };
  let given: string;
  // Outside /tmp: there, a component's paths name its own temp folder (issue 21).
  const outside = outsideTmpDir('spout-outside-');
  before(async () => {
    // A small memory limit: a runaway component is stopped sooner.
    spout = await startSpout({ args: ['--component-memory', '256'] });
    given = ((await spout.api('POST', '/v1/data_stores', { name: 'given to the hostile source' })).json.data as { id: string }).id;
    hostile = await deploySource(spout, HOSTILE, { timeout_seconds: 2, configured_props: { store: { dataStore: given } } });
    neighbour = await deploySource(spout);
    const tick = `export default { name: "Ticker", version: "0.0.1", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } } },
      async run(event) { this.$emit(event); } };`;
    ticker = await deploySource(spout, tick);
  });
  after(async () => {
    await spout.stop();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const logs = async () => ((await spout.api('GET', `/v1/sources/${hostile.id}/logs?limit=100`)).json.data as Array<{ level: string; message: string }>).map((l) => l.message).join('\n');
  const events = async (id: string) => (await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=100`)).json.data as Array<{ event: Record<string, unknown> }>;

  /** Fails the hostile source one way, then checks the service, the source and its neighbours. */
  const survive = async (body: Record<string, unknown>, logged: RegExp) => {
    const neighbourBefore = (await events(neighbour.id)).length;
    const ticksBefore = (await events(ticker.id)).length;
    // The neighbour is called while the failing run is under way.
    const [failed, fine] = await Promise.all([post(hostile.endpoint, body), post(neighbour.endpoint, { during: body.fail })]);
    assert.equal(fine.status, 200);
    assert.equal(failed.status, 200, 'the caller is answered (the run is not a custom response)');
    await waitFor(async () => logged.test(await logs()), 15_000, `a log line matching ${logged}`);
    assert.equal((await spout.api('GET', '/v1/users/me/sources')).status, 200, 'the service answers');
    // This suite crashes one source many times on purpose: turn it back on when the service has
    // turned it off for crashing (tested on its own below).
    const view = (await spout.api('GET', `/v1/sources/${hostile.id}`)).json.data as { active: boolean };
    if (!view.active) assert.equal((await spout.api('PUT', `/v1/sources/${hostile.id}`, { active: true })).status, 200);
    assert.equal((await post(hostile.endpoint, {})).status, 200);
    assert.deepEqual((await events(hostile.id))[0]!.event, { ok: true, after: null }, `the next run after "${String(body.fail)}" works`);
    assert.equal((await events(neighbour.id)).length, neighbourBefore + 1, 'the neighbour ran');
    await waitFor(async () => (await events(ticker.id)).length > ticksBefore, 10_000, 'the neighbouring timer to fire again');
  };

  it('an infinite loop is stopped at the source’s timeout and its host replaced; a neighbour’s timer fires meanwhile', async () => {
    const started = Math.floor(Date.now() / 1000);
    await survive({ fail: 'loop' }, /timed out after 2 s; the run was stopped/);
    const during = (await events(ticker.id)).filter((e) => (e.event.timestamp as number) >= started && (e.event.timestamp as number) <= started + 2);
    assert.ok(during.length >= 1, 'the timer fired while the loop held the other host');
  });

  it('a throw is logged with its stack', async () => {
    await survive({ fail: 'throw' }, /Error: thrown on purpose\n\s+at /);
  });

  it('process.exit, SIGKILL, SIGTERM and abort end only the component’s host', async () => {
    await survive({ fail: 'exit' }, /exited with code 3 \(process\.exit\?\)/);
    await survive({ fail: 'kill' }, /killed by SIGKILL/);
    await survive({ fail: 'term' }, /killed by SIGTERM/);
    await survive({ fail: 'abort' }, /aborted/);
  });

  it('an exception thrown outside any run ends the host with its stack in the log', async () => {
    await survive({ fail: 'uncaught' }, /the component crashed: Error: thrown from a timer\n\s+at /);
  });

  it('a rejected promise nobody awaited is logged and the run goes on', async () => {
    await survive({ fail: 'reject' }, /Unhandled rejection: Error: nobody awaited this/);
    assert.ok(
      (await events(hostile.id)).some((e) => e.event.after === 'reject'),
      'the run that left the rejection behind still emitted',
    );
  });

  /** Runs `check` with a run timeout long enough that a slow machine reaches the memory limit first. */
  const withLongRuns = async (check: () => Promise<void>) => {
    await spout.api('PUT', `/v1/sources/${hostile.id}`, { timeout_seconds: 60 });
    try {
      await check();
    } finally {
      await spout.api('PUT', `/v1/sources/${hostile.id}`, { timeout_seconds: 2 });
    }
  };

  it('running out of heap ends the run, not the service', async () => {
    await withLongRuns(() => survive({ fail: 'heap' }, /out of memory|over the limit of 256 MB/));
  });

  it('Buffers without end are stopped at the memory limit, naming the source and the limit', async () => {
    await withLongRuns(() => survive({ fail: 'buffers' }, new RegExp(`source ${hostile.id} \\(Hostile\\): its component host used \\d+ MB of memory, over the limit of 256 MB`)));
  });

  it('cannot signal the service, its process group, or open its debugger', async () => {
    await survive({ fail: 'kill-parent' }, /process\.kill: a component may signal only its own process/);
    await survive({ fail: 'kill-group' }, /process\.kill: a component may signal only its own process/);
    await survive({ fail: 'debug-parent' }, /process\._debugProcess: a component may signal only its own process/);
  });

  it('cannot read the data dir’s keys and metadata, or other files of the machine', async () => {
    for (const file of [path.join(spout.dataDir, 'secret.key'), path.join(spout.dataDir, 'metadata.json'), path.join(spout.dataDir, 'api-key'), '/etc/passwd']) {
      await survive({ fail: 'read', path: file }, new RegExp(`restricted \\(${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\): components may read only`));
    }
    assert.ok(!(await events(hostile.id)).some((e) => 'stolen' in e.event), 'nothing was read');
  });

  it('cannot write outside its folders, start a process or a thread', async () => {
    const target = path.join(outside, 'escaped.txt');
    await survive({ fail: 'write', path: target }, /restricted.*components may read only/);
    assert.equal(fs.existsSync(target), false);
    await survive({ fail: 'spawn' }, /restricted.*start no processes or threads/);
    await survive({ fail: 'thread' }, /restricted.*start no processes or threads/);
  });

  it('sees none of the service’s environment', async () => {
    await post(hostile.endpoint, { fail: 'env' });
    const env = await waitFor(async () => (await events(hostile.id)).find((e) => Array.isArray(e.event.env))?.event.env as string[] | undefined, 10_000, 'the env event');
    for (const name of ['PATH', 'HOME', 'SPOUT_API_KEY', 'SPOUT_DATA_DIR', 'NODE_OPTIONS']) assert.ok(!env.includes(name), `${name} is not visible`);
  });

  it('a malformed message on its channel stops its host; a forged data store call for a store it was not given is refused', async () => {
    await survive({ fail: 'forge-garbage' }, /over the limit|not one a host may send|broke its channel/);
    const other = (await spout.api('POST', '/v1/data_stores', { name: 'not yours' })).json.data as { id: string };
    // A forged call to the store it was given goes through (so forging works), one to another store does not.
    for (const store of [given, other.id]) {
      const before = (await events(hostile.id)).length;
      await post(hostile.endpoint, { fail: 'forge-store', store });
      await waitFor(async () => (await events(hostile.id)).length > before, 10_000, 'the forging run to end');
    }
    await waitFor(async () => (await spout.api('GET', `/v1/data_stores/${given}/records/pwned`)).status === 200, 5000, 'the forged call on its own store');
    assert.equal((await spout.api('GET', `/v1/data_stores/${other.id}/records/pwned`)).status, 404, 'the forged write to another store did not happen');
  });

  it('a non-serialisable $emit payload fails the run with a clear message', async () => {
    await survive({ fail: 'bigint' }, /\$emit: the event is not JSON-serialisable \(Do not know how to serialize a BigInt\)/);
    await survive({ fail: 'cycle' }, /\$emit: the event is not JSON-serialisable \(Converting circular structure to JSON/);
  });
});

describe('a source whose host keeps crashing', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout();
  });
  after(async () => void (await spout.stop()));

  it('is deactivated with the reason after five crashes, and new code runs it again', async () => {
    const crasher = `export default { name: "Crasher", version: "0.0.1", props: { http: "$.interface.http" },
      async run(event) { if (event.body?.crash) process.exit(9); this.$emit({ fine: true }); } };`;
    const source = await deploySource(spout, crasher);
    for (let i = 0; i < 5; i++) {
      const res = await fetch(source.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"crash":true}' });
      assert.equal(res.status, 200);
    }
    const view = await waitFor(
      async () => {
        const s = (await spout.api('GET', `/v1/sources/${source.id}`)).json.data as { active: boolean; deactivated_reason: string | null };
        return s.active ? null : s;
      },
      10_000,
      'the source to be deactivated',
    );
    assert.match(view.deactivated_reason ?? '', /deactivated after its component host ended 5 times within 5 minutes \(last: the component host exited with code 9/);
    assert.equal((await fetch(source.endpoint, { method: 'POST' })).status, 404, 'an inactive source’s endpoint is gone');
    const updated = await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: crasher.replace('Crasher', 'Crasher fixed') });
    assert.equal(updated.status, 200);
    assert.equal(updated.json.data.active, true);
    assert.equal(updated.json.data.deactivated_reason, null);
    assert.equal((await fetch(source.endpoint, { method: 'POST' })).status, 200);
  });
});

describe('folders granted to a source', () => {
  let spout: SpoutProcess;
  // Outside /tmp: there, a component's paths name its own temp folder (issue 21).
  const root = outsideTmpDir('spout-grants-');
  const [readable, writable, other] = ['in', 'out', 'other'].map((d) => path.join(root, d)) as [string, string, string];
  before(async () => {
    for (const d of [readable, writable, other]) fs.mkdirSync(d);
    fs.writeFileSync(path.join(readable, 'input.txt'), 'hello from a granted folder');
    fs.writeFileSync(path.join(other, 'private.txt'), 'not granted');
    spout = await startSpout();
  });
  after(async () => {
    await spout.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const FILES = `import fs from "node:fs";
export default { name: "Files", version: "0.0.1", props: { http: "$.interface.http" },
  async run(event) {
    const { op, file, text } = event.body;
    try {
      if (op === "read") this.$emit({ ok: fs.readFileSync(file, "utf8") });
      else { fs.writeFileSync(file, text); this.$emit({ ok: "written" }); }
    } catch (err) { this.$emit({ denied: err.code }); }
  } };`;

  it('may read and write only what it was granted; the data dir cannot be granted', async () => {
    const source = await deploySource(spout, FILES, { permissions: { read: [readable], write: [writable] } });
    const view = (await spout.api('GET', `/v1/sources/${source.id}`)).json.data as { permissions: { read: string[]; write: string[] } };
    assert.deepEqual(view.permissions, { read: [readable], write: [writable] });
    const attempt = async (body: Record<string, unknown>) => {
      const before = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries`)).json.data.length as number;
      await fetch(source.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return waitFor(
        async () => {
          const list = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries`)).json.data as Array<{ event: Record<string, unknown> }>;
          return list.length > before ? list[0]!.event : null;
        },
        10_000,
        'the run’s event',
      );
    };
    assert.deepEqual(await attempt({ op: 'read', file: path.join(readable, 'input.txt') }), { ok: 'hello from a granted folder' });
    assert.deepEqual(await attempt({ op: 'write', file: path.join(writable, 'out.txt'), text: 'result' }), { ok: 'written' });
    assert.equal(fs.readFileSync(path.join(writable, 'out.txt'), 'utf8'), 'result');
    assert.deepEqual(await attempt({ op: 'write', file: path.join(readable, 'nope.txt'), text: 'x' }), { denied: 'ERR_ACCESS_DENIED' });
    assert.deepEqual(await attempt({ op: 'read', file: path.join(other, 'private.txt') }), { denied: 'ERR_ACCESS_DENIED' });

    // Taking a grant away restarts the source's host without it.
    const updated = await spout.api('PUT', `/v1/sources/${source.id}`, { permissions: { read: [], write: [writable] } });
    assert.equal(updated.status, 200);
    assert.deepEqual(await attempt({ op: 'read', file: path.join(readable, 'input.txt') }), { denied: 'ERR_ACCESS_DENIED' });

    for (const bad of [spout.dataDir, path.join(spout.dataDir, 'db'), path.dirname(spout.dataDir), 'relative/dir', path.join(root, 'missing')]) {
      const res = await spout.api('POST', '/v1/sources', { component_code: FILES, permissions: { read: [bad] } });
      assert.equal(res.status, 400, bad);
      assert.match(res.json.errors[0].message, /data dir|absolute path|does not exist/);
    }
  });
});

describe('a source whose component no longer loads', () => {
  it('answers 503 naming the fix at its endpoint and through run now, and its log says why', async () => {
    let spout = await startSpout();
    const source = await deploySource(spout);
    await spout.stop();
    // As if the stored bundle had gone bad: its module throws when loaded.
    const file = path.join(spout.dataDir, 'metadata.json');
    const metadata = JSON.parse(fs.readFileSync(file, 'utf8')) as { components: Array<{ bundle: string }> };
    for (const c of metadata.components) c.bundle = 'throw new Error("this module is broken");';
    fs.writeFileSync(file, JSON.stringify(metadata));
    spout = await startSpout({ dataDir: spout.dataDir });
    try {
      const res = await fetch(source.endpoint.replace(/^http:\/\/127\.0\.0\.1:\d+/, spout.url), { method: 'POST', body: '{}' });
      assert.equal(res.status, 503);
      assert.match(((await res.json()) as { detail: string }).detail, /could not be loaded; see its logs, and update its code/);
      assert.equal((await spout.api('POST', `/v1/sources/${source.id}/run`)).status, 503);
      const logs = (await spout.api('GET', `/v1/sources/${source.id}/logs`)).json.data as Array<{ message: string }>;
      assert.ok(
        logs.some((l) => /could not load the component: .*this module is broken/.test(l.message)),
        JSON.stringify(logs),
      );
    } finally {
      await spout.stop();
    }
  });
});
