// Hosts on demand (issue 44), each figure beside its baseline measured in the same run:
//   (a) resident memory of the service and all its host processes (RSS summed from /proc) with 50
//       deployed HTTP sources, 5 of them receiving requests, against 5 deployed (target ≤ 1.3×);
//   (b) the first request to a parked source, p50/p95, against a request to a warm one (target
//       p50 ≤ 150 ms above warm);
//   (c) start to the first /v1 answer with 50 sources against an empty data dir;
//   (d) save to the new code answering, against esbuild bundling the same file alone (desktop-save.ts).
//   (e) start to the first /v1 answer with 1 000 000 stored events and 1 000 000 runs (desktop-start.ts).
//   (f) the service's peak RSS during one run emitting 200 000 events against it idle (desktop-memory.ts).
// `npm run bench:desktop [-- BASE_CLI]`: with BASE_CLI (another build's dist/cli.js, e.g. main's
// built in a `git worktree`), every figure is measured for it too, before this checkout's.
// Memory is measured after a restart of the data dir, the steady state of a desktop app whose
// sources mostly wait: a deploy leaves the source's host running until it has been idle for
// `--host-idle` (300 s by default). Linux only (/proc).
import fs from 'node:fs';
import { childPids } from './cpu';
import { emitMemory } from './desktop-memory';
import { saveRow } from './desktop-save';
import { startWithStoredData } from './desktop-start';
import { post, wakeRow } from './desktop-wake';
import { BENCH_SOURCE, startSpout, stopChild } from './procs';
import { median } from './stats';

const [baseCli] = process.argv.slice(2);
const newCli = 'dist/cli.js';
const SAMPLES = Number(process.env.DESKTOP_SAMPLES ?? 15);
const STARTS = 3;

type Spout = Awaited<ReturnType<typeof startSpout>>;

/** Resident memory of a process and everything below it, MB. */
function treeRssMb(pid: number): number {
  let kb = 0;
  const visit = (p: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return; // ended meanwhile
    }
    for (const child of childPids(p)) visit(child);
  };
  visit(pid);
  return kb / 1024;
}

/** Processes below the service (its component hosts, the spare among them). */
function hostCount(pid: number): number {
  return childPids(pid).length;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Deploys `count` bench sources, five at a time; their endpoint URLs. */
async function deployMany(spout: Spout, count: number): Promise<string[]> {
  const endpoints: string[] = [];
  for (let i = 0; i < count; i += 5) {
    const batch = await Promise.all(Array.from({ length: Math.min(5, count - i) }, () => spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE })));
    endpoints.push(...batch.map((s) => s.configured_props.http.endpoint_url as string));
  }
  return endpoints;
}

/** Starts `cli` on `dataDir` and times the first 200 to a /v1 request, polling from the spawn. */
async function firstAnswer(cli: string, dataDir: string): Promise<{ ms: number; spout: Spout }> {
  const started = performance.now();
  // The port is known from the ready line, which a service prints once its sources are loaded.
  const spout = await startSpout([], dataDir, [], cli);
  for (;;) {
    const res = await fetch(`${spout.url}/v1/users/me/sources?limit=1`, { headers: { authorization: 'Bearer bench-key' } }).catch(() => null);
    if (res?.status === 200) {
      await res.arrayBuffer();
      return { ms: performance.now() - started, spout };
    }
    await pause(5);
  }
}

/** (a) and (c): `deployed` sources, restarted (STARTS times: the median start counts), 5 of them given requests; memory and time to answer. */
async function memory(cli: string, deployed: number): Promise<{ mb: number; hosts: number; startMs: number }> {
  const first = await startSpout([], undefined, [], cli);
  const endpoints = await deployMany(first, deployed);
  await stopChild(first.child);
  const { starts, spout } = await restarts(cli, first.dataDir);
  const busy = endpoints.slice(0, 5).map((e) => e.replace(/^http:\/\/[^/]+/, spout.url));
  for (let round = 0; round < 20; round++) await Promise.all(busy.map(post));
  await pause(1000);
  const pid = spout.child.pid as number;
  const result = { mb: treeRssMb(pid), hosts: hostCount(pid), startMs: median(starts) };
  await stopChild(spout.child);
  return result;
}

/** Starts `cli` on `dataDir` STARTS times; the times to a first answer, and the last service, left running. */
async function restarts(cli: string, dataDir: string): Promise<{ starts: number[]; spout: Spout }> {
  const starts: number[] = [];
  for (;;) {
    const { ms, spout } = await firstAnswer(cli, dataDir);
    starts.push(ms);
    if (starts.length === STARTS) return { starts, spout };
    await stopChild(spout.child);
  }
}

/** (c) baseline: an empty data dir (made by a first start). */
async function emptyStart(cli: string): Promise<number> {
  const first = await startSpout([], undefined, [], cli);
  await stopChild(first.child);
  const { starts, spout } = await restarts(cli, first.dataDir);
  await stopChild(spout.child);
  return median(starts);
}

const builds = baseCli
  ? [
      { name: 'before', cli: baseCli },
      { name: 'after', cli: newCli },
    ]
  : [{ name: 'this build', cli: newCli }];
const ms = (n: number) => `${n.toFixed(0)} ms`;
for (const { name, cli } of builds) {
  console.log(`\n== ${name}: ${cli}`);
  const five = await memory(cli, 5);
  const fifty = await memory(cli, 50);
  const empty = await emptyStart(cli);
  console.log(`(a) memory, 5 of them receiving requests: 50 deployed ${fifty.mb.toFixed(0)} MB (${fifty.hosts} hosts) vs 5 deployed ${five.mb.toFixed(0)} MB (${five.hosts} hosts): ${(fifty.mb / five.mb).toFixed(2)}× (target ≤ 1.3×)`);
  await wakeRow(cli, SAMPLES);
  console.log(`(c) start to first /v1 answer (median of ${STARTS}): 50 sources ${ms(fifty.startMs)} (5 sources ${ms(five.startMs)}) vs empty data dir ${ms(empty)}`);
  await emitMemory(cli);
  await saveRow(cli, SAMPLES);
}
await startWithStoredData(builds);
