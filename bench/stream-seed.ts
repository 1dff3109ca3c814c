// Seeds a data dir with recorded runs and their events for the stream's benchmarks, through the
// store modules themselves (InvocationStore, EventStore), as fast as they write. The sources must
// already exist in the data dir's metadata (deploy them with a service first, then stop it): the
// service opens their stores at start. Start it with --invocation-retention at least `runsPerSource`.
import path from 'node:path';
import type { InvocationView } from '../runtime/contract/invocation-api';
import { EventStore } from '../runtime/store/event-store';
import { InvocationStore } from '../runtime/store/invocation-store';

export interface SeedOptions {
  /** Time of the newest run (ms); runs are `spacingMs` apart before it. */
  now?: number;
  spacingMs?: number;
  /** Every how many runs one fails (status error, answer 502, no event). */
  errorEvery?: number;
}

/** A source that emits each order it is sent, for data dirs seeded with its runs; written for Spout's benchmarks and tests. */
export const SEED_SOURCE = `export default {
  name: "Orders",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    this.$emit(event.body, { summary: "order " + event.body.n });
  },
};
`;

/** Order `n` as the seeded runs send it: amounts 0..99, two customers' tiers. */
export function seedOrder(n: number): { n: number; amount: number; customer: { tier: string } } {
  return { n, amount: n % 100, customer: { tier: n % 3 === 0 ? 'gold' : 'silver' } };
}

/**
 * Writes `runsPerSource` HTTP runs for each source (a POST of seedOrder(n) to /orders/n, answered
 * 200 and emitting it as one event; every `errorEvery`th failing), interleaved across sources in
 * time; resolves the counts written.
 */
export async function seedStream(dataDir: string, sourceIds: string[], runsPerSource: number, options: SeedOptions = {}): Promise<{ runs: number; events: number }> {
  const spacing = options.spacingMs ?? 10;
  const errorEvery = options.errorEvery ?? 10;
  const total = runsPerSource * sourceIds.length;
  const first = (options.now ?? Date.now()) - total * spacing;
  const invocations = new InvocationStore(path.join(dataDir, 'invocations'), runsPerSource);
  const events = new EventStore(path.join(dataDir, 'events'), Math.max(runsPerSource, 10_000));
  for (const id of sourceIds) {
    await invocations.open(id);
    await events.openSource(id);
  }
  let runs = 0;
  let emitted = 0;
  const pending: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const owner = sourceIds[n % sourceIds.length] as string;
    const started = first + n * spacing;
    const failed = n % errorEvery === errorEvery - 1;
    const body = JSON.stringify(seedOrder(n));
    let eventId: string | null = null;
    if (!failed) {
      const { stored, durable } = events.append(owner, [{ json: body, meta: { name: null, summary: `order ${n}`, ts: started, invocation_id: `inv_seed${n}` } }], started + 1);
      eventId = stored[0]?.id ?? null;
      pending.push(durable);
      emitted++;
    }
    const record: InvocationView = {
      id: `inv_seed${n}`,
      owner_id: owner,
      trigger: 'http',
      hook: null,
      started_at: started,
      duration_ms: 3,
      status: failed ? 'error' : 'ok',
      request: { method: 'POST', path: `/orders/${n}`, query: '', headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/create' }, endpoint_url: 'http://127.0.0.1/e/seed', body, body_encoding: 'utf8', body_size: body.length, body_truncated: false },
      response: { status: failed ? 502 : 200, headers: {}, from: failed ? 'service' : 'component', body: '', body_encoding: 'utf8', body_size: 0, body_truncated: false },
      event: null,
      listened_to: null,
      logs: [],
      emits: eventId ? [{ event_id: eventId, dropped: false, name: null, summary: `order ${n}`, webhooks: [] }] : [],
      error: failed ? { name: 'Error', message: `order ${n} failed`, stack: null, full_stack: null } : null,
      calls: [],
      result: null,
      replay_of: null,
    };
    pending.push(invocations.add(record));
    runs++;
    if (pending.length >= 2000) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  await invocations.close();
  await events.close();
  return { runs, events: emitted };
}
