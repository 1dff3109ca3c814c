// The delivery service starts its thread without waiting for the outbox replay (docs/runtime.md,
// "The delivery backlog on disk"): deliveries asked before the thread is ready wait for it and
// reach the outbox in the order asked, the mending of unrecorded ones (which needs the marks the
// replay finds) included. Uses the built thread (dist/delivery-worker.js): `node scripts/build.js` first.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { WebhookTarget } from '../../../runtime/contract/delivery-protocol';
import { DeliveryService } from '../../../runtime/delivery/delivery-service';
import { messageLine } from '../../../runtime/delivery/worker/outbox-lines';
import type { KeptEvent, StoredEvent } from '../../../runtime/store/event-store';
import { tempDir } from '../../helpers/service';

const hook: WebhookTarget = { id: 'wh_a', url: 'http://127.0.0.1:9/hook', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previous_secrets: [], active: true, paused: true, retry_schedule: null, failures_counted_from: 0 };
const event = (id: string): StoredEvent => ({ id, indexed_at_ms: 1, emitter_id: 'dc_a', json: JSON.stringify({ id }), meta: { emit_id: id, id, name: null, summary: null, ts: 1 }, deliver_to: ['wh_a'] });

describe('DeliveryService before its thread is ready', () => {
  const stops: Array<() => Promise<void>> = [];
  after(async () => {
    for (const stop of stops) await stop();
  });

  it('keeps the order deliveries were asked in, a mended one before a new one asked after it', async () => {
    const dataDir = tempDir();
    // A backlog the thread replays at start, and the delivery mark it leaves: event 1000-1 has its message.
    const backlog = Array.from({ length: 5000 }, (_, i) => messageLine({ id: `msg_${i}`, webhook_id: 'wh_a', event_id: '1000-1', emitter_id: 'dc_a', event_name: null, body: '{}', created_at: 1, hops: 1 }));
    fs.writeFileSync(path.join(dataDir, 'deliveries.jsonl'), `${backlog.join('\n')}\n`);
    const { service, ready } = DeliveryService.start({ dataDir, retrySchedule: [], timeoutMs: 1000, webhooks: () => [hook], onDisable: async () => {} });
    stops.push(() => service.stop());

    // Both asked before the thread can have answered: its answers come on a later turn.
    const stored = ['1000-1', '1000-2'].map(event);
    const kept = stored.map((e) => ({ id: e.id, routed: true }) as KeptEvent);
    const mended = service.deliverUnrecorded('dc_a', kept, (k) => stored.find((e) => e.id === k.id) as StoredEvent);
    const fresh = service.deliver(event('1000-3'), ['wh_a']);
    assert.equal(await mended, 1, 'the event past the mark gets its message');
    await fresh;
    await ready;

    const page = await service.messages('wh_a', { limit: 3 });
    assert.equal(page.page_info.total_count, 5002);
    assert.deepEqual(
      page.data.map((m) => m.event_id),
      ['1000-3', '1000-2', '1000-1'],
      'newest first: the mended message went in before the new one',
    );
  });
});
