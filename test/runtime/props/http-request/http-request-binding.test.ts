// `http_request` props: the configured request is sent as configured and answers like axios.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { executeHttpRequest, httpRequestProp } from '../../../../runtime/props/http-request/http-request-binding';

describe('http_request props', () => {
  let server: http.Server;
  let base: string;
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (req.url?.startsWith('/missing')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"nope"}');
        if (req.url?.startsWith('/text')) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('plain');
        res.writeHead(200, { 'content-type': 'application/json', 'x-reply': 'yes' }).end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('sends the builder shape: name/value headers and params, JSON fields body, bearer auth', async () => {
    const prop = httpRequestProp({
      method: 'post',
      url: `${base}/items`,
      headers: [
        { name: 'x-team', value: 'blue' },
        { name: '', value: 'ignored' },
      ],
      params: [{ name: 'page', value: 2 }],
      body: { type: 'fields', fields: [{ name: 'title', value: 'Hi' }] },
      auth: { type: 'bearer', token: 't0k' },
    });
    assert.equal(prop.url, `${base}/items`);
    const res = await (prop.execute as () => Promise<{ status: number; headers: Record<string, string>; data: unknown }>)();
    assert.deepEqual([res.status, res.data, res.headers['x-reply']], [200, { ok: true }, 'yes']);
    const req = seen.at(-1)!;
    assert.deepEqual([req.method, req.url, req.headers['x-team'], req.headers.authorization, req.headers['content-type'], req.body], ['POST', '/items?page=2', 'blue', 'Bearer t0k', 'application/json', '{"title":"Hi"}']);
  });

  it('sends raw and form bodies and basic auth, and gives text when the answer is not JSON', async () => {
    await executeHttpRequest({ method: 'PUT', url: `${base}/raw`, body: { type: 'raw', contentType: 'text/csv', raw: 'a,b' }, auth: { type: 'basic', username: 'u', password: 'p' } });
    let req = seen.at(-1)!;
    assert.deepEqual([req.body, req.headers['content-type'], req.headers.authorization], ['a,b', 'text/csv', `Basic ${Buffer.from('u:p').toString('base64')}`]);
    await executeHttpRequest({ method: 'POST', url: `${base}/form`, body: { type: 'fields', contentType: 'application/x-www-form-urlencoded', fields: { a: '1 2' } } });
    req = seen.at(-1)!;
    assert.equal(req.body, 'a=1+2');
    assert.equal((await executeHttpRequest({ url: `${base}/text`, headers: { accept: 'text/plain' } })).data, 'plain');
  });

  it('rejects a 4xx answer with the response attached, and a missing url with a message', async () => {
    await assert.rejects(executeHttpRequest({ url: `${base}/missing` }), (err: Error & { response?: { status: number; data: unknown } }) => {
      assert.equal(err.message, 'Request failed with status code 404');
      assert.deepEqual(err.response?.data, { error: 'nope' });
      return true;
    });
    await assert.rejects(executeHttpRequest({}), /http_request: no url is configured/);
  });
});
