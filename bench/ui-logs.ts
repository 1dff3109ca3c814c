// `npm run bench:ui`: how long the Logs tab takes to open in Chromium for a source with 1 000
// recorded runs (3 log lines each), beside the same tab of a source with none (the baseline, same
// run), and the longest main-thread task meanwhile; then the longest task while 1 000 more runs
// arrive live with the tab open. Issue 16 measured 2 s and a 360 ms task before.
import type { Page } from 'playwright-core';
import { launchBrowser, signedInPage } from '../test/helpers/browser';
import { deploySource, startSpout } from '../test/helpers/service';

const RUNS = Number(process.env.BENCH_RUNS ?? 1000);
const ROUNDS = 3;

/** Logs three lines a request; written for this benchmark. */
const CHATTY = `export default {
  name: "Chatty",
  version: "0.1.0",
  props: { http: "$.interface.http" },
  async run(event) {
    const n = event.query.n;
    console.log("request", n, "arrived");
    console.info("working on", n);
    console.log("request", n, "done");
  },
};
`;

/** Records the main thread's long tasks from page load on (`window.__long`). */
const OBSERVE_LONG_TASKS = `window.__long = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });`;

declare const window: { __long: number[] };

/** Sends `count` requests to `endpoint`, 16 at a time; answers the `n` of the one answered last. */
async function hit(endpoint: string, count: number, from = 0): Promise<number> {
  let next = from;
  let last = from;
  const worker = async () => {
    while (next < from + count) {
      const n = next++;
      await (await fetch(`${endpoint}?n=${n}`, { method: 'POST', body: '{}' })).text();
      last = n;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return last;
}

/** Opens the source's Configure tab, then clicks Logs: ms until `last` shows and the stream is live, and the longest task meanwhile. */
async function openLogs(page: Page, base: string, sourceId: string, last: string | null): Promise<{ ms: number; longest: number }> {
  await page.goto(`${base}/sources/${sourceId}`);
  await page.getByRole('link', { name: 'Logs', exact: true }).waitFor();
  await page.waitForTimeout(1500); // the editor and the list settle first
  await page.evaluate(() => (window.__long = []));
  const started = Date.now();
  await page.getByRole('link', { name: 'Logs', exact: true }).click();
  await page.getByTestId('logs-state').filter({ hasText: 'live' }).waitFor();
  if (last) await page.getByText(last, { exact: true }).waitFor();
  const ms = Date.now() - started;
  const longest = Math.max(0, ...(await page.evaluate(() => window.__long)));
  return { ms, longest };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const spout = await startSpout();
  const browser = await launchBrowser();
  try {
    const empty = await deploySource(spout, CHATTY);
    const busy = await deploySource(spout, CHATTY);
    const lastLine = `request ${await hit(busy.endpoint, RUNS)} done`;
    const { page, problems } = await signedInPage(browser, spout.uiUrl, { initScript: OBSERVE_LONG_TASKS });
    const base = new URL(spout.uiUrl).origin;

    console.log(`Logs tab in Chromium: open it for a source with ${RUNS} recorded runs (3 lines each) and for one with none (median of ${ROUNDS})`);
    const rows: Record<'none' | 'busy', Array<{ ms: number; longest: number }>> = { none: [], busy: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rows.none.push(await openLogs(page, base, empty.id, null));
      rows.busy.push(await openLogs(page, base, busy.id, lastLine));
    }
    const show = (label: string, xs: Array<{ ms: number; longest: number }>) => console.log(`  ${label.padEnd(20)} open ${String(median(xs.map((x) => x.ms))).padStart(5)} ms   longest task ${String(median(xs.map((x) => x.longest))).padStart(4)} ms`);
    show('no runs (baseline)', rows.none);
    show(`${RUNS} runs`, rows.busy);

    // With the tab open, RUNS more runs arrive live.
    await page.evaluate(() => (window.__long = []));
    const started = Date.now();
    const liveLast = await hit(busy.endpoint, RUNS, RUNS);
    await page.getByText(`request ${liveLast} done`, { exact: true }).waitFor({ timeout: 60_000 });
    const tasks = await page.evaluate(() => window.__long);
    console.log(`  ${RUNS} more runs arriving live over ${Date.now() - started} ms: ${tasks.length} long tasks, longest ${Math.max(0, ...tasks).toFixed(0)} ms`);
    if (problems.length) console.log(`  page problems: ${problems.join('; ')}`);
  } finally {
    await browser.close();
    await spout.stop();
  }
}

await main();
