// Issue 44 point 4: a run's emits past one batch come from its host in batches, each stored before
// the host sends more (sandbox/emit-intake.ts, engine/sources/emit-stream.ts). Every event is
// stored in emit order (ts order across batches), dedupe judges the run as one emission, a host
// killed mid-stream leaves the batches it sent stored and a record that counts them, and the
// service holds no more than EMIT_BATCHES_UNACKED batches of it at once. Real hosts (build first).
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { EMIT_BATCH_COUNT, EMIT_BATCHES_UNACKED } from '../../../../runtime/contract/limits';
import type { DeliveryPort } from '../../../../runtime/engine/events/emission';
import type { SourceManager } from '../../../../runtime/engine/sources/source-manager';
import { EVENT_BYTES } from '../../../../runtime/sandbox/host-budget';
import type { HostPool } from '../../../../runtime/sandbox/host-pool';
import type { SourceRecord } from '../../../../runtime/store/metadata';
import type { EngineStores } from '../../../helpers/engine';
import { openSources } from '../../../helpers/engine';
import { waitFor } from '../../../helpers/service';

/** A source that emits what its event asks: `ids[i]` as each emit's id (or `i` when there are none), `ts` descending when asked, one without a ts last when asked. */
const EMITTER = (dedupe: string | null) => `export default {
  name: "Batches", version: "0.0.1", ${dedupe ? `dedupe: "${dedupe}",` : ''} props: {},
  async run(event) {
    console.log("pid " + process.pid);
    const ids = event.ids ?? Array.from({ length: event.n }, (_, i) => i);
    ids.forEach((id, i) => this.$emit({ i, id }, { id, ...(event.descending ? { ts: ids.length - i } : {}) }));
    if (event.untimed) this.$emit({ i: ids.length, id: "untimed" }, { id: "untimed" });
  },
};`;

let sources: SourceManager;
let stores: EngineStores;
let hosts: HostPool;
let stop: () => Promise<void>;
/** Every event handed to delivery, in order. */
let delivered: Array<{ i: number; id: unknown }>;
/** Delivery waits on this (a test holds it to keep a batch from being stored). */
let held: Promise<void>;

async function open(): Promise<void> {
  delivered = [];
  held = Promise.resolve();
  const delivery: DeliveryPort = {
    deliver: async (event) => {
      delivered.push(JSON.parse(event.json));
      await held;
    },
    deliverUnrecorded: async () => 0,
  };
  ({ sources, stores, hosts, stop } = await openSources({ delivery, runTimeoutMs: 60_000 }));
}

afterEach(() => stop());

const run = (source: SourceRecord, event: unknown) => sources.invoke(source, event, { trigger: { kind: 'run_now' } });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('a run’s emits in batches', () => {
  it('stores every event of a run of several batches, oldest first when each has a ts, and records them', { timeout: 120_000 }, async () => {
    await open();
    const source = await sources.deploy({ code: EMITTER(null) });
    const n = 3 * EMIT_BATCH_COUNT + 500;
    const sorted = await run(source, { n, descending: true });
    assert.equal(sorted.error, null);
    assert.deepEqual(
      delivered.map((e) => e.i),
      range(0, n).reverse(),
      'ts ascending: the last emitted first, across batches',
    );
    assert.equal(sorted.record.emits.length, 100);
    assert.deepEqual(sorted.record.emits_omitted, { stored: n - 100, dropped: 0 });
    assert.equal(stores.events.list(source.id)[0]?.json, JSON.stringify({ i: 0, id: 0 }), 'the newest stored: the first emitted, the one with the largest ts');

    delivered = [];
    // One emit without a ts: the run's events are stored as emitted, none sorted within a batch.
    const asEmitted = await run(source, { n, descending: true, untimed: true });
    assert.equal(asEmitted.error, null);
    assert.deepEqual(
      delivered.map((e) => e.i),
      range(0, n + 1),
    );
  });

  it('dedupes the run as one emission: `unique` across batches', { timeout: 120_000 }, async () => {
    await open();
    const source = await sources.deploy({ code: EMITTER('unique') });
    const ids = [...range(0, 2500), 5, 2999, ...range(2500, 3000)];
    const first = await run(source, { ids });
    assert.equal(first.error, null);
    assert.deepEqual(
      delivered.map((e) => e.id),
      [...range(0, 2500), 2999, ...range(2500, 2999)],
      'the repeats of 5 and 2999 dropped, in later batches than the first of each',
    );
    assert.deepEqual(first.record.emits_omitted, { stored: 2900, dropped: 2 });
  });

  it('dedupes the run as one emission: `last` holds the batches before its cached id shows up, and drops them then', { timeout: 120_000 }, async () => {
    await open();
    const source = await sources.deploy({ code: EMITTER('last') });
    await run(source, { ids: range(0, 2500) });
    assert.equal(delivered.length, 2500);
    delivered = [];
    // The cached id (2499) comes in the third batch: the two batches before it and it are dropped.
    const second = await run(source, { ids: [...range(10_000, 12_500), 2499, ...range(12_500, 13_000)] });
    assert.equal(second.error, null);
    assert.deepEqual(
      delivered.map((e) => e.id),
      range(12_500, 13_000),
    );
    assert.deepEqual(second.record.emits_omitted, { stored: 500, dropped: 2401 });
    assert.equal(second.record.emits[0]?.dropped, true);
    delivered = [];
    // No match at all: every batch held is stored once the run ends, in order.
    const third = await run(source, { ids: range(20_000, 22_500) });
    assert.equal(third.error, null);
    assert.deepEqual(
      delivered.map((e) => e.id),
      range(20_000, 22_500),
    );
  });

  it('a host killed mid-stream leaves the batches it sent stored, in order, and a failed record that counts them', { timeout: 120_000 }, async () => {
    await open();
    const source = await sources.deploy({ code: EMITTER(null) });
    let release!: () => void;
    held = new Promise<void>((resolve) => (release = resolve));
    const n = 5 * EMIT_BATCH_COUNT;
    const running = run(source, { n });
    // The first batch is being stored (held): the host waits for its ack, with at most one more sent.
    await waitFor(() => delivered.length >= EMIT_BATCH_COUNT, 60_000, 'the first batch to be handed to delivery');
    const pid = Number(/pid (\d+)/.exec(stores.logs.list(source.id).find((l) => l.message.startsWith('pid '))?.message ?? '')?.[1]);
    process.kill(pid, 'SIGKILL');
    release();
    const killed = await running;
    assert.match(killed.error?.message ?? '', /killed by SIGKILL/);
    assert.equal(killed.record.status, 'crashed');
    const stored = delivered.length;
    assert.ok(stored >= EMIT_BATCH_COUNT && stored <= EMIT_BATCHES_UNACKED * EMIT_BATCH_COUNT && stored % EMIT_BATCH_COUNT === 0, `whole batches stored, those sent before the kill (${stored})`);
    assert.deepEqual(
      delivered.map((e) => e.i),
      range(0, stored),
    );
    assert.deepEqual(killed.record.emits_omitted, { stored: stored - 100, dropped: 0 });
    assert.equal(stores.events.list(source.id).length, Math.min(stored, 1000), 'the store holds them (within its retention of 1000)');
  });

  it('holds at most EMIT_BATCHES_UNACKED batches of a run at once (the hosts’ budget’s peak)', { timeout: 120_000 }, async () => {
    await open();
    const source = await sources.deploy({ code: EMITTER(null) });
    const n = 10 * EMIT_BATCH_COUNT;
    await run(source, { n: 1 });
    hosts.inFlight.resetPeak();
    const result = await run(source, { n });
    assert.equal(result.error, null);
    assert.equal(delivered.length, n + 1);
    // The largest batch as the host frames it, counted as the budget counts it.
    const batch = { type: 'run-emits', invocationId: 'inv_xxxxxxxxxxxxxxxx', emits: range(n - EMIT_BATCH_COUNT, n).map((i) => ({ json: JSON.stringify({ i, id: i }), meta: { id: i } })) };
    const batchCost = 4 + Buffer.byteLength(JSON.stringify(batch)) + EMIT_BATCH_COUNT * EVENT_BYTES;
    const peak = hosts.inFlight.peak;
    assert.ok(peak <= EMIT_BATCHES_UNACKED * batchCost + 4096, `held ${peak} bytes at most, within ${EMIT_BATCHES_UNACKED} batches of ${batchCost}`);
    assert.ok(peak < (n / EMIT_BATCH_COUNT / 2) * batchCost, 'well under the whole run');
  });
});
