// How each thread spends the bench's ingest load: `node --import tsx bench/thread-time.ts
// [CONCURRENCY] [SECONDS]` runs `spout serve` with the bench's source under the load of
// `npm run bench` (32 connections, 5 s by default) and prints, per thread of the service and of
// its component host, the share of the time it was on a CPU, runnable but waiting for one, and
// neither (asleep: nothing to do), from /proc/<pid>/task/<tid>/schedstat (Linux); and how idle
// the machine was. A main thread that sleeps while requests are in flight says the throughput is
// bound by a wait (a disk sync, a host), not by its CPU.
import fs from 'node:fs';
import { childPids } from './cpu';
import { BENCH_SOURCE, runJson, startSpout, stopChild } from './procs';

const [concurrency = '32', seconds = '5'] = process.argv.slice(2);

/** Nanoseconds on a CPU and waiting for one, per thread of a process. */
function schedTimes(pid: number): Map<string, { run: number; wait: number }> {
  const out = new Map<string, { run: number; wait: number }>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      out.set(tid === String(pid) ? `${pid} main` : `${pid} thread ${tid}`, { run: run as number, wait: wait as number });
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** Idle and total jiffies of the whole machine (/proc/stat's first line; iowait counts as idle). */
function machineTimes(): { idle: number; total: number } {
  const fields = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] as string).trim().split(/\s+/).slice(1).map(Number);
  return { idle: (fields[3] as number) + (fields[4] as number), total: fields.reduce((a, b) => a + b, 0) };
}

const spout = await startSpout();
const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
const endpoint = source.configured_props.http.endpoint_url as string;
const load = (ms: number) => runJson<{ ok: number; perSecond: number; p50: number }>(['--import', 'tsx', 'bench/load.ts', endpoint, concurrency, String(ms)]);
await load(2000); // warm-up: JIT, connections
const pids = [spout.child.pid as number, ...childPids(spout.child.pid as number)];
const before = pids.map(schedTimes);
const machineBefore = machineTimes();
const started = performance.now();
const result = await load(Number(seconds) * 1000);
const wallNs = (performance.now() - started) * 1e6;
const after = pids.map(schedTimes);
const machineAfter = machineTimes();
await stopChild(spout.child);

const pct = (ns: number) => `${((100 * ns) / wallNs).toFixed(1).padStart(5)}%`;
console.log(`ingest at concurrency ${concurrency}: ${result.perSecond.toFixed(0)} req/s, latency p50 ${result.p50.toFixed(2)} ms; the machine ${((100 * (machineAfter.idle - machineBefore.idle)) / (machineAfter.total - machineBefore.total)).toFixed(1)}% idle`);
console.log('  thread (service, then host)      on a CPU   waiting   asleep   CPU µs a request');
for (const [i, times] of after.entries()) {
  for (const [name, t] of times) {
    const was = before[i]?.get(name) ?? { run: 0, wait: 0 };
    const run = t.run - was.run;
    const wait = t.wait - was.wait;
    // Threads that hardly ran (V8's idle helpers, libuv's pool between syncs) are left out.
    if (run < wallNs / 100) continue;
    console.log(`  ${name.padEnd(30)}  ${pct(run)}    ${pct(wait)}   ${pct(Math.max(0, wallNs - run - wait))}   ${(run / 1000 / result.ok).toFixed(1)}`);
  }
}
