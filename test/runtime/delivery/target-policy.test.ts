import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { refusedTarget } from '../../../runtime/delivery/target-policy';

const PORT = 7620;
const owner = { servicePort: PORT, endUser: false };
const endUser = { servicePort: PORT, endUser: true };

describe('delivery target policy', () => {
  it("refuses this service's own port under every name of this machine", () => {
    const names = ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST.', 'app.localhost', '[::1]', '0.0.0.0', '[::]', '[::ffff:127.0.0.1]', '2130706433', os.hostname()];
    for (const name of names) {
      const refused = refusedTarget(`http://${name}:${PORT}/e/en_x`, owner);
      assert.equal(refused?.status, 400, name);
      assert.match(refused.message, /this Spout service's own address \(port 7620/);
    }
    const external = Object.values(os.networkInterfaces())
      .flatMap((a) => a ?? [])
      .find((a) => !a.internal);
    if (external) assert.ok(refusedTarget(`http://${external.family === 'IPv6' ? `[${external.address}]` : external.address}:${PORT}/e/en_x`, owner));
  });

  it('reads the default port of the scheme', () => {
    assert.ok(refusedTarget('http://localhost/e/en_x', { servicePort: 80, endUser: false }));
    assert.ok(refusedTarget('https://localhost/e/en_x', { servicePort: 443, endUser: false }));
    assert.equal(refusedTarget('https://localhost/e/en_x', { servicePort: 80, endUser: false }), null);
  });

  it("lets the API key's owner deliver to other ports of this machine and anywhere else", () => {
    for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost:7621/hook', 'http://[::1]:4000/', 'https://example.com/hook', `http://example.com:${PORT}/hook`, 'http://169.254.169.254/latest']) {
      assert.equal(refusedTarget(url, owner), null, url);
    }
  });

  it('keeps a Connect end user off this machine and link-local addresses', () => {
    for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost:1/', 'http://[::1]:4000/', 'http://0.0.0.0:22/', 'http://169.254.169.254/latest', 'http://[fe80::1]/', `http://${os.hostname()}:8080/`]) {
      const refused = refusedTarget(url, endUser);
      assert.equal(refused?.status, 403, url);
      assert.match(refused.message, /a Connect token may not send deliveries there.*"allow_local_targets": true/);
    }
    for (const url of ['https://example.com/hook', 'http://10.0.0.8:9000/hook', 'http://8.8.8.8/']) assert.equal(refusedTarget(url, endUser), null, url);
  });

  it('holds a host name that resolves to this machine (resolvesHere) to the same rules', () => {
    assert.equal(refusedTarget(`http://alias.test:${PORT}/e/en_x`, { ...owner, resolvesHere: true })?.status, 400);
    assert.equal(refusedTarget('http://alias.test:9000/hook', { ...owner, resolvesHere: true }), null, "the owner's local receivers stay allowed");
    const refused = refusedTarget('http://127.0.0.1.nip.io:9000/hook', { ...endUser, resolvesHere: true });
    assert.equal(refused?.status, 403);
    assert.match(refused.message, /127\.0\.0\.1\.nip\.io resolves to a loopback, link-local or own address/);
  });
});
