// Two figures of issue 22, each beside a baseline measured in the same run:
//   1. the service's peak resident memory while a source floods its log, against its peak after
//      the same number of quiet runs;
//   2. the time a start takes on a data dir holding 100 000 events and 100 000 recorded runs,
//      against a start on an empty data dir and against bare Node reading the same files.
// `npm run bench:robustness`; `BENCH_CLI=/path/to/dist/cli.js` measures another build the same way
// (an older one, say); `BENCH_ONLY=flood|start` runs one of the two.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BENCH_SOURCE, benchCli, runJson, startSpout, stopChild } from './procs';

const FLOOD_RUNS = Number(process.env.BENCH_FLOOD_RUNS ?? 20);
const FLOOD_LINES = 16;
const FLOOD_LINE_BYTES = 1024 * 1024;
const STORED = Number(process.env.BENCH_STORED ?? 100_000);
const RETENTION = ['--event-retention', String(2 * STORED), '--invocation-retention', String(2 * STORED)];

/** A source whose run logs `?lines=` lines of `?bytes=` bytes each (written for this benchmark). */
const LOG_FLOOD = `
export default {
  name: "Log flood",
  version: "1.0.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    const line = "x".repeat(Number(event.query.bytes ?? 0));
    for (let i = 0; i < Number(event.query.lines ?? 0); i++) console.log(line);
  },
};
`;

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0).padStart(5)} MB`;

/** Peak resident memory of a process so far (Linux: VmHWM). */
function peakRss(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

async function logFlood(): Promise<void> {
  const spout = await startSpout();
  const source = await spout.api('POST', '/v1/sources', { component_code: LOG_FLOOD });
  const endpoint = source.configured_props.http.endpoint_url as string;
  const run = (query: string) => fetch(`${endpoint}?${query}`, { method: 'POST' }).then((r) => r.arrayBuffer());
  for (let i = 0; i < FLOOD_RUNS; i++) await run('lines=0');
  await new Promise((r) => setTimeout(r, 1000));
  const quiet = peakRss(spout.child.pid as number);
  for (let i = 0; i < FLOOD_RUNS; i++) await run(`lines=${FLOOD_LINES}&bytes=${FLOOD_LINE_BYTES}`);
  await new Promise((r) => setTimeout(r, 2000));
  const flooded = peakRss(spout.child.pid as number);
  await stopChild(spout.child);
  const started = performance.now();
  let restart = 'restarts';
  try {
    const again = await startSpout([], spout.dataDir);
    restart = `restarts in ${((performance.now() - started) / 1000).toFixed(1)} s`;
    await stopChild(again.child);
  } catch (err) {
    restart = `does not restart: ${(err as Error).message.split('\n').slice(0, 3).join(' ')}`;
  }
  console.log(`\nLog flood: ${FLOOD_RUNS} runs each logging ${FLOOD_LINES} lines of ${FLOOD_LINE_BYTES / 1048576} MB (${benchCli})`);
  console.log(`  peak RSS of the service after ${FLOOD_RUNS} quiet runs ${mb(quiet)}`);
  console.log(`  peak RSS of the service after the flood       ${mb(flooded)}   ratio ${(flooded / quiet).toFixed(2)}`);
  console.log(`  the data dir ${restart}`);
}

/** Milliseconds from spawning `spout serve` to its ready line (the median of three starts). */
async function startTime(dataDir: string | null, extra: string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const spout = await startSpout(extra, dataDir ?? undefined);
    times.push(performance.now() - started);
    await stopChild(spout.child);
  }
  return times.sort((a, b) => a - b)[1] as number;
}

/** Bare Node reading every line of the files and parsing it: the floor of any start. */
function bareRead(files: string[]): number {
  const started = performance.now();
  let lines = 0;
  for (const file of files) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (line) {
        JSON.parse(line);
        lines++;
      }
    }
  }
  if (lines === 0) throw new Error('nothing was read');
  return performance.now() - started;
}

async function startOnFullDataDir(): Promise<void> {
  const spout = await startSpout(RETENTION);
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const endpoint = source.configured_props.http.endpoint_url as string;
  const total = async (what: 'event_summaries' | 'invocations') => {
    const res = await fetch(`${spout.url}/v1/sources/${source.id}/${what}?limit=1`, { headers: { authorization: 'Bearer bench-key' } });
    return ((await res.json()) as { page_info: { total_count: number } }).page_info.total_count;
  };
  for (let stored = 0; stored < STORED; stored += 1000) await fetch(`${endpoint}?n=1000`, { method: 'POST', body: '{}' });
  while ((await total('invocations')) < STORED) await runJson(['--import', 'tsx', 'bench/load.ts', `${endpoint}?n=0`, '32', '5000']);
  const events = await total('event_summaries');
  const runs = await total('invocations');
  await stopChild(spout.child);

  const files = [path.join(spout.dataDir, 'events', `${source.id}.jsonl`), path.join(spout.dataDir, 'invocations', `${source.id}.jsonl`)];
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  const empty = await startTime(null, RETENTION);
  const full = await startTime(spout.dataDir, RETENTION);
  const bare = bareRead(files);
  console.log(`\nStart: a data dir with ${events} events and ${runs} recorded runs (${mb(bytes).trim()} of files; ${benchCli}; median of 3 starts)`);
  console.log(`  spout on an empty data dir          ${empty.toFixed(0).padStart(6)} ms`);
  console.log(`  bare node reading and parsing them   ${bare.toFixed(0).padStart(6)} ms`);
  console.log(`  spout on the full data dir           ${full.toFixed(0).padStart(6)} ms   ratio to the empty start ${(full / empty).toFixed(2)}`);
}

if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'flood') await logFlood();
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'start') await startOnFullDataDir();
