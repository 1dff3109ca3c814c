// Every run of a source is recorded: the request and the answer of an HTTP run, its logs, emits
// (dedupe drops marked), deliveries and error with a stack mapped to the component's file; runs are
// listed with filters, streamed, replayed (with the same bytes, or edited) and survive restarts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';
import { readSse } from '../helpers/sse';

/** Emits what it got, logs a line, throws when asked, answers itself on ?respond. Written for this test. */
const INSPECTED = `export default {
  name: "Inspected",
  version: "0.1.0",
  dedupe: "unique",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    console.log("got", event.method, event.path);
    if (event.query.fail) {
      throw new Error("failed on purpose");
    }
    this.$emit({ path: event.path, query: event.query, raw: event.bodyRaw, agent: event.headers["x-agent"] ?? null }, { id: event.query.id ?? String(Math.random()), summary: event.method + " " + event.path });
    this.http.respond({ status: 201, headers: { "x-answered": "yes" }, body: { seen: event.bodyRaw.length } });
  },
};
`;

interface Invocation {
  id: string;
  trigger: string;
  hook: string | null;
  status: string;
  request: { method: string; path: string; query: string; headers: Record<string, string>; body: string; body_encoding: string; body_size: number } | null;
  response: { status: number; headers: Record<string, string>; body: string; from: string } | null;
  logs: Array<{ message: string }>;
  emits: Array<{ event_id: string | null; dropped: boolean; webhooks: string[] }>;
  error: { message: string; stack: string; full_stack: string } | null;
  replay_of: string | null;
  event: unknown;
}

describe('invocations', () => {
  let spout: SpoutProcess;
  let source: { id: string; endpoint: string };
  let receiver: Receiver;
  const dataDir = tempDir();
  before(async () => {
    receiver = await startReceiver();
    spout = await startSpout({ dataDir });
    source = await deploySource(spout, INSPECTED, { component_filename: 'inspected.mjs' });
  });
  after(async () => {
    await spout.stop();
    await receiver.close();
  });

  const list = async (query = '') => (await spout.api('GET', `/v1/sources/${source.id}/invocations${query}`)).json as { data: Invocation[]; page_info: { total_count: number } };
  const newest = async (query = '') => waitFor(async () => (await list(query)).data[0], 10_000, 'an invocation');

  it('records an HTTP run exactly, with its answer, logs and emits, and replays it with the same bytes', async () => {
    const body = JSON.stringify({ order: 42, note: 'ünïcode' });
    const res = await fetch(`${source.endpoint}/orders/new?id=first&tag=a&tag=b`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-agent': 'test-suite' }, body });
    assert.equal(res.status, 201);
    const recorded = await newest('?trigger=http');
    assert.equal(recorded.status, 'ok');
    assert.deepEqual({ method: recorded.request!.method, path: recorded.request!.path, query: recorded.request!.query, body: recorded.request!.body, size: recorded.request!.body_size }, { method: 'POST', path: '/orders/new', query: 'id=first&tag=a&tag=b', body, size: Buffer.byteLength(body) });
    assert.equal(recorded.request!.headers['x-agent'], 'test-suite');
    assert.equal(recorded.response!.status, 201);
    assert.equal(recorded.response!.from, 'component');
    assert.equal(recorded.response!.headers['x-answered'], 'yes');
    assert.deepEqual(JSON.parse(recorded.response!.body), { seen: body.length });
    assert.match(recorded.logs.map((l) => l.message).join('\n'), /got POST \/orders\/new/);
    assert.equal(recorded.emits.length, 1);
    assert.ok(recorded.emits[0]!.event_id);

    const replay = await spout.api('POST', `/v1/invocations/${recorded.id}/replay`);
    assert.equal(replay.status, 200, JSON.stringify(replay.json));
    const again = replay.json.data as Invocation;
    assert.equal(again.replay_of, recorded.id);
    assert.notEqual(again.id, recorded.id);
    assert.deepEqual({ ...again.request, headers: undefined }, { ...recorded.request, headers: undefined });
    assert.equal(again.request!.headers['x-agent'], 'test-suite');
    assert.equal(again.request!.headers['x-spout-replay-of'], undefined, 'the replay marker is not part of the request');
    // The same dedupe id: the replayed emit was dropped, and its record says so.
    assert.deepEqual(
      again.emits.map((e) => e.dropped),
      [true],
    );
  });

  it('links events to the run that emitted them, and searches every stored event on the service', async () => {
    const recorded = (await list('?trigger=http&limit=100')).data.at(-1)!;
    const events = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=100`)).json.data as Array<{ id: string; invocation_id: string | null }>;
    const emitted = events.find((e) => e.id === recorded.emits[0]!.event_id);
    assert.equal(emitted?.invocation_id, recorded.id);
    const found = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?q=%C3%BCN%C3%AFCODE`)).json.data as Array<{ id: string }>;
    assert.deepEqual(
      found.map((e) => e.id),
      [emitted!.id],
    );
    assert.equal((await spout.api('GET', `/v1/sources/${source.id}/event_summaries?q=nothing-like-this`)).json.data.length, 0);
  });

  it('replays with edits, and binary bodies byte for byte', async () => {
    const recorded = await newest('?trigger=http');
    const edited = (await spout.api('POST', `/v1/invocations/${recorded.id}/replay`, { path: '/edited', query: 'id=edited', body: 'changed', headers: { 'x-agent': 'editor' } })).json.data as Invocation;
    assert.deepEqual([edited.request!.path, edited.request!.query, edited.request!.body, edited.request!.headers['x-agent']], ['/edited', 'id=edited', 'changed', 'editor']);
    const bytes = Buffer.from([0, 255, 1, 254, 10, 13, 128]);
    await fetch(`${source.endpoint}?id=binary`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
    const binary = await waitFor(async () => (await list('?q=binary')).data.find((r) => r.request?.method === 'PUT'), 10_000, 'the binary request');
    assert.equal(binary.request!.body_encoding, 'base64');
    assert.deepEqual(Buffer.from(binary.request!.body, 'base64'), bytes);
    const again = (await spout.api('POST', `/v1/invocations/${binary.id}/replay`)).json.data as Invocation;
    assert.equal(again.request!.body, binary.request!.body);
  });

  it('records a throwing run with its error, a stack that starts at the component’s line, and the answer the caller got', async () => {
    const res = await fetch(`${source.endpoint}?fail=1`, { method: 'POST' });
    assert.equal(res.status, 502);
    const failed = await newest('?status=error');
    assert.equal(failed.error!.message, 'failed on purpose');
    const firstFrame = failed.error!.stack.split('\n')[1] ?? '';
    assert.match(firstFrame, /inspected\.mjs:9:13\)?$/, `first frame: ${firstFrame}`);
    assert.doesNotMatch(failed.error!.stack, /host\.cjs|node:internal/, 'runtime frames are hidden');
    assert.match(failed.error!.full_stack, /host\.cjs/, 'and kept in the full stack');
    assert.equal(failed.response!.status, 502);
    assert.equal(failed.response!.from, 'service');
    const logs = (await spout.api('GET', `/v1/sources/${source.id}/logs`)).json.data as Array<{ message: string }>;
    assert.ok(
      logs.some((l) => /failed on purpose\n\s+at .*inspected\.mjs:9:13/.test(l.message)),
      'the log shows the component’s line too',
    );
  });

  it('filters by status, trigger, time and text, and records the deploy hooks', async () => {
    const all = await list('?limit=100');
    assert.ok(all.data.every((r) => r.trigger === 'http' || r.trigger === 'hook'));
    assert.ok((await list('?status=error')).data.every((r) => r.status === 'error'));
    assert.equal((await list('?q=FAILED%20ON%20PURPOSE')).data.length, 1);
    assert.equal((await list(`?since=${Date.now() + 60_000}`)).data.length, 0);
    const hooked = await deploySource(
      spout,
      `export default { name: "Hooked", version: "0.0.1", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } } },
      hooks: { async deploy() { console.log("deploying"); this.$emit({ from: "deploy" }); } }, async run(event) { this.$emit(event); } };`,
    );
    const records = await waitFor(
      async () => {
        const data = (await spout.api('GET', `/v1/sources/${hooked.id}/invocations?limit=100`)).json.data as Invocation[];
        return data.some((r) => r.trigger === 'timer') ? data : null;
      },
      10_000,
      'a timer invocation',
    );
    const deploy = records.find((r) => r.hook === 'deploy')!;
    assert.equal(deploy.trigger, 'hook');
    assert.equal(deploy.emits.length, 1);
    assert.equal(deploy.logs[0]!.message, 'deploying');
    const timer = records.find((r) => r.trigger === 'timer')!;
    assert.equal(typeof (timer.event as { timestamp: number }).timestamp, 'number');
    const replay = await spout.api('POST', `/v1/invocations/${deploy.id}/replay`);
    assert.equal(replay.status, 409);
    const timerReplay = await spout.api('POST', `/v1/invocations/${timer.id}/replay`);
    assert.equal(timerReplay.status, 200);
    assert.equal(timerReplay.json.data.trigger, 'timer');
    await spout.api('DELETE', `/v1/sources/${hooked.id}`);
  });

  it('lists the deliveries an invocation’s events caused, and streams new invocations', async () => {
    const webhook = (await spout.api('POST', '/v1/webhooks', { url: receiver.url })).json.data as { id: string };
    await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: webhook.id });
    const abort = new AbortController();
    const streamed = readSse(`${spout.url}/sse/dc/${source.id}/invocations`, spout.apiKey, 1, abort.signal);
    // The stream is open once the request that follows is recorded on it.
    await new Promise((r) => setTimeout(r, 300));
    await fetch(`${source.endpoint}?id=delivered`, { method: 'POST', body: 'x' });
    const [item] = await streamed;
    abort.abort();
    const record = item!.data as Invocation;
    assert.equal(record.request!.query, 'id=delivered');
    assert.deepEqual(record.emits[0]!.webhooks, [webhook.id]);
    await waitFor(() => receiver.received.length >= 1, 10_000, 'the delivery to arrive');
    const detail = await waitFor(
      async () => {
        const d = (await spout.api('GET', `/v1/invocations/${record.id}`)).json.data as { deliveries: Array<{ webhook_id: string; status: string }> };
        return d.deliveries[0]?.status === 'delivered' ? d : null;
      },
      10_000,
      'the delivery',
    );
    assert.equal(detail.deliveries[0]!.webhook_id, webhook.id);
  });

  // Not a race: a run the API lists is already in its file (issue 42; test/runtime/store/invocation-store.test.ts).
  it('keeps invocations and logs across a restart and a kill -9', async () => {
    const before = (await list('?limit=100')).page_info.total_count;
    await fetch(`${source.endpoint}?id=last-before-kill`, { method: 'POST', body: 'last' });
    await waitFor(async () => (await list('?limit=100')).page_info.total_count > before, 10_000, 'the last invocation');
    await spout.kill();
    spout = await startSpout({ dataDir });
    const kept = await list('?limit=100');
    assert.equal(kept.page_info.total_count, before + 1);
    assert.equal(kept.data[0]!.request!.query, 'id=last-before-kill');
    const logs = (await spout.api('GET', `/v1/sources/${source.id}/logs?limit=100`)).json.data as Array<{ message: string }>;
    assert.ok(
      logs.some((l) => l.message === 'got POST /'),
      'log lines survived',
    );
    await spout.stop();
    spout = await startSpout({ dataDir });
    assert.equal((await list('?limit=100')).page_info.total_count, before + 1);
  });
});
