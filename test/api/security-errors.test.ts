// Issue 12: every error the service sends is application/problem+json with the API's shape, the
// ones node:http and express used to answer by themselves included (HTML 404s, bare 431s, …).
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are (no client would send most of these) and reads the whole answer. */
function raw(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // Written, not ended: a half-closed socket may be dropped before a slow answer is sent.
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let body = rest.join('\r\n\r\n');
      // Chunked answers: keep the JSON between the size lines.
      if (headers['transfer-encoding'] === 'chunked')
        body = body
          .split('\r\n')
          .filter((_, i) => i % 2 === 1)
          .join('');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

function assertProblem(answer: RawAnswer, status: number, what: string, detail?: RegExp): void {
  assert.equal(answer.status, status, `${what}: ${answer.body.slice(0, 200)}`);
  assert.match(answer.headers['content-type'] ?? '', /^application\/problem\+json/, what);
  const problem = JSON.parse(answer.body) as { type: string; title: string; status: number; detail: string; error: string };
  assert.equal(problem.status, status, what);
  assert.equal(problem.type, 'about:blank', what);
  assert.equal(typeof problem.title, 'string', what);
  assert.equal(problem.error, problem.detail, what);
  if (detail) assert.match(problem.detail, detail, what);
}

describe('every error is problem+json', () => {
  let spout: SpoutProcess;
  let port: number;
  let auth: string;
  before(async () => {
    spout = await startSpout();
    port = Number(new URL(spout.url).port);
    auth = `Authorization: Bearer ${spout.apiKey}\r\n`;
  });
  after(async () => void (await spout.stop()));

  const get = (path: string, extra = '') => raw(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}Connection: close\r\n\r\n`);
  const send = (method: string, path: string, extra = '', body = '') => raw(port, `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);

  it('answers unknown routes outside /v1 with a problem, not an HTML page', async () => {
    assertProblem(await send('POST', '/nope', auth), 404, 'POST /nope', /not a route of this service/);
    assertProblem(await get('/sse/nope', auth), 404, 'GET /sse/nope');
    assertProblem(await get('/assets/missing.js', auth), 404, 'a missing UI file');
    assertProblem(await send('DELETE', '/assets/app.js', auth), 405, 'DELETE of a UI file');
  });

  it('answers a known /v1 path called with another method 405 with Allow', async () => {
    const list = await send('DELETE', '/v1/users/me/webhooks', auth);
    assertProblem(list, 405, 'DELETE a list', /takes GET, HEAD/);
    assert.equal(list.headers.allow, 'GET, HEAD');
    const one = await send('PATCH', '/v1/webhooks/wh_x', auth);
    assertProblem(one, 405, 'PATCH a webhook');
    assert.equal(one.headers.allow, 'DELETE, GET, HEAD, PUT');
    assertProblem(await get('/v1/no/such/route', auth), 404, 'an unknown /v1 route');
  });

  it('answers what node:http refuses by itself as problems too', async () => {
    assertProblem(await get(`/v1/${'a'.repeat(20_000)}`, auth), 431, 'an over-long URL', /16 KB/);
    assertProblem(await get('/v1/users/me/webhooks', `${auth}X-Big: ${'b'.repeat(20_000)}\r\n`), 431, 'an over-long header block');
    assertProblem(await raw(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBroken header line\r\n\r\n`), 400, 'malformed headers', /not valid HTTP/);
    assertProblem(await raw(port, `BREW /pot HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`), 400, 'an unknown method');
    assertProblem(await raw(port, `GET /v1/users/me/webhooks HTTP/1.1\r\n${auth}Connection: close\r\n\r\n`), 400, 'no Host', /no Host header/);
    assertProblem(await send('POST', '/v1/webhooks', `${auth}Expect: 200-ok\r\n`, '{}'), 417, 'an unmet Expect');
    assertProblem(await raw(port, `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n`), 405, 'CONNECT', /not a proxy/);
    assertProblem(await raw(port, `POST /v1/webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Transfer-Encoding: chunked\r\n\r\nzz\r\n`), 400, 'bad chunked encoding');
  });

  it('answers bad bodies and bad paths with problems', async () => {
    const json = `${auth}Content-Type: application/json\r\n`;
    assertProblem(await send('POST', '/v1/webhooks', json, '{not json'), 400, 'bad JSON', /not valid JSON/);
    assertProblem(await send('POST', '/v1/webhooks', `${auth}Content-Type: application/json; charset=klingon\r\n`, '{}'), 415, 'an unknown charset');
    assertProblem(await send('POST', '/v1/webhooks', `${json}Content-Encoding: gzip\r\n`, '{}'), 400, 'a body that is not gzip');
    assertProblem(await send('POST', '/v1/webhooks', json, JSON.stringify({ url: 'x'.repeat(11 * 1024 * 1024) })), 413, 'an 11 MB body');
    assertProblem(await get('/v1/sources/%E0%A4%A', auth), 400, 'bad percent-encoding');
    assertProblem(await raw(port, `GET /v1/users/me/webhooks HTTP/1.1\r\nHost: evil.example:${port}\r\n${auth}Connection: close\r\n\r\n`), 403, 'a foreign Host (rebinding)');
  });

  it('answers a non-browser client of the UI 401 as a problem, and a browser with the sign-in page', async () => {
    assertProblem(await get('/'), 401, 'GET / without a session', /UI sign-in link in this browser \(`spout ui` prints a new one/);
    const page = await get('/', 'Accept: text/html,application/xhtml+xml,*/*;q=0.8\r\n');
    assert.equal(page.status, 401);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
  });
});
