import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs a command to completion and returns its stdout parsed as JSON. */
export function runJson<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

/** Starts a long-running child and resolves once it prints a line matching `ready`. */
export function startChild(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = ready.exec(out);
      if (m) resolve({ child, match: m });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before ready:\n${out}`)));
  });
}

/** Stops a child and waits for it. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The CLI a benchmark starts: this checkout's build, or another one's (`BENCH_CLI`, to measure an older build in the same way). */
export const benchCli = process.env.BENCH_CLI ?? 'dist/cli.js';

/** The data dirs made so far, removed when the benchmark's process exits (one listener, however many a bench makes). */
const madeDirs: string[] = [];
process.once('exit', () => {
  for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh data dir for a benchmark, removed when the benchmark's process exits (a bench fills it with hundreds of MB). */
function benchDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-bench-'));
  madeDirs.push(dir);
  return dir;
}

/** A running `spout serve` for a benchmark, on a fresh data dir unless one is given; `nodeArgs` go to its node (`--cpu-prof`, say); `cli` is the build to start. */
export async function startSpout(extra: string[] = [], dataDir = benchDataDir(), nodeArgs: string[] = [], cli = benchCli) {
  const key = 'bench-key';
  const { child, match } = await startChild([...nodeArgs, cli, 'serve', '--port', '0', '--data-dir', dataDir, '--api-key', key, ...extra], /Spout listening on (\S+)\n/);
  const url = match[1] as string;
  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(url + route, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: any };
    if (!res.ok) throw new Error(`${method} ${route}: ${JSON.stringify(json)}`);
    return json.data;
  };
  return { child, url, api, dataDir };
}

/** Milliseconds from `started` (performance.now()) to the first 200 a service at `url` answers /v1 with (the bench key). */
export async function untilFirstV1(url: string, started: number): Promise<number> {
  for (;;) {
    const res = await fetch(`${url}/v1/users/me/sources?limit=1`, { headers: { authorization: 'Bearer bench-key' } }).catch(() => null);
    await res?.arrayBuffer();
    if (res?.status === 200) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** An HTTP source that emits `?n=` events per request (1 by default); written for the benchmarks. */
export const BENCH_SOURCE = `
export default {
  name: "Bench emitter",
  version: "1.0.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    const n = Number(event.query.n ?? 1);
    for (let i = 0; i < n; i++) this.$emit({ i, body: event.body });
  },
};
`;

/** Has the bench source at `endpoint` emit and store `count` more events, 1000 a request, each carrying `body`. */
export async function storeEvents(endpoint: string, count: number, body = '{}'): Promise<void> {
  for (let stored = 0; stored < count; stored += 1000) await fetch(`${endpoint}?n=${Math.min(1000, count - stored)}`, { method: 'POST', body });
}
