// `npm run bench:stream`: the first page of GET /v1/stream with 100 000 stored runs (10 sources of
// 10 000, each run with its event: 190 000 rows) beside the same with 100 runs, measured in the
// same run: unfiltered, with a selective filter that reads every run's body (`body.amount>50
// status:error`), JSON-body filters alone (`body.amount>97`, a nested field on events; each
// timed call after a first untimed one), and a second page. Data dirs are seeded by bench/stream-seed.ts.
import { performance } from 'node:perf_hooks';
import { BENCH_SOURCE, startSpout, stopChild } from './procs';
import { median } from './stats';
import { seedStream } from './stream-seed';

const SOURCES = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

type Spout = Awaited<ReturnType<typeof startSpout>>;

/** A data dir with `runsPerSource` runs for each of SOURCES sources, and a service started on it. */
async function seeded(runsPerSource: number): Promise<Spout> {
  const first = await startSpout();
  const ids: string[] = [];
  for (let i = 0; i < SOURCES; i++) ids.push((await first.api('POST', '/v1/sources', { component_code: BENCH_SOURCE, name: `shop ${i}` })).id as string);
  await stopChild(first.child);
  const t = performance.now();
  const counts = await seedStream(first.dataDir, ids, runsPerSource);
  console.log(`  seeded ${counts.runs} runs and ${counts.events} events in ${Math.round(performance.now() - t)} ms`);
  return startSpout(['--invocation-retention', String(Math.max(runsPerSource, 1000))], first.dataDir);
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] as number;

/** Times GET `route` ROUNDS times (after one untimed call, which waits for the stores to open). */
async function time(spout: Spout, route: string): Promise<{ p50: number; p95: number; total: number }> {
  const get = async () => {
    const res = await fetch(spout.url + route, { headers: { authorization: 'Bearer bench-key' } });
    if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { page_info: { total_count: number; end_cursor: string } };
  };
  const first = await get();
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await get();
    ms.push(performance.now() - t);
  }
  return { p50: median(ms), p95: p95(ms), total: first.page_info.total_count };
}

async function main(): Promise<void> {
  console.log(`GET /v1/stream, first page of 50 (ms over ${ROUNDS} calls)`);
  const small = await seeded(100 / SOURCES);
  const large = await seeded(100_000 / SOURCES);
  try {
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
