// `npm run bench`: each figure beside a bare baseline measured in the same run, as a ratio.
import { BENCH_SOURCE, runJson, startChild, startSpout, stopChild } from './procs';

const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const INGEST_CONCURRENCY = 32;
const DELIVERY_CONCURRENCY = 16; // the dispatcher's per-webhook concurrency
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 30_000);

interface Load {
  ok: number;
  failed: number;
  perSecond: number;
}

const load = (url: string, concurrency: number, ms = LOAD_SECONDS * 1000) =>
  runJson<Load>(['--import', 'tsx', 'bench/load.ts', url, String(concurrency), String(ms)]);

const fmt = (n: number) => n.toFixed(0).padStart(8);

/** Median of three alternating rounds: the baseline and spout, each under the same load. */
async function alternate(bareUrl: string, spoutUrl: string, concurrency: number) {
  const rounds: Array<{ bare: number; spout: number }> = [];
  for (let round = 0; round < 3; round++) {
    rounds.push({ bare: (await load(bareUrl, concurrency)).perSecond, spout: (await load(spoutUrl, concurrency)).perSecond });
  }
  const byRatio = [...rounds].sort((x, y) => x.spout / x.bare - y.spout / y.bare);
  return { rounds, median: byRatio[1] as { bare: number; spout: number } };
}

async function ingest(): Promise<void> {
  const bare = await startChild(['--import', 'tsx', 'bench/bare-http.ts'], /listening (\d+)\n/);
  const bareUrl = `http://127.0.0.1:${bare.match[1]}/`;
  const spout = await startSpout(['--event-retention', '200000', '--invocation-retention', '200000']);
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const endpoint = source.configured_props.http.endpoint_url as string;
  const storedCount = async () => {
    const res = await fetch(`${spout.url}/v1/sources/${source.id}/event_summaries?limit=1`, { headers: { authorization: 'Bearer bench-key' } });
    return ((await res.json()) as { page_info: { total_count: number } }).page_info.total_count;
  };
  // Both warm up (JIT, connections) before anything is measured.
  await load(bareUrl, INGEST_CONCURRENCY, 2000);
  await load(endpoint, INGEST_CONCURRENCY, 2000);
  const before = await storedCount();
  const small = await alternate(bareUrl, endpoint, INGEST_CONCURRENCY);

  // Fill the store past 100 000 events, then measure again with the same load.
  for (let total = await storedCount(); total < 100_000; total += 1000) await fetch(`${endpoint}?n=1000`, { method: 'POST', body: '{}' });
  const full = await storedCount();
  const large = await alternate(bareUrl, endpoint, INGEST_CONCURRENCY);

  // Every request is a recorded run: fill the run records past 100 000 too, and measure once more.
  const recordedCount = async () => {
    const res = await fetch(`${spout.url}/v1/sources/${source.id}/invocations?limit=1`, { headers: { authorization: 'Bearer bench-key' } });
    return ((await res.json()) as { page_info: { total_count: number } }).page_info.total_count;
  };
  while ((await recordedCount()) < 100_000) await load(endpoint, INGEST_CONCURRENCY, 5000);
  const recorded = await recordedCount();
  const runs = await alternate(bareUrl, endpoint, INGEST_CONCURRENCY);
  await stopChild(spout.child);
  await stopChild(bare.child);

  const line = (label: string, r: { bare: number; spout: number }) =>
    `  ${label}  bare node:http ${fmt(r.bare)} req/s   spout ${fmt(r.spout)} req/s   ratio ${(r.spout / r.bare).toFixed(2)}`;
  console.log(`\nIngest: POST to an HTTP source (in its own component host) that emits each request durably, every run recorded (concurrency ${INGEST_CONCURRENCY}, ${LOAD_SECONDS} s a run, 3 alternating rounds)`);
  for (const r of small.rounds) console.log(line(`${String(before).padStart(7)} stored`, r));
  for (const r of large.rounds) console.log(line(`${String(full).padStart(7)} stored`, r));
  console.log(`  median ratio with ${before} stored: ${(small.median.spout / small.median.bare).toFixed(2)} (target >= 0.25)`);
  console.log(`  median ratio with ${full} stored: ${(large.median.spout / large.median.bare).toFixed(2)} (an emit costs the same however many are stored)`);
  for (const r of runs.rounds) console.log(line(`${String(recorded).padStart(7)} runs `, r));
  console.log(`  median ratio with ${recorded} recorded runs: ${(runs.median.spout / runs.median.bare).toFixed(2)} (a run costs the same however many are recorded)`);
}

async function delivery(): Promise<void> {
  const receiver = await startChild(['--import', 'tsx', 'bench/receiver.ts'], /listening (\d+)\n/);
  const base = `http://127.0.0.1:${receiver.match[1]}`;
  const count = async () => Number(await fetch(`${base}/count`).then((r) => r.text()));

  const spout = await startSpout();
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const endpoint = source.configured_props.http.endpoint_url as string;
  const hook = await spout.api('POST', '/v1/webhooks', { url: `${base}/hook` });
  await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: hook.id });

  /** Emits `n` events (1000 per request) and waits until the receiver has them all. */
  const deliverThrough = async (n: number) => {
    const start = await count();
    const started = performance.now();
    for (let sent = 0; sent < n; sent += 1000) await fetch(`${endpoint}?n=${Math.min(1000, n - sent)}`, { method: 'POST', body: '{"x":1}' });
    while ((await count()) - start < n) await new Promise((r) => setTimeout(r, 20));
    return n / ((performance.now() - started) / 1000);
  };

  // Both sides warm up first (JIT, connections), then alternate so that drift hits both alike.
  await load(`${base}/hook`, DELIVERY_CONCURRENCY, 2000);
  await deliverThrough(Math.min(10_000, DELIVERIES));
  const rounds: Array<{ bare: number; spout: number }> = [];
  for (let round = 0; round < 3; round++) {
    const bare = (await load(`${base}/hook`, DELIVERY_CONCURRENCY)).perSecond;
    rounds.push({ bare, spout: await deliverThrough(DELIVERIES) });
  }
  await stopChild(spout.child);
  await stopChild(receiver.child);

  const ratios = rounds.map((r) => r.spout / r.bare).sort((x, y) => x - y);
  console.log(`\nDelivery: ${DELIVERIES} events from emit to a local receiver, signed and logged (concurrency ${DELIVERY_CONCURRENCY}; 3 rounds after warm-up)`);
  for (const [i, r] of rounds.entries()) {
    console.log(`  round ${i + 1}: bare undici POST loop ${fmt(r.bare)} req/s   spout ${fmt(r.spout)} deliveries/s   ratio ${(r.spout / r.bare).toFixed(2)}`);
  }
  console.log(`  median ratio ${ratios[1]!.toFixed(2)} (target >= 0.5)`);
}

if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === "ingest") await ingest();
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === "delivery") await delivery();
