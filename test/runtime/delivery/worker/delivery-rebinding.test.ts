// DNS rebinding at delivery: a webhook's host name is checked when it is set, and may resolve here
// later. The sender checks the address each connection reached, once per connection. The test's
// own lookup stands in for DNS: the name resolves elsewhere when set, and here when delivered to.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HttpSender } from '../../../../runtime/delivery/worker/webhook-sender';
import { type Lookup, resolvesToThisMachine } from '../../../../runtime/lib/local-addresses';

/** Where the name points: changed by the test between setting the webhook and delivering. */
let points = '203.0.113.7';
const setTimeLookup: Lookup = async () => [points];
/** The same name as a socket resolves it (net's lookup, `all` or not). */
const socketLookup = ((_host: string, options: { all?: boolean }, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
  if (options.all) callback(null, [{ address: points, family: 4 }]);
  else callback(null, points, 4);
}) as LookupFunction;

describe('delivery connections are checked by the address they reached', () => {
  let server: http.Server;
  let port = 0;
  let requests = 0;
  const sender = new HttpSender(5000, socketLookup);

  before(async () => {
    server = http.createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await sender.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("refuses an end user's webhook whose name resolves here only at delivery, naming the rule and the fix; the receiver gets nothing", async () => {
    points = '203.0.113.7';
    assert.equal(await resolvesToThisMachine('rebound.test', setTimeLookup), false, 'when the webhook is set, the name is elsewhere');
    points = '127.0.0.1';
    const before = requests;
    const outcome = await sender.post(`http://rebound.test:${port}/hook`, { 'content-type': 'application/json' }, '{}', 'proj_abc');
    assert.equal(outcome.status_code, null);
    assert.match(outcome.error ?? '', /reached 127\.0\.0\.1, on the developer's machine/);
    assert.match(outcome.error ?? '', /Connect end user's webhook/);
    assert.match(outcome.error ?? '', /PATCH \/v1\/connect\/projects\/proj_abc \{"allow_local_targets": true\}/);
    assert.equal(requests, before);
  });

  it("refuses this service's own port through a name for everyone, and lets other local targets through for the key's owner", async () => {
    points = '127.0.0.1';
    sender.servicePort = port;
    const refused = await sender.post(`http://loop.test:${port}/e/abc`, {}, '{}');
    assert.equal(refused.status_code, null);
    assert.match(refused.error ?? '', /reached 127\.0\.0\.1 port \d+, this Spout service's own address/);
    assert.match(refused.error ?? '', /POST \/v1\/subscriptions/);
    sender.servicePort = port + 1;
    const before = requests;
    const delivered = await sender.post(`http://owner.test:${port}/hook`, {}, '{}');
    assert.equal(delivered.status_code, 200, delivered.error ?? '');
    assert.equal(requests, before + 1);
  });

  it("delivers an end user's webhook to this machine once the project allows local targets", async () => {
    points = '127.0.0.1';
    const before = requests;
    // webhookTarget() gives no project then: the same name reaches the receiver.
    const allowed = await sender.post(`http://allowed.test:${port}/hook`, {}, '{}', null);
    assert.equal(allowed.status_code, 200, allowed.error ?? '');
    assert.equal(requests, before + 1);
  });
});
