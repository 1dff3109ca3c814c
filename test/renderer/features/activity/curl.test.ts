// "Copy as cURL" from a recorded request: the command, run by bash and the real curl, sends the
// recorded request exactly (method, path, query, every header and no other, the body byte for
// byte), whatever the request holds: quotes, globbing characters, binary and NUL bytes, a body
// starting with "@", a body over what one argument may hold, empty headers, repeated headers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { curlForRequest, requestUrl } from '../../../../renderer/src/features/activity/curl';
import type { RecordedRequest } from '../../../../runtime/contract/invocation-api';

interface Received {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Headers curl sets for the connection and the body's framing. */
const FRAMING = new Set(['host', 'content-length']);

/** Runs a command as a pasted one is: bash reads it from its input (no argument-size limit). */
function run(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-s'], { stdio: ['pipe', 'ignore', 'pipe'], timeout: 20_000 });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bash exited ${code}:\n${stderr}`))));
    child.stdin.end(command);
  });
}

describe('Copy as cURL', () => {
  let server: http.Server;
  let base: string;
  let received: Received[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Array<[string, string]> = [];
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([(req.rawHeaders[i] as string).toLowerCase(), req.rawHeaders[i + 1] as string]);
        received.push({ method: req.method ?? '', url: req.url ?? '', headers, body: Buffer.concat(chunks) });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/e/en_test`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A recorded request to the test server. */
  const recorded = (r: Partial<RecordedRequest> & { bytes?: Buffer }): RecordedRequest => {
    const bytes = r.bytes ?? Buffer.alloc(0);
    const text = bytes.toString('utf8');
    const isText = Buffer.from(text, 'utf8').equals(bytes);
    return {
      method: 'POST',
      path: '/',
      query: '',
      headers: {},
      endpoint_url: base,
      body: isText ? text : bytes.toString('base64'),
      body_encoding: isText ? 'utf8' : 'base64',
      body_size: bytes.length,
      body_truncated: false,
      ...r,
    };
  };

  /** Sends `request` with its cURL command and checks what arrived. */
  async function roundTrip(request: RecordedRequest, bytes: Buffer): Promise<Received> {
    received = [];
    const command = curlForRequest(request);
    assert.ok(command);
    await run(command);
    const got = received[0];
    assert.ok(got, 'the request arrived');
    assert.equal(got.method, request.method);
    assert.equal(got.url, requestUrl(request).slice(new URL(base).origin.length), 'the path and query as sent');
    const expected = Object.entries(request.headers).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => [k.toLowerCase(), x] as [string, string]));
    assert.deepEqual(
      got.headers.filter(([k]) => !FRAMING.has(k)),
      expected,
      'every recorded header, in order, and none of curl’s own',
    );
    assert.deepEqual(got.body, bytes);
    return got;
  }

  it('sends a JSON body, the path and query as recorded, and only the recorded headers; a hostile header stays text', async () => {
    const pwned = path.join(os.tmpdir(), `spout-curl-pwned-${process.pid}`);
    const bytes = Buffer.from(`{"name": "O'Brien", "note": "ünïcode \\u0041", "$HOME": "\`date\`"}`);
    await roundTrip(
      recorded({
        path: '/orders/a b?#',
        query: 'a[]=1&b={x}&c=%20',
        headers: { 'content-type': 'application/json', 'x-custom': `it's "quoted"`, 'x-attack': `'; touch ${pwned}; echo '$(touch ${pwned})`, 'x-many': ['one', 'two'], 'x-empty': '' },
        bytes,
      }),
      bytes,
    );
    assert.equal(fs.existsSync(pwned), false, 'nothing in a header ran in the shell');
  });

  it('sends binary bytes, NUL bytes in text, a body starting with @, and a body bigger than one argument', async () => {
    const binary = Buffer.from([0xff, 0x00, 0xfe, 0x27, 0x0a, 0x80, 0x5c]);
    await roundTrip(recorded({ headers: { 'content-type': 'application/octet-stream' }, bytes: binary }), binary);
    const nul = Buffer.from('a\u0000b', 'utf8');
    await roundTrip(recorded({ headers: { 'content-type': 'text/plain' }, bytes: nul }), nul);
    const at = Buffer.from('@/etc/passwd');
    await roundTrip(recorded({ headers: { 'content-type': 'text/plain' }, bytes: at }), at);
    const big = Buffer.from(`${'x'.repeat(200 * 1024)}'end'`);
    await roundTrip(recorded({ headers: { 'content-type': 'text/plain', 'user-agent': 'my-client/1.0', accept: 'text/plain' }, bytes: big }), big);
  });

  it('sends GET, HEAD and DELETE without a body, and keeps a GET body', async () => {
    for (const method of ['GET', 'HEAD', 'DELETE']) await roundTrip(recorded({ method, headers: { 'x-only': method } }), Buffer.alloc(0));
    const body = Buffer.from('{"q": 1}');
    await roundTrip(recorded({ method: 'GET', headers: { 'content-type': 'application/json' }, bytes: body }), body);
  });

  it('gives no command for a body recorded only in part', () => {
    assert.equal(curlForRequest(recorded({ bytes: Buffer.from('first bytes'), body_size: 1_000_000, body_truncated: true })), null);
  });
});
