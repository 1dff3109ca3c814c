// `npm run bench`: each figure beside a bare baseline measured in the same run, as a ratio, and the
// service's CPU time per request (less sensitive than a ratio to other load on the machine).
// `BENCH_CLI=/path/to/dist/cli.js` measures another build the same way; `BENCH_ONLY=ingest|delivery`
// runs one half; `BENCH_STORED` (default 200 000) is how many events and runs the later ingest
// rounds are measured with.
import { cpuPerRequest, describeCpu, treeCpu } from './cpu';
import { BENCH_SOURCE, runJson, startChild, startSpout, stopChild, storeEvents } from './procs';

const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const INGEST_CONCURRENCY = 32;
const DELIVERY_CONCURRENCY = 16; // the dispatcher's per-webhook concurrency
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 30_000);
const STORED = Number(process.env.BENCH_STORED ?? 200_000);

interface Load {
  ok: number;
  failed: number;
  perSecond: number;
}

interface Round {
  bare: number;
  spout: number;
  cpu: string;
}

const load = (url: string, concurrency: number, ms = LOAD_SECONDS * 1000) => runJson<Load>(['--import', 'tsx', 'bench/load.ts', url, String(concurrency), String(ms)]);

const fmt = (n: number) => n.toFixed(0).padStart(8);
const ratio = (r: { bare: number; spout: number }) => (r.spout / r.bare).toFixed(2);

/** Three alternating rounds, the baseline and spout each under the same load; the median by ratio. */
async function alternate(bareUrl: string, spoutUrl: string, pid: number): Promise<{ rounds: Round[]; median: Round }> {
  const rounds: Round[] = [];
  for (let round = 0; round < 3; round++) {
    const bare = (await load(bareUrl, INGEST_CONCURRENCY)).perSecond;
    const before = treeCpu(pid);
    const spout = await load(spoutUrl, INGEST_CONCURRENCY);
    rounds.push({ bare, spout: spout.perSecond, cpu: describeCpu(cpuPerRequest(before, treeCpu(pid), spout.ok)) });
  }
  const byRatio = [...rounds].sort((x, y) => x.spout / x.bare - y.spout / y.bare);
  return { rounds, median: byRatio[1] as Round };
}

async function ingest(): Promise<void> {
  const bare = await startChild(['--import', 'tsx', 'bench/bare-http.ts'], /listening (\d+)\n/);
  const bareUrl = `http://127.0.0.1:${bare.match[1]}/`;
  const retention = String(STORED + 10_000);
  const spout = await startSpout(['--event-retention', retention, '--invocation-retention', retention]);
  const pid = spout.child.pid as number;
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const endpoint = source.configured_props.http.endpoint_url as string;
  const total = async (what: 'event_summaries' | 'invocations') => {
    const res = await fetch(`${spout.url}/v1/sources/${source.id}/${what}?limit=1`, { headers: { authorization: 'Bearer bench-key' } });
    return ((await res.json()) as { page_info: { total_count: number } }).page_info.total_count;
  };
  // Both warm up (JIT, connections) before anything is measured.
  await load(bareUrl, INGEST_CONCURRENCY, 2000);
  await load(endpoint, INGEST_CONCURRENCY, 2000);
  const measured: Array<{ label: string; rounds: Round[]; median: Round }> = [];
  const measure = async () => {
    const [events, runs] = [await total('event_summaries'), await total('invocations')];
    measured.push({ label: `${String(events).padStart(7)} events, ${String(runs).padStart(7)} runs stored`, ...(await alternate(bareUrl, endpoint, pid)) });
  };
  await measure();
  // Fill the store with events (1000 a request), then measure again with the same load.
  await storeEvents(endpoint, STORED - (await total('event_summaries')));
  await measure();
  // Every request is a recorded run: fill the run records too, and measure once more.
  while ((await total('invocations')) < STORED) await load(endpoint, INGEST_CONCURRENCY, 5000);
  await measure();
  await stopChild(spout.child);
  await stopChild(bare.child);

  console.log(`\nIngest: POST to an HTTP source (in its own component host) that emits each request durably, every run recorded (concurrency ${INGEST_CONCURRENCY}, ${LOAD_SECONDS} s a run, 3 alternating rounds)`);
  for (const { label, rounds } of measured) {
    for (const r of rounds) console.log(`  ${label}  bare node:http ${fmt(r.bare)} req/s   spout ${fmt(r.spout)} req/s   ratio ${ratio(r)}   CPU a request: ${r.cpu}`);
  }
  const [small, events, runs] = measured as [(typeof measured)[0], (typeof measured)[0], (typeof measured)[0]];
  console.log(`  median ratio, few stored:                ${ratio(small.median)} (target >= 0.30)`);
  console.log(`  median ratio, ${STORED} events stored:     ${ratio(events.median)} (an emit costs the same however many are stored)`);
  console.log(`  median ratio, ${STORED} events and runs:   ${ratio(runs.median)} (a run costs the same however many are recorded)`);
}

async function delivery(): Promise<void> {
  const receiver = await startChild(['--import', 'tsx', 'bench/receiver.ts'], /listening (\d+)\n/);
  const base = `http://127.0.0.1:${receiver.match[1]}`;
  const count = async () => Number(await fetch(`${base}/count`).then((r) => r.text()));

  const spout = await startSpout();
  const pid = spout.child.pid as number;
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const endpoint = source.configured_props.http.endpoint_url as string;
  const hook = await spout.api('POST', '/v1/webhooks', { url: `${base}/hook` });
  await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: hook.id });

  /**
   * Emits `n` events (1000 per request) and waits until the receiver has them all; also says how
   * the time split between feeding the events (delivering meanwhile) and draining what was left.
   */
  const deliverThrough = async (n: number) => {
    const start = await count();
    const started = performance.now();
    await storeEvents(endpoint, n, '{"x":1}');
    const fedMs = performance.now() - started;
    const fedDelivered = (await count()) - start;
    while ((await count()) - start < n) await new Promise((r) => setTimeout(r, 20));
    const ms = performance.now() - started;
    const phases = `fed in ${fedMs.toFixed(0)} ms delivering ${(fedDelivered / (fedMs / 1000)).toFixed(0)}/s, then ${((n - fedDelivered) / ((ms - fedMs) / 1000)).toFixed(0)}/s`;
    return { perSecond: n / (ms / 1000), phases };
  };

  // Both sides warm up first (JIT, connections), then alternate so that drift hits both alike.
  await load(`${base}/hook`, DELIVERY_CONCURRENCY, 2000);
  await deliverThrough(Math.min(10_000, DELIVERIES));
  const rounds: Array<Round & { phases: string }> = [];
  for (let round = 0; round < 3; round++) {
    const bare = (await load(`${base}/hook`, DELIVERY_CONCURRENCY)).perSecond;
    const before = treeCpu(pid);
    const { perSecond, phases } = await deliverThrough(DELIVERIES);
    rounds.push({ bare, spout: perSecond, cpu: describeCpu(cpuPerRequest(before, treeCpu(pid), DELIVERIES)), phases });
  }
  await stopChild(spout.child);
  await stopChild(receiver.child);

  const ratios = rounds.map((r) => r.spout / r.bare).sort((x, y) => x - y);
  console.log(`\nDelivery: ${DELIVERIES} events from emit to a local receiver, signed and logged (concurrency ${DELIVERY_CONCURRENCY}; 3 rounds after warm-up)`);
  for (const [i, r] of rounds.entries()) {
    console.log(`  round ${i + 1}: bare undici POST loop ${fmt(r.bare)} req/s   spout ${fmt(r.spout)} deliveries/s   ratio ${ratio(r)}   CPU a delivery: ${r.cpu}`);
    console.log(`           (${r.phases})`);
  }
  console.log(`  median ratio ${ratios[1]!.toFixed(2)} (target >= 0.55)`);
}

if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'ingest') await ingest();
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'delivery') await delivery();
