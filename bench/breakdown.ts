// Where a request's wall-clock time goes: `node --import tsx bench/breakdown.ts [SECONDS]` runs the
// service in this process (from the TypeScript sources of the current folder, so it can be run in
// an older checkout too), times each stage of an `/e/` request under the ingest load of `npm run
// bench` by wrapping the methods that hold it, and prints each stage's mean time per request,
// beside the file system calls and the event loop's use. Stages overlap: a run waits for its host
// while the previous batch is being synced.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { BENCH_SOURCE, runJson } from './procs';

const seconds = Number(process.argv[2] ?? 10);
const root = process.cwd();
const load = async <T>(file: string) => (await import(pathToFileURL(path.join(root, file)).href)) as T;

interface Stage {
  count: number;
  ms: number;
}
const stages = new Map<string, Stage>();
let measuring = false;
const note = (name: string, ms: number) => {
  if (!measuring) return;
  const s = stages.get(name) ?? { count: 0, ms: 0 };
  s.count++;
  s.ms += ms;
  stages.set(name, s);
};

/** Wraps a method that returns a promise (or `{durable}`) and notes the time until it settles. */
function timeMethod(proto: Record<string, unknown>, method: string, name: string, pick?: (value: any) => Promise<unknown>): void {
  const original = proto[method] as (...args: unknown[]) => unknown;
  proto[method] = function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const value = original.apply(this, args);
    const promise = pick ? pick(value) : (value as Promise<unknown>);
    void Promise.resolve(promise).then(
      () => note(name, performance.now() - started),
      () => undefined,
    );
    return value;
  };
}

/** Wraps a synchronous function of a module object and notes its time. */
function timeSync(target: Record<string, unknown>, fn: string, name: string): void {
  const original = target[fn] as (...args: unknown[]) => unknown;
  target[fn] = function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      note(name, performance.now() - started);
    }
  };
}

/** Wraps a callback-taking function of a module object and notes the time until its callback. */
function timeCallback(target: Record<string, unknown>, fn: string, name: string): void {
  const original = target[fn] as (...args: unknown[]) => unknown;
  target[fn] = function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const callback = args.at(-1) as (...a: unknown[]) => void;
    args[args.length - 1] = (...a: unknown[]) => {
      note(name, performance.now() - started);
      callback(...a);
    };
    return original.apply(this, args);
  };
}

const proto = (mod: Record<string, any>, name: string) => (mod[name] as { prototype: Record<string, unknown> } | undefined)?.prototype;

async function main(): Promise<void> {
  const runner = await load<Record<string, any>>('runtime/engine/sources/source-runner.ts');
  const sandbox = await load<Record<string, any>>('runtime/sandbox/sandbox.ts');
  const emission = await load<Record<string, any>>('runtime/engine/events/emission.ts');
  const events = await load<Record<string, any>>('runtime/store/event-store.ts');
  const invocations = await load<Record<string, any>>('runtime/store/invocation-store.ts');
  timeMethod(proto(runner, 'SourceRunner')!, 'invoke', 'run, all of it (SourceRunner.invoke)');
  timeMethod(proto(sandbox, 'Sandbox')!, 'invoke', '  the host: queued, run, replied (Sandbox.invoke)');
  timeMethod(proto(emission, 'Emission')!, 'accept', '  store and route the emits (Emission.accept)');
  timeMethod(proto(events, 'EventStore')!, 'append', '    events durable (EventStore.append)', (v: { durable: Promise<void> }) => v.durable);
  timeMethod(proto(invocations, 'InvocationStore')!, 'add', '  record kept (InvocationStore.add)');
  timeSync(fs as unknown as Record<string, unknown>, 'writeSync', 'fs.writeSync (main thread)');
  timeCallback(fs as unknown as Record<string, unknown>, 'write', 'fs.write (thread pool)');
  timeCallback(fs as unknown as Record<string, unknown>, 'fdatasync', 'fs.fdatasync (thread pool)');

  const { startService } = await load<{ startService: (o: object) => Promise<{ url: string; stop: () => Promise<void> }> }>('runtime/service.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-breakdown-'));
  const service = await startService({ port: 0, dataDir, apiKey: 'bench-key', eventRetention: 200_000, invocationRetention: 200_000 });
  const res = await fetch(`${service.url}/v1/sources`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench-key', 'content-type': 'application/json' },
    body: JSON.stringify({ component_code: BENCH_SOURCE }),
  });
  const endpoint = ((await res.json()) as { data: { configured_props: { http: { endpoint_url: string } } } }).data.configured_props.http.endpoint_url;
  const loadArgs = (ms: number) => ['--import', 'tsx', 'bench/load.ts', endpoint, '32', String(ms)];
  await runJson(loadArgs(2000));
  measuring = true;
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const result = await runJson<{ ok: number; perSecond: number; p50: number; p99: number }>(loadArgs(seconds * 1000));
  const used = process.cpuUsage(cpu);
  const loop = performance.eventLoopUtilization(elu);
  measuring = false;
  await service.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const n = result.ok;
  console.log(`${n} requests, ${result.perSecond.toFixed(0)} req/s; latency seen by the client p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`);
  console.log(`event loop busy ${(loop.utilization * 100).toFixed(0)}%; process CPU ${((used.user + used.system) / n).toFixed(0)} µs a request (user ${(used.user / n).toFixed(0)}, system ${(used.system / n).toFixed(0)})`);
  console.log('\nstage                                                 calls/request   mean ms a call   ms a request');
  for (const [name, s] of stages) {
    console.log(`${name.padEnd(55)} ${(s.count / n).toFixed(2).padStart(10)} ${(s.ms / s.count).toFixed(3).padStart(16)} ${(s.ms / n).toFixed(3).padStart(14)}`);
  }
}

await main();
