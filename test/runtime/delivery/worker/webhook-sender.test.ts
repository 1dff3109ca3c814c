import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HeaderRecords, HttpSender, RESPONSE_BODY_LIMIT } from '../../../../runtime/delivery/worker/webhook-sender';

describe('HttpSender', () => {
  let server: http.Server;
  let base = '';
  const sender = new HttpSender(300);

  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/big') return res.end('x'.repeat(RESPONSE_BODY_LIMIT + 5000));
        if (req.url === '/redirect') {
          res.writeHead(302, { location: '/ok' });
          return res.end();
        }
        if (req.url === '/hang') return; // never answers
        if (req.url === '/empty') {
          res.writeHead(204);
          return res.end();
        }
        if (req.url === '/drip') {
          // Answers at once, then sends its body too slowly to finish within the timeout.
          res.writeHead(200, { 'x-drip': 'yes' });
          const timer = setInterval(() => res.write('.'), 100);
          res.on('close', () => clearInterval(timer));
          return;
        }
        if (req.url === '/headers') {
          res.writeHead(429, [
            ['Retry-After', '7'],
            ['X-Multi', 'a'],
            ['X-Multi', 'b'],
          ]);
          return res.end('slow down');
        }
        res.writeHead(201);
        res.end(`got ${req.headers['x-test']}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await sender.close();
    server.closeAllConnections();
    server.close();
  });

  it('returns the status and body, with the headers it was given', async () => {
    const out = await sender.post(`${base}/ok`, { 'x-test': 'yes' }, '{}');
    assert.equal(out.status_code, 201);
    assert.equal(out.response_body, 'got yes');
    assert.equal(out.error, null);
  });

  it('reads an answer without a body as an empty body', async () => {
    const out = await sender.post(`${base}/empty`, {}, '{}');
    assert.deepEqual([out.status_code, out.response_body, out.error], [204, '', null]);
  });

  it('keeps at most 20 KB of a response body', async () => {
    const out = await sender.post(`${base}/big`, {}, '{}');
    assert.equal(out.response_body?.length, RESPONSE_BODY_LIMIT);
  });

  it('does not follow redirects', async () => {
    const out = await sender.post(`${base}/redirect`, {}, '{}');
    assert.equal(out.status_code, 302);
    assert.equal(out.response_headers?.location, '/ok');
  });

  it('reports a receiver that does not answer in time', async () => {
    const out = await sender.post(`${base}/hang`, {}, '{}');
    assert.equal(out.status_code, null);
    assert.equal(out.error, 'no response within 0.3 s');
  });

  it('returns the response headers, names in lower case and repeats joined', async () => {
    const out = await sender.post(`${base}/headers`, {}, '{}');
    assert.equal(out.status_code, 429);
    assert.equal(out.response_headers?.['retry-after'], '7');
    assert.equal(out.response_headers?.['x-multi'], 'a, b');
    assert.equal(out.response_body, 'slow down');
  });

  it('times out a response whose body does not finish in time', async () => {
    const out = await sender.post(`${base}/drip`, {}, '{}');
    assert.equal(out.status_code, null);
    assert.equal(out.error, 'no response within 0.3 s');
    assert.ok(out.duration_ms < 1000, `gave up after ${out.duration_ms} ms`);
  });

  it('reports a refused connection and a malformed URL without throwing', async () => {
    const refused = await sender.post('http://127.0.0.1:9/x', {}, '{}');
    assert.match(refused.error ?? '', /ECONNREFUSED/);
    const bad = await sender.post('not a url', {}, '{}');
    assert.equal(bad.status_code, null);
    assert.ok(bad.error);
  });
});

describe('HeaderRecords', () => {
  const raw = (...parts: string[]) => parts.map((part) => Buffer.from(part));

  it('hands out the same record while the bytes repeat, and a new one when they change', () => {
    const records = new HeaderRecords();
    const first = records.of(raw('Date', 'Tue, 24 Nov 2026 10:00:00 GMT', 'X-Multi', 'a', 'X-Multi', 'b'));
    assert.deepEqual(first, { date: 'Tue, 24 Nov 2026 10:00:00 GMT', 'x-multi': 'a, b' });
    assert.equal(records.of(raw('Date', 'Tue, 24 Nov 2026 10:00:00 GMT', 'X-Multi', 'a', 'X-Multi', 'b')), first);
    const next = records.of(raw('Date', 'Tue, 24 Nov 2026 10:00:01 GMT', 'X-Multi', 'a', 'X-Multi', 'b'));
    assert.notEqual(next, first);
    assert.equal(next.date, 'Tue, 24 Nov 2026 10:00:01 GMT');
    assert.deepEqual(first, { date: 'Tue, 24 Nov 2026 10:00:00 GMT', 'x-multi': 'a, b' }, 'a handed-out record never changes');
  });

  it('compares against its own copy of the bytes, not buffers the parser may reuse', () => {
    const records = new HeaderRecords();
    const parts = raw('X-Seq', '1');
    const first = records.of(parts);
    (parts[1] as Buffer)[0] = '2'.charCodeAt(0);
    const second = records.of(parts);
    assert.notEqual(second, first);
    assert.deepEqual([first['x-seq'], second['x-seq']], ['1', '2']);
  });

  it('reads no headers as an empty record', () => {
    assert.deepEqual(new HeaderRecords().of([]), {});
    assert.deepEqual(new HeaderRecords().of(null), {});
  });
});
