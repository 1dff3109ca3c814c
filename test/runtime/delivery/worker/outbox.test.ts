import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import type { Attempt, NewMessage } from '../../../../runtime/contract/delivery-protocol';
import { Outbox } from '../../../../runtime/delivery/worker/outbox';
import { batchOf } from '../../../helpers/message-batch';
import { tempFiles } from '../../../helpers/service';

const tmpFile = tempFiles('spout-outbox-', 'deliveries.jsonl');

const message = (n: number, webhook = 'wh_a'): NewMessage => ({
  id: `msg_${webhook}_${n}`,
  webhook_id: webhook,
  event_id: `1000-${n}`,
  emitter_id: 'dc_a',
  event_name: n % 2 ? 'new' : null,
  body: JSON.stringify({ n, text: 'ünïcødé' }),
  created_at: 1000 + n,
  hops: 1 + (n % 3),
});

const attempt = (status_code: number | null, created_at: number, trigger: Attempt['trigger'] = 'scheduled'): Attempt => ({
  timestamp: Math.floor(created_at / 1000),
  signature: 'v1,c2lnbmVk',
  status_code,
  duration_ms: 3,
  response_body: status_code ? 'ok' : null,
  response_headers: status_code ? { 'content-type': 'text/plain' } : null,
  error: status_code ? null : 'ECONNREFUSED',
  trigger,
  created_at,
});

describe('Outbox', () => {
  it('restores every message, its attempts, schedule and manual requests from the file after a restart', async () => {
    const file = tmpFile();
    const outbox = await Outbox.open(file);
    const [a, b, c] = await outbox.add(batchOf([message(1), message(2), message(3)]));
    outbox.recordAttempt(a!, attempt(200, 2000), 'delivered', null);
    outbox.recordAttempt(b!, attempt(null, 2001), 'failing', 9000);
    outbox.recordAttempt(c!, attempt(500, 2002), 'failed', null);
    await outbox.requestManual([c!]);
    const before = [...outbox.messages.values()];
    await outbox.close();

    const reopened = await Outbox.open(file);
    assert.deepEqual([...reopened.messages.values()], before);
    assert.equal(reopened.messages.get(b!.id)?.next_attempt_at, 9000);
    assert.equal(reopened.messages.get(b!.id)?.scheduled_attempts, 1);
    assert.equal(reopened.messages.get(c!.id)?.manual_at !== null, true, 'the manual attempt asked for is still owed');
    assert.deepEqual(reopened.deliveryMarks(), [{ emitter_id: 'dc_a', event_id: '1000-3', webhook_ids: ['wh_a'] }]);
    await reopened.close();
  });

  it('writes each attempt with its own response headers when records are shared between attempts', async () => {
    const file = tmpFile();
    const outbox = await Outbox.open(file);
    const [a, b, c] = await outbox.add(batchOf([message(1), message(2), message(3)]));
    const shared = { date: 'Tue, 24 Nov 2026 10:00:00 GMT' };
    outbox.recordAttempt(a!, { ...attempt(200, 2000), response_headers: shared }, 'delivered', null);
    outbox.recordAttempt(b!, { ...attempt(200, 2001), response_headers: shared }, 'delivered', null);
    outbox.recordAttempt(c!, { ...attempt(200, 2002), response_headers: { date: 'Tue, 24 Nov 2026 10:00:01 GMT' } }, 'delivered', null);
    await outbox.close();

    const reopened = await Outbox.open(file);
    const dates = [a, b, c].map((m) => reopened.messages.get(m!.id)?.attempts[0]?.response_headers?.date);
    assert.deepEqual(dates, ['Tue, 24 Nov 2026 10:00:00 GMT', 'Tue, 24 Nov 2026 10:00:00 GMT', 'Tue, 24 Nov 2026 10:00:01 GMT']);
    await reopened.close();
  });

  it('keeps the latest 1000 delivered messages of a webhook, and every undelivered one', async () => {
    const outbox = await Outbox.open(tmpFile());
    const created = await outbox.add(batchOf(Array.from({ length: 1100 }, (_, n) => message(n))));
    const [pending] = await outbox.add(batchOf([message(0, 'wh_b')]));
    for (const m of created) outbox.recordAttempt(m, attempt(204, 3000), 'delivered', null);
    assert.equal(outbox.messages.size, 1001);
    assert.equal(outbox.messages.has(created[99]!.id), false, 'the oldest delivered ones are forgotten');
    assert.equal(outbox.messages.has(created[100]!.id), true);
    assert.equal(outbox.messages.get(pending!.id)?.status, 'pending');
    await outbox.close();
  });

  it('compacts a file grown past twice what it needs, and reads back the same state', async () => {
    const file = tmpFile();
    const outbox = await Outbox.open(file);
    // Large bodies: the file passes the size a compaction waits for.
    const body = 'x'.repeat(4000);
    for (let round = 0; round < 12; round++) {
      const created = await outbox.add(batchOf(Array.from({ length: 1000 }, (_, n) => ({ ...message(round * 1000 + n), body: JSON.stringify(body) }))));
      for (const m of created) outbox.recordAttempt(m, attempt(200, 4000 + round), 'delivered', null);
    }
    const kept = [...outbox.messages.values()];
    await outbox.close();
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').length;
    assert.ok(lines < 24_000, `compacted: ${lines} lines for 12 000 messages and their attempts`);
    const reopened = await Outbox.open(file);
    assert.deepEqual([...reopened.messages.values()], kept);
    await reopened.close();
  });

  it('reads attempts written by earlier versions: whole request headers, or none', async () => {
    const file = tmpFile();
    const m = message(1);
    const outcome = { status_code: 500, duration_ms: 2, response_body: 'no', error: null, trigger: 'scheduled', status: 'failing', next_attempt_at: 9000 };
    const headers = { 'content-type': 'application/json', 'webhook-id': m.id, 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,b2xk v1,b2xkZXI=' };
    fs.writeFileSync(
      file,
      [
        { t: 'm', ...m, body: JSON.parse(m.body) },
        { t: 'a', message_id: m.id, ...outcome, created_at: 2000 }, // before request or response headers were kept
        { t: 'a', message_id: m.id, ...outcome, request_headers: headers, response_headers: { 'retry-after': '5' }, created_at: 3000 },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const outbox = await Outbox.open(file);
    const [old, recent] = outbox.messages.get(m.id)!.attempts;
    assert.deepEqual([old?.timestamp, old?.signature, old?.response_headers], [null, null, null]);
    assert.deepEqual([recent?.timestamp, recent?.signature, recent?.response_headers], [1_700_000_000, 'v1,b2xk v1,b2xkZXI=', { 'retry-after': '5' }]);
    assert.equal('request_headers' in recent!, false, 'kept as the timestamp and signature they were sent with');
    await outbox.close();
  });

  it('sets aside an attempt line whose timestamp or signature has the wrong type, so compaction never writes it back', async () => {
    const file = tmpFile();
    const m = message(1);
    const outcome = { status_code: 200, duration_ms: 2, response_body: 'ok', error: null, trigger: 'scheduled', status: 'delivered', next_attempt_at: null, created_at: 2000 };
    fs.writeFileSync(
      file,
      [
        { t: 'm', ...m, body: JSON.parse(m.body) },
        { t: 'a', message_id: m.id, ...outcome, timestamp: 'soon', signature: 'v1,x' },
        { t: 'a', message_id: m.id, ...outcome, timestamp: 1, signature: 7 },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const problems: string[] = [];
    const outbox = await Outbox.open(file, (p) => problems.push(JSON.stringify(p)));
    assert.equal(outbox.messages.get(m.id)?.attempts.length, 0);
    assert.equal(problems.length > 0, true, 'reported');
    await outbox.close();
  });
});
