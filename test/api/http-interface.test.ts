// The HTTP interface end to end: the event a run receives, default and custom responses, CORS,
// the body limit and inactive sources.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout } from '../helpers/service';

/** Emits the whole event it receives (written for this test). */
const CAPTURE = `
export default {
  name: "Capture",
  version: "0.0.1",
  props: { http: "$.interface.http" },
  async run(event) { this.$emit(event); },
};`;

/** Answers as the request body says (written for this test). */
const RESPONDER = `
export default {
  name: "Responder",
  version: "0.0.1",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    const how = event.body?.how;
    if (how === "object") return this.http.respond({ status: "201", headers: { "x-made-by": "spout-test" }, body: { created: true } });
    if (how === "text") return this.http.respond({ status: 202, headers: { "content-type": "text/plain" }, body: "accepted" });
    if (how === "bytes") return this.http.respond({ status: 200, headers: { "content-type": "application/octet-stream" }, body: Buffer.from([0, 1, 2, 254, 255]) });
    if (how === "no-content") return this.http.respond({ status: 204 });
    if (how === "own-length") return this.http.respond({ status: 200, headers: { "Content-Length": "2" }, body: "ok" });
    if (how === "then-throw") { this.http.respond({ status: 200, body: "answered first" }); throw new Error("after responding"); }
    if (how === "throw") throw new Error("failed before responding");
    // "silent": never responds
  },
};`;

describe('HTTP interface', () => {
  let spout: SpoutProcess;
  let capture: { id: string; endpoint: string };
  let responder: { id: string; endpoint: string };
  before(async () => {
    spout = await startSpout();
    capture = await deploySource(spout, CAPTURE);
    responder = await deploySource(spout, RESPONDER);
  });
  after(async () => void (await spout.stop()));

  const lastEvent = async () => (await spout.api('GET', `/v1/sources/${capture.id}/event_summaries?limit=1&expand=event`)).json.data[0].event;

  it('gives run every method, the sub-path, query, headers and the body both raw and parsed', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await fetch(`${capture.endpoint}/orders/a%20b?x=1&x=2&y=z`, { method, headers: { 'x-test': method } });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { success: true });
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      const e = await lastEvent();
      assert.equal(e.method, method);
      assert.equal(e.path, '/orders/a b');
      assert.deepEqual(e.query, { x: ['1', '2'], y: 'z' });
      assert.equal(e.headers['x-test'], method);
    }

    const json = '{ "a" : 1,\n  "name": "Zoë ✓" }';
    await fetch(capture.endpoint, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: json });
    let e = await lastEvent();
    assert.equal(e.bodyRaw, json, 'bodyRaw is the text exactly as sent, for signature checks');
    assert.deepEqual(e.body, { a: 1, name: 'Zoë ✓' });

    await fetch(capture.endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=x%20y&b=2' });
    e = await lastEvent();
    assert.deepEqual(e.body, { a: '1', b: ['x y', '2'] });
    assert.equal(e.bodyRaw, 'a=1&b=x%20y&b=2');

    await fetch(capture.endpoint, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'just text' });
    assert.equal((await lastEvent()).body, 'just text');
  });

  it('answers with what respond() sends: object, string and Buffer bodies, numeric-string status', async () => {
    const call = (how: string) => fetch(responder.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ how }) });
    const object = await call('object');
    assert.equal(object.status, 201);
    assert.equal(object.headers.get('x-made-by'), 'spout-test');
    assert.match(object.headers.get('content-type') ?? '', /application\/json/);
    assert.deepEqual(await object.json(), { created: true });

    const text = await call('text');
    assert.equal(text.status, 202);
    assert.equal(await text.text(), 'accepted');

    const bytes = await call('bytes');
    assert.deepEqual([...new Uint8Array(await bytes.arrayBuffer())], [0, 1, 2, 254, 255]);

    const first = await call('then-throw');
    assert.equal(first.status, 200);
    assert.equal(await first.text(), 'answered first');
  });

  it('sends each answer with its length, not in chunks, and a 204 with neither', async () => {
    /** The headers of an answer as they came over the wire. */
    const head = (url: string, how?: string) =>
      new Promise<{ status?: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ how }));
      });
    const service = (await head(capture.endpoint)).headers;
    assert.equal(service['content-length'], String(Buffer.byteLength(JSON.stringify({ success: true }))));
    assert.equal(service['transfer-encoding'], undefined);
    const text = (await head(responder.endpoint, 'text')).headers;
    assert.equal(text['content-length'], '8');
    assert.equal(text['transfer-encoding'], undefined);
    assert.equal((await head(responder.endpoint, 'own-length')).headers['content-length'], '2');
    const empty = await head(responder.endpoint, 'no-content');
    assert.equal(empty.status, 204);
    assert.equal(empty.headers['content-length'], undefined);
    assert.equal(empty.headers['transfer-encoding'], undefined);
    const missing = await head(capture.endpoint.replace(/\/e\/[^/]+/, '/e/en_missing'));
    assert.equal(missing.status, 404);
    assert.ok(Number(missing.headers['content-length']) > 0);
  });

  it('answers 502 naming why when a custom-response run never responds', async () => {
    const call = (how: string) => fetch(responder.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ how }) });
    const silent = await call('silent');
    assert.equal(silent.status, 502);
    assert.match(((await silent.json()) as { error: string }).error, /the source did not respond: its run ended without calling respond\(\)/);
    const thrown = await call('throw');
    assert.equal(thrown.status, 502);
    assert.match(((await thrown.json()) as { error: string }).error, /its run failed: failed before responding/);
  });

  it('answers CORS preflight requests', async () => {
    const res = await fetch(capture.endpoint, { method: 'OPTIONS', headers: { origin: 'https://example.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-signature' } });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-headers'), 'x-signature');
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
  });

  it('refuses a body over 5 MB with 413, declared or streamed', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 97);
    const declared = await fetch(capture.endpoint, { method: 'POST', body: big });
    assert.equal(declared.status, 413);
    // Chunked, with no length up front: the limit is found while reading.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(capture.endpoint, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 6; i++) req.write(Buffer.alloc(1024 * 1024, 98));
      req.end();
    });
    assert.equal(status, 413);
  });

  it('answers 404 while the source is inactive, and again after reactivation serves it', async () => {
    await spout.api('PUT', `/v1/sources/${capture.id}`, { active: false });
    const off = await fetch(capture.endpoint);
    assert.equal(off.status, 404);
    assert.match(((await off.json()) as { error: string }).error, /no active source or workflow has the endpoint/);
    await spout.api('PUT', `/v1/sources/${capture.id}`, { active: true });
    assert.equal((await fetch(capture.endpoint)).status, 200);
  });
});
