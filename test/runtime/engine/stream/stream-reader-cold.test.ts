// The first request with a new JSON-body path reads only what its page needs and a bounded count
// past it: over that bound its total_count is a lower bound marked total_partial, and count()
// counts every match. Its rows are those of a later request (answered from remembered fields), and
// every total agrees with the bodies seeded. Real stores in a temporary data dir, seeded as the
// stream's benchmark seeds them (bench/stream-seed.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { seedOrder, seedStream } from '../../../../bench/stream-seed';
import { COUNT_READS, StreamReader } from '../../../../runtime/engine/stream/stream-reader';
import { EventStore } from '../../../../runtime/store/event-store';
import { InvocationStore } from '../../../../runtime/store/invocation-store';
import type { RunLog } from '../../../../runtime/store/workflow-run-log';

type Matches = (order: ReturnType<typeof seedOrder>) => boolean;

const SOURCES = ['dc_shopa', 'dc_shopb', 'dc_shopc', 'dc_shopd'];
/** Enough runs (each with its event, but every tenth) that counting every body passes the bound. */
const PER_SOURCE = Math.ceil(COUNT_READS / SOURCES.length) + 500;

describe('stream reader: the first body filter on a store', () => {
  let dir: string;
  let invocations: InvocationStore;
  let events: EventStore;
  let reader: StreamReader;
  const noWorkflows = { workflowIds: () => [], list: () => [], subscribe: () => () => undefined } as unknown as RunLog;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-stream-cold-'));
    await seedStream(dir, SOURCES, PER_SOURCE);
    invocations = new InvocationStore(path.join(dir, 'invocations'), PER_SOURCE);
    events = new EventStore(path.join(dir, 'events'), Math.max(PER_SOURCE, 10_000));
    for (const id of SOURCES) {
      await invocations.open(id);
      await events.openSource(id);
    }
    reader = new StreamReader({
      invocations,
      events,
      runs: noWorkflows,
      target: (id) => ({ type: 'source', id, name: id }),
      workflowTrigger: () => null,
      messagesFor: async () => [],
      webhookActive: () => true,
    });
  });
  after(async () => {
    await invocations.close();
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Rows whose order matches among those seeded: runs (all) and events (of runs that did not fail). */
  const expected = (matches: Matches) => {
    let n = 0;
    for (let i = 0; i < PER_SOURCE * SOURCES.length; i++) {
      if (!matches(seedOrder(i))) continue;
      n++; // the run
      if (i % 10 !== 9) n++; // its event
    }
    return n;
  };

  // Each a path no filter read before: the first request reads its records.
  const cases: Array<[string, Matches]> = [
    ['body.amount>97', (o) => o.amount > 97],
    ['body.customer.tier:gold', (o) => o.customer.tier === 'gold'],
  ];
  for (const [filter, matches] of cases) {
    it(`${filter}: the first page is a later one's, its count a lower bound until counted`, async () => {
      const first = await reader.page(reader.parse(filter), { limit: 50 });
      assert.equal(first.data.length, 50);
      assert.equal(first.page_info.total_partial, true, 'the first count stops at its bound');
      assert.ok(first.page_info.total_count >= 50 && first.page_info.total_count < expected(matches), `${first.page_info.total_count} counted of ${expected(matches)}`);
      assert.equal(await reader.count(reader.parse(filter)), expected(matches));
      const later = await reader.page(reader.parse(filter), { limit: 50 });
      assert.equal(later.page_info.total_partial, undefined, 'every body field is remembered now');
      assert.equal(later.page_info.total_count, expected(matches));
      assert.deepEqual(later.data, first.data);
      for (const row of first.data) {
        const n = Number((row.kind === 'run' ? (row.path ?? '') : (row.summary ?? '')).split(/[/ ]/).pop());
        assert.ok(matches(seedOrder(n)), `${row.kind} ${row.id} matches ${filter}`);
      }
      // An older page reads past the newer rows without testing them, and agrees too.
      const older = await reader.page(reader.parse(filter), { limit: 50, before: first.page_info.end_cursor as string });
      assert.equal(older.page_info.total_count, expected(matches));
      assert.ok(older.data.every((r) => r.ts <= (first.data[49]?.ts ?? 0)));
    });
  }
});
