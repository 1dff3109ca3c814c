// A/B of two builds in one run: `node --import tsx bench/ab.ts ingest|delivery BASE_CLI [NEW_CLI]`
// starts both (NEW_CLI defaults to this checkout's dist/cli.js) and alternates equal rounds of the
// bench's load between them, so that the machine's drift (other load, thermal) hits both alike;
// it prints each round, then the medians and their ratio. A change that moves less than the same
// build measured against itself (about ±4% on a 2-core machine) is noise.
// `AB_ROUNDS` (default 6) rounds each; `AB_NEW_NODE_ARGS` gives the new build's node flags (to try
// a V8 flag against the same build, say). Build the base first: `git worktree add` it elsewhere
// and `npm run build` there, or copy dist/ before the change.
import { cpuPerRequest, describeCpu, treeCpu } from './cpu';
import { BENCH_SOURCE, runJson, startChild, startSpout, stopChild } from './procs';
import { median } from './stats';

const [mode = 'ingest', baseCli, newCli = 'dist/cli.js'] = process.argv.slice(2);
if (!baseCli || (mode !== 'ingest' && mode !== 'delivery')) {
  console.error('usage: node --import tsx bench/ab.ts ingest|delivery BASE_CLI [NEW_CLI]');
  process.exit(2);
}
const rounds = Number(process.env.AB_ROUNDS ?? 6);
const newNodeArgs = process.env.AB_NEW_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const DELIVERIES = 30_000;

const receiver = mode === 'delivery' ? await startChild(['--import', 'tsx', 'bench/receiver.ts'], /listening (\d+)\n/) : null;
const receiverUrl = receiver ? `http://127.0.0.1:${receiver.match[1]}` : '';
const delivered = async () => Number(await fetch(`${receiverUrl}/count`).then((r) => r.text()));

/** One build under test: a service with the bench source (and, for delivery, a subscribed webhook). */
async function contender(name: string, cli: string, nodeArgs: string[]) {
  const spout = await startSpout([], undefined, nodeArgs, cli);
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  if (receiver) {
    const hook = await spout.api('POST', '/v1/webhooks', { url: `${receiverUrl}/hook` });
    await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: hook.id });
  }
  return { name, spout, endpoint: source.configured_props.http.endpoint_url as string, pid: spout.child.pid as number, rates: [] as number[] };
}

/** Ingest: requests a second under the bench's load. Delivery: events a second from emit to the receiver. */
async function measure(endpoint: string, ms: number): Promise<{ rate: number; count: number }> {
  if (mode === 'ingest') {
    const load = await runJson<{ ok: number; perSecond: number }>(['--import', 'tsx', 'bench/load.ts', endpoint, '32', String(ms)]);
    return { rate: load.perSecond, count: load.ok };
  }
  const n = ms === 5000 ? DELIVERIES : 10_000;
  const start = await delivered();
  const started = performance.now();
  for (let sent = 0; sent < n; sent += 1000) await fetch(`${endpoint}?n=1000`, { method: 'POST', body: '{"x":1}' });
  while ((await delivered()) - start < n) await new Promise((r) => setTimeout(r, 20));
  return { rate: n / ((performance.now() - started) / 1000), count: n };
}

const both = [await contender('base', baseCli, []), await contender('new ', newCli, newNodeArgs)];
for (const c of both) await measure(c.endpoint, 2000); // warm-up: JIT, connections
for (let i = 0; i < rounds; i++) {
  for (const c of i % 2 ? [...both].reverse() : both) {
    const before = treeCpu(c.pid);
    const { rate, count } = await measure(c.endpoint, 5000);
    c.rates.push(rate);
    console.log(`${c.name} ${rate.toFixed(0).padStart(6)}/s   CPU: ${describeCpu(cpuPerRequest(before, treeCpu(c.pid), count))}`);
  }
}
for (const c of both) await stopChild(c.spout.child);
if (receiver) await stopChild(receiver.child);
const [base, next] = both.map((c) => median(c.rates)) as [number, number];
console.log(`median base ${base.toFixed(0)}/s, new ${next.toFixed(0)}/s: new/base ${(next / base).toFixed(3)}`);
