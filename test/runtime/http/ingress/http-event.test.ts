// The event an HTTP interface source receives carries Pipedream's fields (issue 21).
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { httpEvent } from '../../../../runtime/http/ingress/http-event';

function request(remoteAddress: string, headers: Record<string, string>, url = '/e/en_1/a?x=1'): IncomingMessage {
  return { method: 'POST', url, headers, socket: { remoteAddress } } as unknown as IncomingMessage;
}
const parts = { path: '/a', queryString: 'x=1', headers: {}, fallbackOrigin: () => 'http://127.0.0.1:7620' };

describe('HTTP events', () => {
  it('has method, path, query, client_ip, url, headers, bodyRaw and body', () => {
    const event = httpEvent(request('::ffff:127.0.0.1', { host: '127.0.0.1:7620', 'content-type': 'application/json' }), Buffer.from('{"a":1}'), parts);
    assert.deepEqual(Object.keys(event), ['method', 'path', 'query', 'client_ip', 'url', 'headers', 'bodyRaw', 'body']);
    assert.equal(event.client_ip, '127.0.0.1');
    assert.equal(event.url, 'http://127.0.0.1:7620/e/en_1/a?x=1');
    assert.deepEqual(event.query, { x: '1' });
    assert.deepEqual(event.body, { a: 1 });
  });

  it('takes the caller from X-Forwarded-For only when a local tunnel or proxy sends it', () => {
    const forwarded = { host: 'abc.ngrok.app', 'x-forwarded-for': '198.51.100.7, 10.0.0.2', 'x-forwarded-proto': 'https' };
    const tunnel = httpEvent(request('127.0.0.1', forwarded), Buffer.alloc(0), parts);
    assert.equal(tunnel.client_ip, '198.51.100.7');
    assert.equal(tunnel.url, 'https://abc.ngrok.app/e/en_1/a?x=1');
    assert.equal(httpEvent(request('192.0.2.4', forwarded), Buffer.alloc(0), parts).client_ip, '192.0.2.4', 'a caller on the network cannot name another');
    assert.equal(httpEvent(request('127.0.0.1', { 'x-forwarded-for': 'not an address' }), Buffer.alloc(0), parts).client_ip, '127.0.0.1');
  });

  it('falls back to the service’s own origin without a Host header', () => {
    assert.equal(httpEvent(request('127.0.0.1', {}), Buffer.alloc(0), parts).url, 'http://127.0.0.1:7620/e/en_1/a?x=1');
  });
});
