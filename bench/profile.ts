// Where the service's time goes under the benchmark's load: `node --import tsx bench/profile.ts
// ingest|delivery [SECONDS]` starts `spout serve` under `--cpu-prof`, runs the load of `npm run
// bench`, then prints CPU µs per request of the service (by thread) and of the component host,
// the latency the load generator saw, and each thread's profile (bench/cpuprofile.ts): the top
// functions by self and inclusive time, in the TypeScript sources. `PROFILE_KEEP=1` keeps the
// .cpuprofile files (for Chrome DevTools), or perf.data, and prints where.
// `PROFILE=perf` records with Linux `perf` instead (CPU time, not wall time; bench/perf-samples.ts),
// `PROFILE=gc` prints what V8's collector did instead (bench/gc-trace.ts: scavenges, their pauses
// and the bytes promoted a request, per isolate), `PROFILE=0` measures without a profiler (its
// overhead is not in the CPU figures then), and
// `PROFILE_ROUNDS=N` measures N rounds one after another, `PROFILE_STORED=N` stores N events (1000 a
// request) before the first (ingest's later rounds in `npm run bench`). `BENCH_CLI=/path/to/dist/cli.js`
// profiles another build the same way.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuPerRequest, describeCpu, treeCpu } from './cpu';
import { summarise } from './cpuprofile';
import { describeGc, summariseGcTrace } from './gc-trace';
import { perfSummary } from './perf-samples';
import { BENCH_SOURCE, runJson, startChild, startSpout, stopChild, storeEvents } from './procs';

const [mode = 'ingest', secondsText = '10'] = process.argv.slice(2);
const ms = Number(secondsText) * 1000;
const rounds = Number(process.env.PROFILE_ROUNDS ?? 1);
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-prof-'));

/** One measured round: how many requests (or deliveries) and how fast. */
async function round(mode: string, endpoint: string, count: () => Promise<number>): Promise<{ requests: number; rate: string }> {
  if (mode === 'ingest') {
    const load = await runJson<{ ok: number; perSecond: number; p50: number; p99: number }>(['--import', 'tsx', 'bench/load.ts', endpoint, '32', String(ms)]);
    return { requests: load.ok, rate: `${load.perSecond.toFixed(0)} req/s, latency p50 ${load.p50.toFixed(2)} ms p99 ${load.p99.toFixed(2)} ms` };
  }
  const started = performance.now();
  const n = Math.round((ms / 1000) * 10_000);
  const first = await count();
  await storeEvents(endpoint, n, '{"x":1}');
  while ((await count()) < first + n) await new Promise((r) => setTimeout(r, 20));
  return { requests: n, rate: `${(n / ((performance.now() - started) / 1000)).toFixed(0)} deliveries/s` };
}

async function main(): Promise<void> {
  const chosen = process.env.PROFILE ?? 'v8';
  const profiler = chosen === '0' ? null : chosen === 'perf' || chosen === 'gc' ? chosen : 'v8';
  // What each profiler needs of the service's node.
  const flags = {
    v8: ['--cpu-prof', '--cpu-prof-interval=250', `--cpu-prof-dir=${profileDir}`],
    perf: ['--perf-basic-prof-only-functions', '--interpreted-frames-native-stack', ...(process.env.PROFILE_NO_INLINE ? ['--no-turbo-inlining'] : [])],
    gc: ['--trace-gc', '--trace-gc-nvp'],
  };
  const nodeArgs = profiler ? flags[profiler] : [];
  const stored = Number(process.env.PROFILE_STORED ?? 0);
  const retention = String(Math.max(200_000, stored + 10_000));
  const spout = await startSpout(['--event-retention', retention, '--invocation-retention', retention], undefined, nodeArgs);
  const pid = spout.child.pid as number;
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const endpoint = source.configured_props.http.endpoint_url as string;
  let receiver: Awaited<ReturnType<typeof startChild>> | null = null;
  let count = async () => 0;
  if (mode === 'ingest') {
    await storeEvents(endpoint, stored);
    await runJson(['--import', 'tsx', 'bench/load.ts', endpoint, '32', '2000']);
  } else {
    receiver = await startChild(['--import', 'tsx', 'bench/receiver.ts'], /listening (\d+)\n/);
    const base = `http://127.0.0.1:${receiver.match[1]}`;
    const hook = await spout.api('POST', '/v1/webhooks', { url: `${base}/hook` });
    await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: hook.id });
    count = async () => Number(await fetch(`${base}/count`).then((r) => r.text()));
  }
  const perfData = path.join(profileDir, 'perf.data');
  const perf = profiler === 'perf' ? spawn('perf', ['record', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', String(pid), '-o', perfData], { stdio: 'ignore' }) : null;
  const perfDone = perf && new Promise((resolve) => perf.once('exit', resolve));
  if (perf) await new Promise((r) => setTimeout(r, 500));
  let trace = '';
  if (profiler === 'gc') spout.child.stdout?.on('data', (chunk: Buffer) => (trace += chunk.toString()));
  for (let i = 0; i < rounds; i++) {
    const before = treeCpu(pid);
    const started = performance.now();
    trace = '';
    const { requests, rate } = await round(mode, endpoint, count);
    const after = treeCpu(pid);
    const unit = mode === 'ingest' ? 'request' : 'delivery';
    console.log(`${mode}: ${requests} in ${((performance.now() - started) / 1000).toFixed(1)} s; ${rate}`);
    console.log(`  CPU per ${unit}: ${describeCpu(cpuPerRequest(before, after, requests))}`);
    if (profiler === 'gc') for (const line of describeGc(summariseGcTrace(trace), requests, unit)) console.log(`  ${line}`);
  }
  perf?.kill('SIGINT');
  await perfDone;
  if (receiver) await stopChild(receiver.child);
  await stopChild(spout.child);
  if (profiler === 'perf') {
    // The main thread and, for delivery, the delivery thread.
    for (const line of perfSummary(perfData, 2, Number(process.env.PROFILE_TOP ?? 25))) console.log(line);
  }
  if (profiler !== 'v8') {
    if (process.env.PROFILE_KEEP) return console.log(`\nperf.data kept in ${profileDir}`);
    return fs.rmSync(profileDir, { recursive: true, force: true });
  }
  for (const file of fs.readdirSync(profileDir).sort()) {
    console.log(`\n${file}`);
    for (const line of summarise(path.join(profileDir, file), Number(process.env.PROFILE_TOP ?? 25))) console.log(`  ${line}`);
  }
  if (process.env.PROFILE_KEEP) console.log(`\nprofiles kept in ${profileDir}`);
  else fs.rmSync(profileDir, { recursive: true, force: true });
}

await main();
