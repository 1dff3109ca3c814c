import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { EmitPayload } from '../../../../runtime/contract/host-protocol';
import { type DeliveryPort, Emission } from '../../../../runtime/engine/events/emission';
import { inEmitOrder } from '../../../../runtime/lib/emit-order';
import { EventStore, type StoredEvent } from '../../../../runtime/store/event-store';
import { type EngineStores, openEngineStores } from '../../../helpers/engine';

const emit = (n: number, meta: EmitPayload['meta'] = {}): EmitPayload => ({ json: JSON.stringify({ n }), meta });
const numbers = (events: readonly StoredEvent[]) => events.map((e) => JSON.parse(e.json).n as number);

let stores: EngineStores | undefined;
afterEach(() => stores?.close());

async function open(delivery?: DeliveryPort): Promise<EngineStores> {
  stores = await openEngineStores(delivery);
  await stores.events.openSource('dc_a');
  return stores;
}

const subscribe = (s: EngineStores, emitter: string, listener: string, eventName: string | null = null) => s.metadata.data.subscriptions.push({ id: `sub_${s.metadata.data.subscriptions.length}`, emitter_id: emitter, listener_id: listener, event_name: eventName, created_at: 0 });

describe('Emission', () => {
  it('stores a run’s events in the order given (inEmitOrder: oldest first when each has a ts, else as emitted)', async () => {
    const s = await open();
    const sorted = await s.emission.accept('dc_a', inEmitOrder([emit(3, { ts: 30 }), emit(1, { ts: 10 }), emit(2, { ts: 20 })]));
    assert.deepEqual(numbers(sorted.map((r) => r.event)), [1, 2, 3]);
    const asEmitted = await s.emission.accept('dc_a', inEmitOrder([emit(6, { ts: 60 }), emit(4), emit(5, { ts: 50 })]));
    assert.deepEqual(numbers(asEmitted.map((r) => r.event)), [6, 4, 5]);
    const given = await s.emission.accept('dc_a', [emit(8, { ts: 80 }), emit(7, { ts: 70 })]);
    assert.deepEqual(numbers(given.map((r) => r.event)), [8, 7]);
    assert.deepEqual(numbers(s.events.list('dc_a')).reverse(), [1, 2, 3, 6, 4, 5, 8, 7]);
    const ids = s.events
      .list('dc_a')
      .map((e) => e.id)
      .reverse();
    assert.deepEqual(ids, [...ids].sort(), 'event ids increase in the stored order');
  });

  it('keeps the run’s invocation id and the emit’s metadata on each event', async () => {
    const s = await open();
    const [routed] = await s.emission.accept('dc_a', [emit(1, { id: 'dedupe-1', name: 'alerts', summary: 'one', ts: 5 })], 0, 'inv_1');
    assert.deepEqual(routed!.event.meta, { id: 'dedupe-1', emit_id: routed!.event.id, name: 'alerts', summary: 'one', ts: 5, invocation_id: 'inv_1' });
  });

  it('resolves only once the events and their delivery messages are durable, and runs listeners after', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const asked: string[][] = [];
    const s = await open({
      deliver: async (_event, webhooks) => {
        asked.push([...webhooks]);
        await held;
      },
      deliverUnrecorded: async () => 0,
    });
    subscribe(s, 'dc_a', 'wh_1');
    subscribe(s, 'dc_a', 'dc_b');
    let resolved = false;
    const accepted = s.emission.accept('dc_a', [emit(1)]).then((r) => ((resolved = true), r));
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(asked[0], ['wh_1'], 'the delivery message is asked for at once');
    assert.equal(resolved, false, 'not resolved while the delivery message is not durable');
    assert.equal(s.listened.length, 0, 'no listener runs before the event is durable');
    release();
    const [routed] = await accepted;

    // Durable: a second store over the same folder reads it back.
    const reread = new EventStore(path.join(s.dataDir, 'events'), 10);
    await reread.openSource('dc_a');
    assert.deepEqual(
      reread.list('dc_a').map((e) => e.id),
      [routed!.event.id],
    );
    await reread.close();
    assert.deepEqual(
      s.listened.map((l) => [l.listenerId, l.event.id, l.depth]),
      [['dc_b', routed!.event.id, 1]],
    );
  });

  it('routes each event by channel and glob: webhooks get delivery messages, sources and workflows are run one hop deeper', async () => {
    const s = await open();
    subscribe(s, 'dc_a', 'wh_default');
    subscribe(s, 'dc_*', 'wh_glob', 'alerts');
    subscribe(s, 'dc_a', 'p_workflow', 'alerts');
    subscribe(s, 'dc_a', 'dc_listener');
    subscribe(s, 'dc_other', 'wh_elsewhere');
    const routed = await s.emission.accept('dc_a', [emit(1), emit(2, { name: 'alerts' }), emit(3, { name: 'quiet' })], 2);
    assert.deepEqual(
      routed.map((r) => ({ n: JSON.parse(r.event.json).n, webhooks: r.webhooks, listeners: r.listeners })),
      [
        { n: 1, webhooks: ['wh_default'], listeners: ['dc_listener'] },
        { n: 2, webhooks: ['wh_glob'], listeners: ['p_workflow'] },
        { n: 3, webhooks: [], listeners: [] },
      ],
    );
    assert.deepEqual(
      s.deliveries.map((d) => [JSON.parse(d.event.json).n, d.webhooks]),
      [
        [1, ['wh_default']],
        [2, ['wh_glob']],
        [3, []],
      ],
    );
    assert.deepEqual(
      routed.map((r) => r.event.deliver_to),
      [['wh_default'], ['wh_glob'], undefined],
      'each event names its webhooks, to mend a crash',
    );
    assert.deepEqual(
      s.listened.map((l) => [l.listenerId, JSON.parse(l.event.json).n, l.depth]),
      [
        ['dc_listener', 1, 3],
        ['p_workflow', 2, 3],
      ],
    );
  });

  it('keeps the webhook deliveries that led to a run on its events, for their deliveries, listeners and a restart', async () => {
    const s = await open();
    subscribe(s, 'dc_a', 'wh_1');
    subscribe(s, 'dc_a', 'dc_listener');
    const [routed] = await s.emission.accept('dc_a', [emit(1)], 0, null, 3);
    assert.equal(routed!.event.hops, 3);
    assert.deepEqual(
      s.deliveries.map((d) => d.event.hops),
      [3],
    );
    assert.deepEqual(
      s.listened.map((l) => l.event.hops),
      [3],
    );
    const [plain] = await s.emission.accept('dc_a', [emit(2)]);
    assert.equal(plain!.event.hops, undefined, 'no deliveries led to it: nothing kept');
    const reread = new EventStore(path.join(s.dataDir, 'events'), 10);
    await reread.openSource('dc_a');
    assert.deepEqual(
      reread.list('dc_a').map((e) => e.hops),
      [undefined, 3],
    );
    await reread.close();
  });

  it('says whether a channel is heard', async () => {
    const s = await open();
    subscribe(s, 'dc_*', 'wh_1', '$errors');
    assert.equal(s.emission.isHeard('dc_a', '$errors'), true);
    assert.equal(s.emission.isHeard('dc_a', '$logs'), false);
    assert.equal(s.emission.isHeard('dc_a', null), false);
  });

  it('asks for the delivery messages a crash may have lost when an emitter’s events are opened', async () => {
    const s = await open();
    await s.emission.accept('dc_a', [emit(1), emit(2)]);
    const recovered: Array<[string, number]> = [];
    const restarted = new EventStore(path.join(s.dataDir, 'events'), 10);
    new Emission(
      restarted,
      { deliver: async () => {}, deliverUnrecorded: async (emitterId, events) => (recovered.push([emitterId, events.length]), 0) },
      () => [],
      () => {},
    );
    await restarted.openSource('dc_a');
    await restarted.close();
    assert.deepEqual(recovered, [['dc_a', 2]]);
  });
});
