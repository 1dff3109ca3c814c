// `npm run bench:stream-ui`: the Stream screen (issue 47) in Chromium with 100 000 stored runs
// beside the same with 100, in the same run: first paint (navigation to /stream until rows show)
// and filter time (typing a filter until the filtered rows show), p50 and p95 over SAMPLES each.
// The runs (amounts 0..99, one in ten an error) and their events are seeded through the store
// modules (bench/stream-seed.ts) before the service starts on the data dir. Screenshots at 1440 and 1024 px go
// to /work/screens (light).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, signedInPage } from '../test/helpers/browser';
import { deploySource, type SpoutProcess, startSpout, tempDir } from '../test/helpers/service';
import { SEED_SOURCE, seedStream } from './stream-seed';

const BIG = Number(process.env.BENCH_RUNS ?? 100_000);
const SMALL = 100;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 7);
const SCREENS = process.env.BENCH_SCREENS ?? '/work/screens';

/** The filters timed: a field of the run (cheap) and a JSON field of the body (parses each record). */
const FILTERS = ['status:error', 'body.amount>97'];

/** A data dir holding `runs` stored runs of one source and their events (bench/stream-seed.ts). */
async function seed(runs: number): Promise<string> {
  const dataDir = tempDir('spout-bench-stream-');
  const spout = await startSpout({ dataDir, args: ['--invocation-retention', String(Math.max(runs, 1000))] });
  const source = await deploySource(spout, SEED_SOURCE, { name: 'orders' });
  await spout.stop();
  await seedStream(dataDir, [source.id], runs);
  return dataDir;
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] as number;

/** ms from navigating to /stream until its first row shows. */
async function firstPaint(page: Page, base: string): Promise<number> {
  await page.goto('about:blank');
  const started = Date.now();
  await page.goto(`${base}/stream`);
  await page.locator('.stream-row').first().waitFor();
  return Date.now() - started;
}

/** ms from typing `filter` in the box until rows read with it show (every shown row then matches it). */
async function filterTime(page: Page, base: string, filter: string): Promise<number> {
  await page.goto(`${base}/stream`);
  await page.locator('.stream-row').first().waitFor();
  const started = Date.now();
  await page.getByRole('searchbox', { name: 'Filter' }).fill(filter);
  await page.waitForURL((url) => url.searchParams.get('filter') === filter);
  await page.getByTestId('stream-count').filter({ hasText: 'matching' }).waitFor();
  await page.locator('.stream-row').first().waitFor();
  return Date.now() - started;
}

interface Measured {
  paint: number[];
  filters: Record<string, number[]>;
  /** The service's own answer to `GET /v1/stream` (first page) for no filter and each filter, from Node. */
  api: Record<string, number[]>;
}

/** ms for the service to answer the first page of the stream with `filter`. */
async function apiTime(spout: SpoutProcess, filter: string): Promise<number> {
  const started = Date.now();
  const res = await spout.api('GET', `/v1/stream?limit=100&filter=${encodeURIComponent(filter)}`);
  if (res.status !== 200) throw new Error(`GET /v1/stream: ${res.status} ${JSON.stringify(res.json)}`);
  return Date.now() - started;
}

async function measure(spout: SpoutProcess, shots: boolean): Promise<Measured> {
  const browser = await launchBrowser();
  try {
    const { page, problems } = await signedInPage(browser, await spout.signInUrl());
    const base = new URL(spout.url).origin;
    const result: Measured = { paint: [], filters: Object.fromEntries(FILTERS.map((f) => [f, []])), api: Object.fromEntries(['', ...FILTERS].map((f) => [f, []])) };
    await firstPaint(page, base); // warm: the bundle cached, as for a user coming back
    for (let i = 0; i < SAMPLES; i++) {
      result.paint.push(await firstPaint(page, base));
      for (const f of FILTERS) result.filters[f]?.push(await filterTime(page, base, f));
      for (const f of ['', ...FILTERS]) result.api[f]?.push(await apiTime(spout, f));
    }
    if (shots) {
      fs.mkdirSync(SCREENS, { recursive: true });
      for (const width of [1440, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${base}/stream`);
        await page.locator('.stream-row[data-kind="run"]').nth(1).click();
        await page.getByTestId('stream-detail').waitFor();
        await page.getByTestId('invocation-detail').waitFor();
        await page.screenshot({ path: path.join(SCREENS, `47-stream-${width}.png`) });
      }
    }
    if (problems.length) console.log(`  page problems: ${problems.join('; ')}`);
    return result;
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  console.log(`Stream screen in Chromium: ${BIG} stored runs beside ${SMALL} (same run), ${SAMPLES} samples each`);
  const seeded = Date.now();
  const dirs = { small: await seed(SMALL), big: await seed(BIG) };
  console.log(`  seeded in ${Date.now() - seeded} ms`);
  const results: Record<string, Measured> = {};
  for (const [name, dataDir] of Object.entries(dirs)) {
    const started = Date.now();
    const spout = await startSpout({ dataDir, args: ['--invocation-retention', String(name === 'big' ? BIG : 1000)] });
    console.log(`  service on ${name === 'big' ? BIG : SMALL} runs ready in ${Date.now() - started} ms`);
    try {
      results[name] = await measure(spout, name === 'big');
    } finally {
      await spout.stop();
    }
  }
  const row = (label: string, pick: (m: Measured) => number[]) => {
    const cells = [SMALL, BIG].map((n) => {
      const xs = pick(results[n === BIG ? 'big' : 'small'] as Measured);
      return `p50 ${String(percentile(xs, 50)).padStart(5)} ms  p95 ${String(percentile(xs, 95)).padStart(5)} ms`;
    });
    console.log(`  ${label.padEnd(28)} ${cells.join('   |   ')}`);
  };
  console.log(`  ${''.padEnd(28)} ${`${SMALL} runs`.padEnd(28)}   |   ${BIG} runs`);
  row('first paint', (m) => m.paint);
  for (const f of FILTERS) row(`filter ${f}`, (m) => m.filters[f] ?? []);
  // The first sample of each filter is its first use since the service started: a body path not read before (cold).
  for (const f of FILTERS) row(`  ${f}, first (cold)`, (m) => (m.filters[f] ?? []).slice(0, 1));
  console.log('  of which the service answering GET /v1/stream (first page, from Node):');
  for (const f of ['', ...FILTERS]) row(`  ${f || 'no filter'}`, (m) => m.api[f] ?? []);
  console.log(`  screenshots: ${SCREENS}/47-stream-1440.png, ${SCREENS}/47-stream-1024.png`);
  for (const dir of Object.values(dirs)) fs.rmSync(dir, { recursive: true, force: true });
}

await main();
