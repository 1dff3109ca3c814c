// Issue 44 point 4, memory bounded by work, not by history: the service's peak resident memory
// (sampled every 50 ms from /proc) during one run emitting 200 000 small events, against the idle
// service (target ≤ 2×), in three cases: no webhook; a webhook on a local receiver, measured until
// the delivery backlog has drained; and the same 200 000 events as 1000 runs of 200, which fill a
// source's retention of runs (1000).
import fs from 'node:fs';
import { childPids } from './cpu';
import { BENCH_SOURCE, startChild, startSpout, stopChild } from './procs';

const EVENTS = Number(process.env.MEMORY_EVENTS ?? 200_000);
const RUNS = 1000;

type Spout = Awaited<ReturnType<typeof startSpout>>;

/** Resident memory of one process, MB (0 once it has ended). */
function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The peak RSS of the service (alone, and with its hosts) while `work` runs, read every 50 ms. */
async function peakDuring(pid: number, work: () => Promise<void>): Promise<{ service: number; tree: number }> {
  const peak = { service: 0, tree: 0 };
  const sample = () => {
    const service = rssMb(pid);
    const tree = service + childPids(pid).reduce((sum, child) => sum + rssMb(child), 0);
    peak.service = Math.max(peak.service, service);
    peak.tree = Math.max(peak.tree, tree);
  };
  const timer = setInterval(sample, 50);
  try {
    await work();
  } finally {
    clearInterval(timer);
    sample();
  }
  return peak;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(url: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', body: '{}' });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
}

/** A fresh service with one bench source, its host warmed by one request; its idle RSS (alone, with hosts). */
async function idleService(cli: string): Promise<{ spout: Spout; endpoint: string; sourceId: string; idle: { service: number; tree: number } }> {
  const spout = await startSpout([], undefined, [], cli);
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const endpoint = source.configured_props.http.endpoint_url as string;
  await post(endpoint);
  await pause(1000);
  const pid = spout.child.pid as number;
  const service = rssMb(pid);
  return { spout, endpoint, sourceId: source.id, idle: { service, tree: service + childPids(pid).reduce((s, c) => s + rssMb(c), 0) } };
}

/** Subscribes a webhook on a local counting receiver to the source; `drained()` resolves once it has counted `count`. */
async function localReceiver(spout: Spout, sourceId: string) {
  const receiver = await startChild(['--import', 'tsx', 'bench/receiver.ts'], /listening (\d+)\n/);
  const base = `http://127.0.0.1:${receiver.match[1]}`;
  const hook = await spout.api('POST', '/v1/webhooks', { url: `${base}/hook` });
  await spout.api('POST', '/v1/subscriptions', { emitter_id: sourceId, listener_id: hook.id });
  const drained = async (count: number) => {
    while (Number(await (await fetch(`${base}/count`)).text()) < count) await pause(200);
  };
  return { drained, stop: () => stopChild(receiver.child) };
}

/** The three cases for one build: peak and idle MB. */
async function cases(cli: string) {
  const rows: Array<{ name: string; idle: { service: number; tree: number }; peak: { service: number; tree: number } }> = [];
  {
    const { spout, endpoint, idle } = await idleService(cli);
    const peak = await peakDuring(spout.child.pid as number, () => post(`${endpoint}?n=${EVENTS}`));
    rows.push({ name: `one run emitting ${EVENTS}, no webhook`, idle, peak });
    await stopChild(spout.child);
  }
  {
    const { spout, endpoint, sourceId, idle } = await idleService(cli);
    const receiver = await localReceiver(spout, sourceId);
    const peak = await peakDuring(spout.child.pid as number, async () => {
      await post(`${endpoint}?n=${EVENTS}`);
      await receiver.drained(EVENTS);
    });
    rows.push({ name: `one run emitting ${EVENTS}, a webhook, until delivered`, idle, peak });
    await receiver.stop();
    await stopChild(spout.child);
  }
  {
    const { spout, endpoint, idle } = await idleService(cli);
    const peak = await peakDuring(spout.child.pid as number, async () => {
      for (let i = 0; i < RUNS; i++) await post(`${endpoint}?n=${EVENTS / RUNS}`);
    });
    rows.push({ name: `${RUNS} runs of ${EVENTS / RUNS} (a full retention of runs), no webhook`, idle, peak });
    await stopChild(spout.child);
  }
  return rows;
}

/** Prints issue 44's memory row for `cli`: each case's peak beside the idle service of the same case. */
export async function emitMemory(cli: string): Promise<void> {
  const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const loadBefore = load();
  for (const { name, idle, peak } of await cases(cli)) {
    console.log(`(f) peak RSS, ${name}: service ${peak.service.toFixed(0)} MB vs idle ${idle.service.toFixed(0)} MB: ${(peak.service / idle.service).toFixed(2)}× (target ≤ 2×); with hosts ${peak.tree.toFixed(0)} vs ${idle.tree.toFixed(0)} MB`);
  }
  console.log(`    (f) load average ${loadBefore} before, ${load()} after`);
}
