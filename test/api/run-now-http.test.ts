// Run now on a source with an HTTP interface sends it a request through its endpoint (issue 43,
// point 6): the default request, the last one received, a given one or a saved payload; the event
// is the one a real request makes and the run is recorded with its request. Saved payloads: CRUD,
// limits, removed with the source. A source with a timer too runs its timer unless asked.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout } from '../helpers/service';

/** Emits what a request's body says, and the event's shape. Written for this test. */
const ORDERS = `export default {
  name: "Run now orders",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    console.log("order", event.body.x);
    this.$emit({ x: event.body.x ?? null, method: event.method, path: event.path, query: event.query, host: event.headers.host, keys: Object.keys(event).sort(), url: event.url }, { summary: "order " + event.body.x });
  },
};
`;

/** Has a timer and an HTTP interface; says which one ran it. */
const BOTH = `export default {
  name: "Run now both",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" }, timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } } },
  async run(event) { this.$emit({ via: event.method ? "http" : "timer", x: event.body?.x ?? null }); },
};
`;

type Emitted = { x: unknown; method: string; path: string; query: Record<string, unknown>; host: string; keys: string[]; url: string };

describe('run now on an HTTP source', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  const run = async (id: string, body?: unknown) => {
    const res = await spout.api('POST', `/v1/sources/${id}/run`, body);
    return res;
  };
  const event = async (id: string, eventId: string): Promise<Emitted> => (await spout.api('GET', `/v1/sources/${id}/event_summaries/${eventId}`)).json.data.event as Emitted;

  it('sends the default request, then the last request received, then a given one; each recorded with its request', async () => {
    const source = await deploySource(spout, ORDERS);
    const prefill = await spout.api('GET', `/v1/sources/${source.id}/run/request`);
    assert.equal(prefill.status, 200);
    assert.equal(prefill.json.data.from, 'default');
    assert.deepEqual(prefill.json.data.request, { method: 'POST', path: '/', query: '', headers: { 'content-type': 'application/json' }, body: '{}' });

    const first = await run(source.id);
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.equal(first.json.data.error, null, 'no TypeError: the run got a request event');
    assert.equal(first.json.data.request.method, 'POST');
    assert.equal(first.json.data.request.body, '{}');
    assert.equal(first.json.data.response.status, 200);
    assert.equal(first.json.data.response.body, '{"success":true}');
    const defaulted = await event(source.id, first.json.data.emitted[0]);
    assert.equal(defaulted.x, null);

    // A real request: run now's event has exactly its shape.
    const real = await fetch(`${source.endpoint}/orders?via=curl`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: 'from a real request' }) });
    assert.equal(real.status, 200);
    const fromReal = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=1&expand=event`)).json.data[0].event as Emitted;

    const again = await run(source.id);
    assert.equal(again.json.data.error, null);
    const replayed = await event(source.id, again.json.data.emitted[0]);
    assert.equal(replayed.x, 'from a real request', 'the last request received is sent again');
    assert.equal(replayed.path, '/orders');
    assert.deepEqual(replayed.query, { via: 'curl' });
    assert.deepEqual(replayed.keys, fromReal.keys);
    assert.deepEqual(defaulted.keys, fromReal.keys, 'the default request makes the event a real request makes');
    assert.equal(defaulted.host, new URL(source.endpoint).host);
    assert.equal(defaulted.url, source.endpoint);

    const given = await run(source.id, { body: JSON.stringify({ x: 'edited' }), path: '/edited', query: 'a=1', headers: { 'content-type': 'application/json', 'x-test': 'yes' } });
    assert.equal(given.status, 200, JSON.stringify(given.json));
    const edited = await event(source.id, given.json.data.emitted[0]);
    assert.equal(edited.x, 'edited');
    assert.equal(edited.path, '/edited');
    assert.deepEqual(edited.query, { a: '1' });

    // The run is recorded as a request to the endpoint, with the request as sent.
    const record = (await spout.api('GET', `/v1/invocations/${given.json.data.invocation_id}`)).json.data;
    assert.equal(record.trigger, 'http');
    assert.equal(record.request.body, '{"x":"edited"}');
    assert.equal(record.request.headers['x-test'], 'yes');
    assert.equal(record.request.headers['x-spout-run-now'], undefined, 'the run-now marker is not recorded');
    assert.equal(record.logs[0].message, 'order edited');

    // The edited request is now the last one: the prefill shows it.
    const now = await spout.api('GET', `/v1/sources/${source.id}/run/request`);
    assert.equal(now.json.data.from, 'last_request');
    assert.equal(now.json.data.invocation_id, given.json.data.invocation_id);
    assert.equal(now.json.data.request.body, '{"x":"edited"}');
    await spout.api('DELETE', `/v1/sources/${source.id}`);
  });

  it('sends a saved payload, keeps the library within its limits, and removes it with the source', async () => {
    const source = await deploySource(spout, ORDERS);
    const saved = await spout.api('POST', `/v1/sources/${source.id}/payloads`, { name: 'big order', body: JSON.stringify({ x: 'saved' }) });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    assert.equal(saved.json.data.method, 'POST');
    assert.deepEqual(saved.json.data.headers, { 'content-type': 'application/json' });

    const ran = await run(source.id, { payload: 'big order' });
    assert.equal(ran.status, 200, JSON.stringify(ran.json));
    assert.equal((await event(source.id, ran.json.data.emitted[0])).x, 'saved');
    // Fields beside a payload replace its own.
    const over = await run(source.id, { payload: 'big order', path: '/rush' });
    assert.equal((await event(source.id, over.json.data.emitted[0])).path, '/rush');

    const replaced = await spout.api('PUT', `/v1/sources/${source.id}/payloads/big%20order`, { body: JSON.stringify({ x: 'replaced' }) });
    assert.equal(replaced.status, 200);
    assert.equal(replaced.json.data.created_at, saved.json.data.created_at);
    assert.equal((await spout.api('GET', `/v1/sources/${source.id}/payloads/big%20order`)).json.data.body, '{"x":"replaced"}');
    assert.equal((await event(source.id, (await run(source.id, { payload: 'big order' })).json.data.emitted[0])).x, 'replaced');

    // Limits and mistakes: each a 4xx that says what to do.
    const dup = await spout.api('POST', `/v1/sources/${source.id}/payloads`, { name: 'big order' });
    assert.equal(dup.status, 409);
    assert.match(dup.json.error, /already has a saved payload named "big order"; replace it with PUT/);
    const badName = await spout.api('POST', `/v1/sources/${source.id}/payloads`, { name: '../x' });
    assert.equal(badName.status, 400);
    assert.equal(badName.json.errors[0].path, 'name');
    const huge = await spout.api('POST', `/v1/sources/${source.id}/payloads`, { name: 'huge', body: 'x'.repeat(300 * 1024) });
    assert.equal(huge.status, 413);
    assert.match(huge.json.error, /at most 256 KB/);
    for (let i = 1; i < 20; i++) assert.equal((await spout.api('POST', `/v1/sources/${source.id}/payloads`, { name: `p${i}` })).status, 200);
    const full = await spout.api('POST', `/v1/sources/${source.id}/payloads`, { name: 'p20' });
    assert.equal(full.status, 409);
    assert.match(full.json.error, /already has 20 saved payloads, the most a source keeps; delete one/);
    const list = await spout.api('GET', `/v1/sources/${source.id}/payloads?limit=100`);
    assert.equal(list.json.page_info.total_count, 20);
    assert.equal(list.json.data[0].name, 'p19', 'newest first');
    assert.equal((await spout.api('DELETE', `/v1/sources/${source.id}/payloads/p19`)).status, 204);
    assert.equal((await spout.api('DELETE', `/v1/sources/${source.id}/payloads/p19`)).status, 404);
    const unknown = await run(source.id, { payload: 'p19' });
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.error, /has no saved payload named "p19"; GET .*\/payloads lists them/);

    // Stored durably with the source's data, and removed with it.
    const file = path.join(spout.dataDir, 'payloads', `${source.id}.json`);
    assert.ok(fs.existsSync(file));
    assert.equal((await spout.api('DELETE', `/v1/sources/${source.id}`)).status, 204);
    assert.equal(fs.existsSync(file), false);
  });

  it('answers an endpoint refusal with its status, and bad requests with a 4xx', async () => {
    const source = await deploySource(spout, ORDERS);
    const deep = await run(source.id, { body: `${'['.repeat(300)}${']'.repeat(300)}` });
    assert.equal(deep.status, 400);
    assert.match(deep.json.error, /answered 400 without running it: the request body nests/);
    const badMethod = await run(source.id, { method: 'PO ST' });
    assert.equal(badMethod.status, 400);
    const badHeader = await run(source.id, { headers: { 'x-a': 'b\nc' } });
    assert.equal(badHeader.status, 400);
    assert.match(badHeader.json.error, /headers\.x-a/);
    assert.equal((await run(source.id, { trigger: 'timer' })).status, 409);
    await spout.api('PUT', `/v1/sources/${source.id}`, { active: false });
    const inactive = await run(source.id);
    assert.equal(inactive.status, 409);
    assert.match(inactive.json.error, /is inactive.*activate it/);
    await spout.api('DELETE', `/v1/sources/${source.id}`);
  });

  it('runs a source with a timer and an HTTP interface with its timer unless asked for a request', async () => {
    const source = await deploySource(spout, BOTH);
    const timer = await run(source.id);
    assert.equal((await event(source.id, timer.json.data.emitted[0])).x, null);
    assert.equal(((await event(source.id, timer.json.data.emitted[0])) as unknown as { via: string }).via, 'timer');
    const http = await run(source.id, { trigger: 'http', body: '{"x":1}' });
    assert.equal(((await event(source.id, http.json.data.emitted[0])) as unknown as { via: string }).via, 'http');
    assert.equal((await event(source.id, http.json.data.emitted[0])).x, 1);
    const timerOnly = await deploySource(spout, `export default { name: "Tick only", version: "0.1.0", props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } } }, async run() {} };`);
    const refused = await run(timerOnly.id, { body: '{}' });
    assert.equal(refused.status, 409);
    assert.match(refused.json.error, /has no HTTP interface prop/);
  });
});
