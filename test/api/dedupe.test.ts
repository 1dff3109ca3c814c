// Dedupe strategies (spec section 3) shown by emitting from real runs of deployed sources.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';

/**
 * A source (written for this test) whose n-th run emits the n-th batch of `batches`: each item is
 * an id, or `[id, ts]` to emit with a timestamp.
 */
const batchSource = (strategy: string) => `
export default {
  name: "Batches (${strategy})",
  version: "0.0.1",
  dedupe: "${strategy}",
  props: { db: "$.service.db", batches: { type: "string" } },
  async run() {
    const n = this.db.get("n") ?? 0;
    this.db.set("n", n + 1);
    for (const item of JSON.parse(this.batches)[n] ?? []) {
      const [id, ts] = Array.isArray(item) ? item : [item];
      if (id === null) this.$emit({ id: null });
      else this.$emit({ id }, { id, summary: "item " + id, ...(ts ? { ts } : {}) });
    }
  },
};`;

describe('dedupe', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  const deploy = async (strategy: string, batches: unknown[][]) => {
    const res = await spout.api('POST', '/v1/sources', { component_code: batchSource(strategy), configured_props: { batches: JSON.stringify(batches) } });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json.data.id as string;
  };
  /** Runs the source once; the ids of the events it stored, in order. */
  const run = async (id: string): Promise<unknown[]> => {
    const res = await spout.api('POST', `/v1/sources/${id}/run`);
    assert.equal(res.json.data.error, null, JSON.stringify(res.json));
    const stored = new Set(res.json.data.emitted as string[]);
    const events = (await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=100`)).json.data as Array<{ id: string; event: { id: unknown } }>;
    return events
      .filter((e) => stored.has(e.id))
      .reverse()
      .map((e) => e.event.id);
  };
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it('unique keeps the last 100 ids: the 101st evicts the first, and the cache survives a restart', async () => {
    const id = await deploy('unique', [range(1, 100), [1, 101, 101], [1, 2], [101, 'x'], [4, 3]]);
    assert.equal((await run(id)).length, 100);
    assert.deepEqual(await run(id), [101], 'a repeated id is dropped, within a run too');
    assert.deepEqual(await run(id), [1], 'id 1 was evicted by the 101st, so it is new again; 2 is still cached');
    await spout.stop();
    spout = await startSpout({ dataDir: spout.dataDir, apiKey: spout.apiKey });
    assert.deepEqual(await run(id), ['x'], '101 is still cached after the restart');
    assert.deepEqual(await run(id), [3], "1 evicted 2 and 'x' evicted 3; 4 is still cached");
  });

  it('greatest emits only ids above the largest seen', async () => {
    const id = await deploy('greatest', [
      [5, 3, 7],
      [6, 8],
      ['9', 2, 9],
    ]);
    assert.deepEqual(await run(id), [5, 7]);
    assert.deepEqual(await run(id), [8]);
    assert.deepEqual(await run(id), ['9'], 'numeric strings count as numbers');
  });

  it('last emits what follows the cached id, everything when nothing matches, and caches the newest by ts', async () => {
    const id = await deploy('last', [
      [1, 2, 3],
      [2, 3, 4, 5],
      [9, 10],
      [
        [12, 3000],
        [11, 1000],
        [13, 2000],
      ],
      [13, 12, 14],
    ]);
    assert.deepEqual(await run(id), [1, 2, 3]);
    assert.deepEqual(await run(id), [4, 5]);
    assert.deepEqual(await run(id), [9, 10], 'no id matched: all are emitted');
    assert.deepEqual(await run(id), [11, 13, 12], 'ts puts one run’s emits in order');
    assert.deepEqual(await run(id), [14], 'the cached id is the newest by ts (12)');
  });

  it('keeps events without an id and says so in the logs', async () => {
    const id = await deploy('unique', [[null, 1]]);
    assert.deepEqual(await run(id), [null, 1]);
    const logs = (await spout.api('GET', `/v1/sources/${id}/logs`)).json.data as Array<{ level: string; message: string }>;
    assert.ok(
      logs.some((l) => l.level === 'warn' && /dedupe "unique": 1 event\(s\) emitted without an id were kept/.test(l.message)),
      JSON.stringify(logs),
    );
  });
});
