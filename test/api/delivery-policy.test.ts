// Delivery policy against real receivers (docs/delivery.md, issue 5): retries, Retry-After,
// 410, timeouts, redirects, resend, recover, per-webhook schedules, auto-disable and secret rotation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';
import { attempts, createWebhook, messages, sleep, subscribe, untilMessages, verify } from '../helpers/webhooks';

describe('delivery policy', () => {
  let spout: SpoutProcess;
  let source: { id: string; endpoint: string };
  const receivers: Receiver[] = [];
  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  /** A webhook for `r` subscribed to the test source. */
  const hookFor = async (r: Receiver, extra: Record<string, unknown> = {}) => {
    const hook = await createWebhook(spout, r.url, extra);
    await subscribe(spout, source.id, hook.id);
    return hook;
  };
  /** Sends a request to the source, which emits its body; every webhook subscribed gets it. */
  const emit = async (body: unknown) => {
    const res = await fetch(source.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200);
  };
  /** Waits until the webhook has `count` messages in `status`. */
  const until = (hookId: string, status: string, count = 1, ms = 10_000) => untilMessages(spout, hookId, status, count, ms);

  before(async () => {
    // Retries 0.2 s and 0.3 s apart; a request times out after 0.5 s; a webhook failing for 4 s is disabled.
    spout = await startSpout({ args: ['--retry-schedule', '0.2,0.3', '--delivery-timeout', '0.5', '--disable-after', '4'] });
    source = await deploySource(spout);
  });
  after(async () => {
    await spout.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('retries a 500 per the schedule, then marks the message failed, logging every attempt', async () => {
    const r = await receiver();
    r.respond = () => ({ status: 500, headers: { 'x-why': 'broken' }, body: 'kaput' });
    const hook = await hookFor(r);
    await emit({ case: 500 });
    await until(hook.id, 'failed');
    assert.equal(r.received.length, 3, 'one attempt and two retries');
    assert.equal(new Set(r.received.map((x) => x.headers['webhook-id'])).size, 1);
    assert.ok((r.received[1] as { at: number }).at - (r.received[0] as { at: number }).at >= 100, 'the retry waited');

    const [message] = (await messages(spout, hook.id)).data;
    assert.equal(message?.status, 'failed');
    assert.equal(message?.attempts, 3);
    assert.equal(message?.next_attempt_at, null);
    const log = await attempts(spout, hook.id, message!.id);
    assert.equal(log.length, 3);
    for (const a of log) {
      assert.equal(a.status_code, 500);
      assert.equal(a.response_body, 'kaput');
      assert.equal(a.response_headers?.['x-why'], 'broken');
      assert.equal(a.trigger, 'scheduled');
      assert.equal(a.error, null);
      assert.ok(Number.isInteger(a.duration_ms) && a.duration_ms >= 0);
    }

    assert.equal((await messages(spout, hook.id, 'delivered')).total, 0, 'the status filter leaves it out');
    const bad = await spout.api('GET', `/v1/webhooks/${hook.id}/messages?status=lost`);
    assert.equal(bad.status, 400);
    assert.match(bad.json.detail, /status must be one of pending, delivered, failing, failed/);
  });

  it('waits at least as long as a 429 Retry-After asks before the next attempt', async () => {
    const r = await receiver();
    r.respond = (_req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : 200);
    const hook = await hookFor(r);
    await emit({ case: 429 });
    await waitFor(() => r.received.length === 1, 5000, 'the first attempt');
    const [failing] = (await messages(spout, hook.id, 'failing')).data;
    assert.ok(failing, 'failing while the retry waits');
    assert.ok((failing.next_attempt_at as number) >= Math.floor(r.received[0]!.at / 1000) + 1, 'the next attempt is planned after the Retry-After');
    await until(hook.id, 'delivered', 1, 10_000);
    const gap = r.received[1]!.at - r.received[0]!.at;
    assert.ok(gap >= 1900, `the retry came ${gap} ms after the 429; Retry-After asked for 2 s`);
    const log = await attempts(spout, hook.id, failing.id);
    assert.deepEqual(
      log.map((a) => a.status_code),
      [200, 429],
    );
    assert.equal(log[1]!.response_headers?.['retry-after'], '2');
  });

  it('disables a webhook answering 410 Gone, stops its deliveries, and resumes them when re-enabled', async () => {
    const r = await receiver();
    r.respond = () => 410;
    const hook = await hookFor(r);
    await emit({ case: 410, n: 1 });
    const disabled = await waitFor(
      async () => {
        const res = await spout.api('GET', `/v1/webhooks/${hook.id}`);
        return res.json.data.active === false ? res.json.data : null;
      },
      5000,
      'the webhook disabled',
    );
    assert.match(disabled.disabled_reason, /410 Gone/);

    await emit({ case: 410, n: 2 });
    await sleep(800); // the first message's retry (0.2 s) and the new message would be due by now
    assert.equal(r.received.length, 1, 'nothing more is sent to a disabled webhook');
    const held = await messages(spout, hook.id);
    assert.deepEqual(held.data.map((m) => m.status).sort(), ['failing', 'pending']);
    const refused = await spout.api('POST', `/v1/webhooks/${hook.id}/messages/${held.data[0]!.id}/resend`);
    assert.equal(refused.status, 409);
    assert.match(refused.json.detail, /is disabled \(the receiver answered 410 Gone.*enable it with PUT/);

    r.respond = () => 200;
    const enabled = await spout.api('PUT', `/v1/webhooks/${hook.id}`, { active: true });
    assert.equal(enabled.json.data.active, true);
    assert.equal(enabled.json.data.disabled_reason, null);
    await until(hook.id, 'delivered', 2);
    assert.deepEqual(
      r.received
        .slice(1)
        .map((x) => JSON.parse(x.body).body.n)
        .sort(),
      [1, 2],
    );
  });

  it('counts a receiver that does not answer within --delivery-timeout as a failed attempt', async () => {
    const r = await receiver();
    r.respond = () => 'hang';
    const hook = await hookFor(r);
    await emit({ case: 'timeout' });
    await until(hook.id, 'failed', 1, 10_000);
    const [message] = (await messages(spout, hook.id)).data;
    const log = await attempts(spout, hook.id, message!.id);
    assert.equal(log.length, 3);
    for (const a of log) {
      assert.equal(a.status_code, null);
      assert.equal(a.error, 'no response within 0.5 s');
      assert.ok(a.duration_ms >= 400 && a.duration_ms < 5000, `took ${a.duration_ms} ms`);
    }
  });

  it('does not follow a redirect: the 3xx is a failed attempt and the target gets nothing', async () => {
    const target = await receiver();
    const r = await receiver();
    r.respond = () => ({ status: 307, headers: { location: target.url } });
    const hook = await hookFor(r);
    await emit({ case: 'redirect' });
    await until(hook.id, 'failed');
    const [message] = (await messages(spout, hook.id)).data;
    const log = await attempts(spout, hook.id, message!.id);
    assert.deepEqual(
      log.map((a) => a.status_code),
      [307, 307, 307],
    );
    assert.equal(log[0]!.response_headers?.location, target.url);
    assert.equal(target.received.length, 0);
  });

  it('resends a delivered and a failed message with the original webhook-id and body bytes', async () => {
    const r = await receiver();
    // retry_schedule [] on this webhook: one attempt, no retries.
    const hook = await hookFor(r, { retry_schedule: [] });
    await emit({ case: 'resend', text: 'héllo ✓ — "quoted"' });
    await until(hook.id, 'delivered');
    const [delivered] = (await messages(spout, hook.id)).data;

    const res = await spout.api('POST', `/v1/webhooks/${hook.id}/messages/${delivered!.id}/resend`);
    assert.equal(res.status, 202, JSON.stringify(res.json));
    assert.equal(res.json.data.id, delivered!.id);
    await waitFor(() => r.received.length === 2, 5000, 'the resent message');
    const [first, again] = r.received as [(typeof r.received)[0], (typeof r.received)[0]];
    assert.equal(again.headers['webhook-id'], first.headers['webhook-id']);
    assert.equal(again.headers['webhook-id'], delivered!.id);
    assert.equal(again.body, first.body, 'byte-identical body');
    assert.deepEqual(verify(hook.secret, again), JSON.parse(first.body));
    const log = await waitFor(async () => {
      const list = await attempts(spout, hook.id, delivered!.id);
      return list.length === 2 ? list : null;
    });
    assert.deepEqual(
      log.map((a) => [a.trigger, a.status_code]),
      [
        ['manual', 200],
        ['scheduled', 200],
      ],
    );

    // A failed message: resending it delivers it.
    r.respond = () => 500;
    await emit({ case: 'resend-failed' });
    await until(hook.id, 'failed');
    const [failed] = (await messages(spout, hook.id, 'failed')).data;
    r.respond = () => 200;
    assert.equal((await spout.api('POST', `/v1/webhooks/${hook.id}/messages/${failed!.id}/resend`)).status, 202);
    await until(hook.id, 'delivered', 2);
    const last = r.received.at(-1)!;
    assert.equal(last.headers['webhook-id'], failed!.id);
    assert.equal(last.body, r.received.at(-2)!.body);
    verify(hook.secret, last);

    const missing = await spout.api('POST', `/v1/webhooks/${hook.id}/messages/msg_nope/resend`);
    assert.equal(missing.status, 404);
    assert.match(missing.json.detail, /message msg_nope was not found/);
  });

  it('recovers every failed message created in a time range, with original ids and bodies', async () => {
    const r = await receiver();
    r.respond = () => 500;
    const hook = await hookFor(r, { retry_schedule: [] });
    const since = Math.floor(Date.now() / 1000);
    for (let n = 0; n < 3; n++) await emit({ case: 'recover', n });
    await until(hook.id, 'failed', 3);
    const failedBodies = new Map(r.received.map((x) => [String(x.headers['webhook-id']), x.body]));
    assert.equal(failedBodies.size, 3);

    const none = await spout.api('POST', `/v1/webhooks/${hook.id}/recover`, { since: since - 3600, until: since - 60 });
    assert.equal(none.status, 202);
    assert.deepEqual(none.json.data, { recovered: 0 });

    r.respond = () => 200;
    const res = await spout.api('POST', `/v1/webhooks/${hook.id}/recover?since=${since}`);
    assert.equal(res.status, 202, JSON.stringify(res.json));
    assert.deepEqual(res.json.data, { recovered: 3 });
    await until(hook.id, 'delivered', 3);
    const resent = r.received.slice(3);
    assert.equal(resent.length, 3);
    for (const x of resent) {
      assert.equal(x.body, failedBodies.get(String(x.headers['webhook-id'])), 'same webhook-id, byte-identical body');
      verify(hook.secret, x);
    }
    const [one] = (await messages(spout, hook.id)).data;
    assert.deepEqual(
      (await attempts(spout, hook.id, one!.id)).map((a) => [a.trigger, a.status_code]),
      [
        ['manual', 200],
        ['scheduled', 500],
      ],
    );
    assert.deepEqual((await spout.api('POST', `/v1/webhooks/${hook.id}/recover`, { since })).json.data, { recovered: 0 }, 'nothing failed is left');

    for (const [body, pattern] of [
      [{}, /since/],
      [{ since: 'yesterday' }, /since must be epoch seconds/],
      [{ since, until: since - 10 }, /until must not be before since/],
    ] as const) {
      const bad = await spout.api('POST', `/v1/webhooks/${hook.id}/recover`, body);
      assert.equal(bad.status, 400, JSON.stringify(bad.json));
      assert.match(bad.json.detail, pattern);
    }
  });

  it('keeps a retry schedule per webhook, null meaning the service schedule', async () => {
    const r = await receiver();
    r.respond = () => 500;
    const res = await spout.api('POST', `/v1/webhooks?url=${encodeURIComponent(r.url)}&retry_schedule=0.1,0.1,0.1`);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(res.json.data.retry_schedule, [0.1, 0.1, 0.1]);
    const id = res.json.data.id as string;
    await subscribe(spout, source.id, id);
    await emit({ case: 'own schedule' });
    await until(id, 'failed');
    assert.equal(r.received.length, 4, 'one attempt and three retries, by the webhook schedule');

    const reset = await spout.api('PUT', `/v1/webhooks/${id}`, { retry_schedule: null });
    assert.equal(reset.json.data.retry_schedule, null);
    for (const value of [[-1], ['soon'], 'a,b', Array(51).fill(1), [10 ** 9]]) {
      const bad = await spout.api('PUT', `/v1/webhooks/${id}`, { retry_schedule: value });
      assert.equal(bad.status, 400, JSON.stringify(value));
      assert.match(bad.json.detail, /retry_schedule/);
    }
  });

  it('disables a webhook whose every attempt has failed for --disable-after, and re-enabling resumes it', async () => {
    const r = await receiver();
    r.respond = () => 503;
    const hook = await hookFor(r, { retry_schedule: Array(30).fill(0.4) });
    await emit({ case: 'always failing' });
    const disabled = await waitFor(
      async () => {
        const res = await spout.api('GET', `/v1/webhooks/${hook.id}`);
        return res.json.data.active === false ? res.json.data : null;
      },
      15_000,
      'the webhook disabled after 4 s of failures',
    );
    assert.match(disabled.disabled_reason, /every delivery attempt failed for more than 4 s \(since /);
    const first = r.received[0]!.at;
    assert.ok(r.received.at(-1)!.at - first >= 3500, 'not before 4 s of failures');
    const count = r.received.length;
    await sleep(1000);
    assert.equal(r.received.length, count, 'no attempts while disabled');

    r.respond = () => 200;
    await spout.api('PUT', `/v1/webhooks/${hook.id}`, { active: true });
    await until(hook.id, 'delivered');
  });

  it('rotates the signing secret: both sign during the grace period, then only the new one', async () => {
    const r = await receiver();
    const hook = await hookFor(r);
    const res = await spout.api('POST', `/v1/webhooks/${hook.id}/secret/rotate`, { grace_seconds: 2 });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const fresh = res.json.data.signing_secret as string;
    assert.match(fresh, /^whsec_/);
    assert.notEqual(fresh, hook.secret);
    assert.ok(Math.abs(res.json.data.previous_secret_expires_at - (Date.now() / 1000 + 2)) < 5);
    assert.equal((await spout.api('GET', `/v1/webhooks/${hook.id}/secret`)).json.data.signing_secret, fresh);

    await emit({ case: 'rotation', during: true });
    await waitFor(() => r.received.length === 1, 5000, 'a delivery during the grace period');
    const during = r.received[0]!;
    assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
    assert.match(String(during.headers['webhook-signature']), /^v1,\S+ v1,\S+$/);
    verify(fresh, during);
    verify(hook.secret, during);

    await sleep(2100);
    await emit({ case: 'rotation', during: false });
    await waitFor(() => r.received.length === 2, 5000, 'a delivery after the grace period');
    const afterGrace = r.received[1]!;
    assert.equal(String(afterGrace.headers['webhook-signature']).split(' ').length, 1);
    verify(fresh, afterGrace);
    assert.throws(() => verify(hook.secret, afterGrace), /match/i);

    // grace_seconds 0 drops every earlier secret at once.
    const now = await spout.api('POST', `/v1/webhooks/${hook.id}/secret/rotate?grace_seconds=0`);
    assert.equal(now.json.data.previous_secret_expires_at, null);
    const bad = await spout.api('POST', `/v1/webhooks/${hook.id}/secret/rotate`, { grace_seconds: -1 });
    assert.equal(bad.status, 400);
    assert.match(bad.json.detail, /grace_seconds must not be negative/);
  });
});
