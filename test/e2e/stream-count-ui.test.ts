// Issue 47 in Chromium: with more stored runs than a page's count reads, the first JSON-body filter
// answers its rows with a count cut short (a lower bound); the Stream screen then asks for the full
// count and shows every matching row's number, not the lower bound. Runs are seeded through the
// store modules (bench/stream-seed.ts) before the service starts on the data dir.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { SEED_SOURCE, seedOrder, seedStream } from '../../bench/stream-seed';
import { COUNT_READS } from '../../runtime/engine/stream/stream-reader';
import { browserSuite } from '../helpers/browser-suite';
import { deploySource, startSpout, tempDir } from '../helpers/service';

/** Runs (each with its event but every tenth): more records than a page's count reads. */
const RUNS = COUNT_READS * 10;
const FILTER = 'body.amount>97';

describe('the Stream screen counts every match of a first body filter', () => {
  const dataDir = tempDir();
  // The source is deployed by a first service, its runs seeded while none runs, then the suite's starts.
  before(async () => {
    const first = await startSpout({ dataDir });
    const source = await deploySource(first, SEED_SOURCE, { name: 'orders' });
    await first.stop();
    await seedStream(dataDir, [source.id], RUNS);
  });
  const suite = browserSuite({ dataDir, args: ['--invocation-retention', String(RUNS)] });

  it('shows the full count, not the lower bound the first page answered', async () => {
    const { spout, page } = suite;
    // A first answer on a path not read yet is a lower bound (another path: FILTER's stays unread for the page below).
    const res = await spout.api('GET', `/v1/stream?limit=100&filter=${encodeURIComponent('body.customer.tier:gold')}`);
    const info = (res.json as { page_info: { total_count: number; total_partial?: boolean } }).page_info;
    assert.equal(info.total_partial, true);

    await page.goto(`${spout.url}/stream?filter=${encodeURIComponent(FILTER)}`);
    // Counting, it shows `N+ matching rows (counting…)`; then the count.
    const counted = page.getByTestId('stream-count').filter({ hasText: /^\d+ matching rows$/ });
    await counted.waitFor();
    const shown = Number((await counted.innerText()).split(' ')[0]);
    const total = await spout.api('GET', `/v1/stream/count?filter=${encodeURIComponent(FILTER)}`);
    assert.deepEqual(total.json, { total_count: shown });
    // Every run kept with amount > 97 at least (events past the events' retention are trimmed).
    let runs = 0;
    for (let n = 0; n < RUNS; n++) if (seedOrder(n).amount > 97) runs++;
    assert.ok(shown > runs, `${shown} rows, ${runs} of them runs`);
    // The newest match is the last order sent (amount 99, a failed run: no event).
    assert.match(await page.locator('.stream-row').first().innerText(), new RegExp(`/orders/${RUNS - 1}\\b`));
  });
});
