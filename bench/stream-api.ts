// `npm run bench:stream`: the first page of GET /v1/stream with 100 000 stored runs (10 sources of
// 10 000, each run with its event: 190 000 rows) beside the same with 100 runs, measured in the
// same run: unfiltered, with a selective filter that reads every run's body (`body.amount>50
// status:error`), JSON-body filters alone (`body.amount>97`, a nested field on events; each
// timed call after a first untimed one and, where the service has it, GET /v1/stream/count: warm),
// and a second page. Cold: the first call with a body path on a service just started (no field
// remembered yet), BENCH_COLD_ROUNDS restarts each. Data dirs are seeded by bench/stream-seed.ts.
import { performance } from 'node:perf_hooks';
import { BENCH_SOURCE, startSpout, stopChild } from './procs';
import { median } from './stats';
import { seedStream } from './stream-seed';

const SOURCES = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const COLD_ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 3);
/** Filters timed cold: a run's body path, and an event's nested one. */
const COLD = ['body.amount>97', 'body.customer.tier:gold kind:event'];

type Spout = Awaited<ReturnType<typeof startSpout>>;

/** A data dir with `runsPerSource` runs for each of SOURCES sources, and a service started on it. */
async function seeded(runsPerSource: number): Promise<Spout> {
  return startSpout(['--invocation-retention', String(Math.max(runsPerSource, 1000))], await seededDir(runsPerSource));
}

/** A data dir with `runsPerSource` runs for each of SOURCES sources. */
async function seededDir(runsPerSource: number): Promise<string> {
  const first = await startSpout();
  const ids: string[] = [];
  for (let i = 0; i < SOURCES; i++) ids.push((await first.api('POST', '/v1/sources', { component_code: BENCH_SOURCE, name: `shop ${i}` })).id as string);
  await stopChild(first.child);
  const t = performance.now();
  const counts = await seedStream(first.dataDir, ids, runsPerSource);
  console.log(`  seeded ${counts.runs} runs and ${counts.events} events in ${Math.round(performance.now() - t)} ms`);
  return first.dataDir;
}

type Page = { page_info: { total_count: number; end_cursor: string; total_partial?: true } };

async function get(spout: Spout, route: string): Promise<Page> {
  const res = await fetch(spout.url + route, { headers: { authorization: 'Bearer bench-key' } });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Page;
}

/** The first call of each COLD filter on a service started afresh on the data dir, COLD_ROUNDS times: ms, and the count it answered; then ms until GET /v1/stream/count answers (where the service has it). */
async function cold(spout: Spout, runsPerSource: number): Promise<{ spout: Spout; ms: Record<string, number[]>; totals: Record<string, string>; counted: Record<string, string> }> {
  const ms: Record<string, number[]> = Object.fromEntries(COLD.map((f) => [f, []]));
  const totals: Record<string, string> = {};
  let current = spout;
  for (let round = 0; round < COLD_ROUNDS; round++) {
    await stopChild(current.child);
    current = await startSpout(['--invocation-retention', String(Math.max(runsPerSource, 1000))], current.dataDir);
    await get(current, '/v1/stream?limit=50'); // the stores open
    for (const f of COLD) {
      const t = performance.now();
      const page = await get(current, `/v1/stream?limit=50&filter=${encodeURIComponent(f)}`);
      ms[f]?.push(performance.now() - t);
      totals[f] = `${page.page_info.total_count}${page.page_info.total_partial ? '+' : ''}`;
    }
  }
  // The rest of the count (a background one may be under way: this joins it), so the warm cases run alone.
  const counted: Record<string, string> = {};
  for (const f of COLD) {
    const t = performance.now();
    const res = await fetch(`${current.url}/v1/stream/count?filter=${encodeURIComponent(f)}`, { headers: { authorization: 'Bearer bench-key' } });
    const json = (await res.json()) as { total_count?: number };
    counted[f] = res.ok ? `${json.total_count} rows in ${(performance.now() - t).toFixed(0)} ms` : 'none';
  }
  return { spout: current, ms, totals, counted };
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] as number;

/** Times GET `route` ROUNDS times (after one untimed call, which waits for the stores to open, and the full count where the service has one: warm). */
async function time(spout: Spout, route: string): Promise<{ p50: number; p95: number; total: string }> {
  await get(spout, route);
  const filter = new URL(route, spout.url).searchParams.get('filter');
  if (filter) {
    const res = await fetch(`${spout.url}/v1/stream/count?filter=${encodeURIComponent(filter)}`, { headers: { authorization: 'Bearer bench-key' } });
    await res.text(); // a 404 on a build without it
  }
  const ms: number[] = [];
  let last: Page | null = null;
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    last = await get(spout, route);
    ms.push(performance.now() - t);
  }
  return { p50: median(ms), p95: p95(ms), total: `${last?.page_info.total_count}${last?.page_info.total_partial ? '+' : ''}` };
}

async function main(): Promise<void> {
  console.log(`GET /v1/stream, first page of 50 (ms over ${ROUNDS} calls)`);
  let small = await seeded(100 / SOURCES);
  let large = await seeded(100_000 / SOURCES);
  try {
    console.log(`  cold: the first call with a body path after a start (${COLD_ROUNDS} starts; p50 / max ms, rows counted, + a lower bound)`);
    const a = await cold(small, 100 / SOURCES);
    small = a.spout;
    const b = await cold(large, 100_000 / SOURCES);
    large = b.spout;
    const f = (xs: number[]) =>
      `${median(xs).toFixed(1).padStart(8)} / ${Math.max(...xs)
        .toFixed(1)
        .padStart(8)}`;
    for (const filter of COLD) console.log(`  cold ${filter.padEnd(36)} 100 runs: ${f(a.ms[filter] ?? [])} (${a.totals[filter]})   100 000 runs: ${f(b.ms[filter] ?? [])} (${b.totals[filter]}); then GET /v1/stream/count: ${b.counted[filter]}`);
    const filter = encodeURIComponent('body.amount>50 status:error');
    const cursor = async (spout: Spout) => {
      const res = await fetch(`${spout.url}/v1/stream?limit=50`, { headers: { authorization: 'Bearer bench-key' } });
      return encodeURIComponent(((await res.json()) as { page_info: { end_cursor: string } }).page_info.end_cursor);
    };
    const cases: Array<[string, (s: Spout) => Promise<string>]> = [
      ['no filter', async () => '/v1/stream?limit=50'],
      ['body.amount>50 status:error', async () => `/v1/stream?limit=50&filter=${filter}`],
      ['body.amount>97', async () => `/v1/stream?limit=50&filter=${encodeURIComponent('body.amount>97')}`],
      ['body.customer.tier:gold kind:event', async () => `/v1/stream?limit=50&filter=${encodeURIComponent('body.customer.tier:gold kind:event')}`],
      ['kind:run source:"shop 3"', async () => `/v1/stream?limit=50&filter=${encodeURIComponent('kind:run source:"shop 3"')}`],
      ['second page, no filter', async (s) => `/v1/stream?limit=50&before=${await cursor(s)}`],
    ];
    console.log(`  ${'case'.padEnd(30)} ${'100 runs: p50'.padStart(14)} ${'p95'.padStart(7)}   ${'100 000 runs: p50'.padStart(18)} ${'p95'.padStart(7)}  rows matched`);
    for (const [label, route] of cases) {
      const a = await time(small, await route(small));
      const b = await time(large, await route(large));
      const f = (n: number) => n.toFixed(1).padStart(7);
      console.log(`  ${label.padEnd(30)} ${f(a.p50).padStart(14)} ${f(a.p95)}   ${f(b.p50).padStart(18)} ${f(b.p95)}  ${a.total} / ${b.total}`);
    }
  } finally {
    await stopChild(small.child);
    await stopChild(large.child);
  }
}

await main();
