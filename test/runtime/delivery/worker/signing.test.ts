import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { nextRetryDelayMs } from '../../../../runtime/delivery/worker/retry';
import { newSigningSecret, signMessage } from '../../../../runtime/delivery/worker/signing';

describe('signing', () => {
  it('produces signatures the standardwebhooks package verifies', () => {
    const secret = newSigningSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ hello: 'wörld', n: [1, 2, 3] });
    const ts = Math.floor(Date.now() / 1000);
    const signature = signMessage(secret, 'msg_1', ts, body);
    assert.match(signature, /^v1,/);
    const verified = new Webhook(secret).verify(body, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': signature });
    assert.deepEqual(verified, JSON.parse(body));
    assert.throws(() => new Webhook(secret).verify(`${body} `, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': signature }));
    assert.throws(() => new Webhook(newSigningSecret()).verify(body, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': signature }));
  });
});

describe('signMessage', () => {
  it('gives the HMAC-SHA256 node:crypto gives, for keys shorter and longer than a block and any body', () => {
    for (const keyBytes of [1, 24, 63, 64, 65, 200]) {
      const secret = `whsec_${Buffer.alloc(keyBytes, keyBytes).toString('base64')}`;
      for (const body of ['', '{"a":1}', JSON.stringify({ text: 'ünïcødé \ud800', long: 'x'.repeat(40_000) })]) {
        const expected = createHmac('sha256', Buffer.alloc(keyBytes, keyBytes)).update(`msg_1.1700000000.${body}`).digest('base64');
        assert.equal(signMessage(secret, 'msg_1', 1_700_000_000, body), `v1,${expected}`, `a ${keyBytes}-byte key, a ${body.length}-character body`);
      }
    }
  });
});

describe('retry schedule', () => {
  it('follows the schedule with ±20% jitter and stops when it runs out', () => {
    const schedule = [5, 300];
    assert.equal(
      nextRetryDelayMs(schedule, 1, () => 0),
      4000,
    );
    assert.equal(
      nextRetryDelayMs(schedule, 1, () => 1),
      6000,
    );
    assert.equal(
      nextRetryDelayMs(schedule, 2, () => 0.5),
      300_000,
    );
    assert.equal(nextRetryDelayMs(schedule, 3), null);
  });
});
