// CPU time of a process tree from /proc (Linux), by thread: less sensitive to other load on the
// machine than throughput, so the benchmarks report it per request beside their ratios.
import fs from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds of one process: its main thread, its other threads (workers, libuv's pool, V8's helpers), and in all; each also in the kernel (`sys`). */
export interface ProcessCpu {
  pid: number;
  total: number;
  byThread: Record<string, number>;
  sysByThread: Record<string, number>;
}

function stat(file: string): { ppid: number; ms: number; sys: number } | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null; // the process or thread ended
  }
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  // After the name: state, ppid, …; utime and stime are fields 14 and 15 of the whole line.
  const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  return { ppid: Number(fields[1]), ms, sys: (Number(fields[12]) * 1000) / TICKS_PER_SECOND };
}

/** The CPU a process has used so far, by thread. */
export function processCpu(pid: number): ProcessCpu {
  const byThread: Record<string, number> = {};
  const sysByThread: Record<string, number> = {};
  let total = 0;
  let tasks: string[] = [];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return { pid, total, byThread, sysByThread };
  }
  for (const tid of tasks) {
    const s = stat(`/proc/${pid}/task/${tid}/stat`);
    if (!s) continue;
    // Node names none of its threads (worker threads, libuv's pool and V8's helpers are all `node`).
    const name = tid === String(pid) ? 'main' : 'other threads';
    byThread[name] = (byThread[name] ?? 0) + s.ms;
    sysByThread[name] = (sysByThread[name] ?? 0) + s.sys;
    total += s.ms;
  }
  return { pid, total, byThread, sysByThread };
}

/** The pids of a process's children (the component hosts of a service). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    if (stat(`/proc/${name}/stat`)?.ppid === pid) out.push(Number(name));
  }
  return out;
}

/** A reading of a service and its component hosts, to subtract from a later one. */
export interface TreeCpu {
  service: ProcessCpu;
  hosts: number;
}

/** CPU so far of a service process and, together, of its children (component hosts). */
export function treeCpu(pid: number): TreeCpu {
  return { service: processCpu(pid), hosts: childPids(pid).reduce((n, child) => n + processCpu(child).total, 0) };
}

/** CPU µs per request between two readings: the service (by thread, and of that in the kernel) and its hosts. */
export function cpuPerRequest(before: TreeCpu, after: TreeCpu, requests: number) {
  const us = (ms: number) => (ms * 1000) / Math.max(1, requests);
  const threads: Record<string, number> = {};
  const sys: Record<string, number> = {};
  for (const [name, ms] of Object.entries(after.service.byThread)) threads[name] = us(ms - (before.service.byThread[name] ?? 0));
  for (const [name, ms] of Object.entries(after.service.sysByThread)) sys[name] = us(ms - (before.service.sysByThread[name] ?? 0));
  return { service: us(after.service.total - before.service.total), hosts: us(after.hosts - before.hosts), threads, sys };
}

/** `service 412 µs (main 301 (sys 120), other threads 111 (sys 90)) + hosts 180 µs` */
export function describeCpu(c: ReturnType<typeof cpuPerRequest>): string {
  const threads = Object.entries(c.threads)
    .filter(([, v]) => v >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([name, v]) => `${name.trim()} ${v.toFixed(0)} (sys ${(c.sys[name] ?? 0).toFixed(0)})`)
    .join(', ');
  return `service ${c.service.toFixed(0)} µs (${threads}) + hosts ${c.hosts.toFixed(0)} µs`;
}
