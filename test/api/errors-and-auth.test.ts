// The API's guard rails: key, Host check, error shape, and 4xx for bad input.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout } from '../helpers/service';

function assertProblem(res: { status: number; json: any; headers: Headers }, status: number) {
  assert.equal(res.status, status, JSON.stringify(res.json));
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(res.json.status, status);
  assert.equal(typeof res.json.title, 'string');
  assert.equal(typeof res.json.detail, 'string');
  assert.equal(res.json.error, res.json.detail);
}

describe('/v1 guard rails', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  it('answers 401 without the key or with a wrong one', async () => {
    const none = await fetch(`${spout.url}/v1/users/me/webhooks`);
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as { status: number }).status, 401);
    assertProblem(await spout.api('GET', '/v1/users/me/webhooks', undefined, { authorization: 'Bearer wrong' }), 401);
    assert.equal((await fetch(`${spout.url}/sse/dc/dc_x/emits`)).status, 401);
  });

  it('answers 403 to a foreign Host or Origin (DNS rebinding)', async () => {
    // fetch cannot set Host, so these go through node:http.
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; json: any }>((resolve, reject) => {
        const req = http.get(`${spout.url}/v1/users/me/webhooks`, { headers: { authorization: `Bearer ${spout.apiKey}`, ...headers } }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
        });
        req.on('error', reject);
      });
    const port = new URL(spout.url).port;
    const foreign = await get({ host: `attacker.example:${port}` });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.status, 403);
    assert.equal((await get({ host: `localhost:${port}`, origin: 'http://attacker.example' })).status, 403);
    assert.equal((await get({ host: `localhost:${port}` })).status, 200);
    assert.equal((await get({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })).status, 200);
    const ui = await new Promise<number>((resolve) => http.get(`${spout.url}/`, { headers: { host: 'attacker.example' } }, (res) => resolve(res.statusCode ?? 0)));
    assert.equal(ui, 403);
  });

  it('answers 404 with the error shape for unknown ids and routes', async () => {
    assertProblem(await spout.api('GET', '/v1/webhooks/wh_unknown'), 404);
    assertProblem(await spout.api('GET', '/v1/sources/dc_unknown'), 404);
    assertProblem(await spout.api('GET', '/v1/sources/dc_unknown/event_summaries'), 404);
    assertProblem(await spout.api('POST', '/v1/subscriptions?emitter_id=dc_unknown&listener_id=wh_unknown'), 404);
    assertProblem(await spout.api('GET', '/v1/no/such/route'), 404);
  });

  it('answers 400, never 500, to malformed parameters', async () => {
    const bad: Array<[string, string, unknown?]> = [
      ['POST', '/v1/webhooks'],
      ['POST', '/v1/webhooks?url=notaurl'],
      ['POST', '/v1/webhooks?url=ftp://example.com/x'],
      ['POST', '/v1/webhooks', { url: 42 }],
      ['POST', '/v1/webhooks?url=http://a/&url=http://b/'],
      ['POST', '/v1/subscriptions?emitter_id=nope&listener_id=wh_x'],
      ['POST', '/v1/subscriptions'],
      ['GET', '/v1/users/me/webhooks?limit=0'],
      ['GET', '/v1/users/me/webhooks?limit=abc'],
      ['POST', '/v1/sources', { component_code: '' }],
      ['POST', '/v1/sources', { component_code: 'export default {' }],
      ['POST', '/v1/sources', { component_code: 'export default { name: "x", version: "1", type: "action" }' }],
      ['POST', '/v1/sources', { component_code: 'throw new Error("boom at load")' }],
      ['POST', '/v1/sources', { component_code: 'export default { name: "x", version: "1", run() {} }', configured_props: 'nope' }],
    ];
    for (const [method, route, body] of bad) {
      const res = await spout.api(method, route, body);
      assertProblem(res, 400);
    }
    const raw = await fetch(`${spout.url}/v1/webhooks`, { method: 'POST', headers: { authorization: `Bearer ${spout.apiKey}`, 'content-type': 'application/json' }, body: '{not json' });
    assert.equal(raw.status, 400);
  });

  it('reports every problem of an invalid component with its path', async () => {
    const res = await spout.api('POST', '/v1/sources', { component_code: 'export default { type: "action", props: { n: { type: "number", default: 1 } } }' });
    assertProblem(res, 400);
    const paths = res.json.errors.map((e: { path: string }) => e.path).sort();
    assert.deepEqual(paths, ['name', 'props.n.type', 'run', 'version']);
    // Warnings found beside the errors come too.
    assert.deepEqual(
      res.json.warnings.map((e: { path: string }) => e.path),
      ['props.n.default'],
    );
  });

  it('fails a deploy whose hook throws and keeps nothing of it', async () => {
    const code = `export default { name: "Bad hook", version: "1.0.0", props: { http: "$.interface.http" },
      hooks: { async deploy() { throw new Error("cannot reach the API"); } }, async run() {} };`;
    const res = await spout.api('POST', '/v1/sources', { component_code: code });
    assertProblem(res, 400);
    assert.match(res.json.detail, /deploy\(\) hook failed: cannot reach the API/);
    const list = await spout.api('GET', '/v1/users/me/sources?limit=100');
    assert.ok(!list.json.data.some((s: { name: string }) => s.name === 'Bad hook'));
  });

  it('never shows a signing secret again after creation, except on its own route', async () => {
    const created = await spout.api('POST', '/v1/webhooks?url=http://127.0.0.1:9/x');
    const id = created.json.data.id;
    const read = await spout.api('GET', `/v1/webhooks/${id}`);
    assert.equal(read.json.data.signing_secret, undefined);
    const secret = await spout.api('GET', `/v1/webhooks/${id}/secret`);
    assert.equal(secret.json.data.signing_secret, created.json.data.signing_secret);
    const fs = await import('node:fs');
    const stored = fs.readFileSync(`${spout.dataDir}/metadata.json`, 'utf8');
    assert.ok(!stored.includes(created.json.data.signing_secret.slice(6)), 'the secret is encrypted at rest');
  });

  it('serves a source endpoint with CORS, and survives a run that throws', async () => {
    const code = `export default { name: "Thrower", version: "1.0.0", props: { http: "$.interface.http" },
      async run() { throw new Error("run failed"); } };`;
    const source = await deploySource(spout, code);
    const res = await fetch(source.endpoint, { method: 'POST' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const preflight = await fetch(source.endpoint, { method: 'OPTIONS' });
    assert.equal(preflight.status, 204);
    const logs = await spout.api('GET', `/v1/sources/${source.id}/logs`);
    assert.match(logs.json.data[0].message, /run failed/);
  });
});
