// (e) of bench:desktop (issue 44 point 3): start to the first /v1 answer with 50 sources, 1 000 000
// stored events and 1 000 000 runs, against an empty data dir (target ≤ 1.5×), with the first /e/
// answer and the service's RSS once it answered. The 50 sources are deployed through the service
// (real metadata) and each given one request; the service is stopped, and each source's event and
// run lines are then written straight into its files, copies of the real ones with new ids. One data
// dir serves every build measured.
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_SOURCE, startSpout, stopChild, untilFirstV1 } from './procs';
import { median } from './stats';

const SOURCES = 50;
const EVENTS = 1_000_000;
const RUNS = 1_000_000;
const STARTS = 3;
/** Events kept per source by default (`--event-retention`): a file holds this many before it becomes the previous generation. */
const EVENT_GENERATION = 10_000;

/** Writes `count` lines made by `line(i)` to `file`, a few thousand at a time. */
function writeLines(file: string, count: number, line: (i: number) => string): void {
  const fd = fs.openSync(file, 'w', 0o600);
  for (let i = 0; i < count; i += 5000) {
    const chunk: string[] = [];
    for (let j = i; j < Math.min(count, i + 5000); j++) chunk.push(line(j));
    fs.writeSync(fd, `${chunk.join('\n')}\n`);
  }
  fs.closeSync(fd);
}

/** A data dir of SOURCES deployed sources with EVENTS events and RUNS runs among them; its path and one endpoint path. */
async function bigDataDir(cli: string): Promise<{ dataDir: string; endpointPath: string }> {
  const spout = await startSpout([], undefined, [], cli);
  const endpoints: string[] = [];
  for (let i = 0; i < SOURCES; i += 5) {
    const batch = await Promise.all(Array.from({ length: 5 }, () => spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE })));
    endpoints.push(...batch.map((s) => s.configured_props.http.endpoint_url as string));
  }
  for (const endpoint of endpoints) await (await fetch(endpoint, { method: 'POST', body: '{}' })).arrayBuffer();
  await stopChild(spout.child);
  const base = Date.now() - EVENTS;
  for (const file of fs.readdirSync(path.join(spout.dataDir, 'events'))) {
    const owner = file.replace(/\.jsonl$/, '');
    const events = path.join(spout.dataDir, 'events', file);
    const runs = path.join(spout.dataDir, 'invocations', file);
    const event = JSON.parse(fs.readFileSync(events, 'utf8').split('\n')[0] as string);
    const run = JSON.parse(fs.readFileSync(runs, 'utf8').split('\n')[0] as string);
    const perSource = EVENTS / SOURCES;
    const eventLine = (i: number) => JSON.stringify({ ...event, id: `${base + i}-0`, indexed_at_ms: base + i, meta: { ...event.meta, id: `${base + i}-0`, emit_id: `${base + i}-0`, ts: base + i } });
    // Two generations, as the store keeps them.
    writeLines(events.replace(/\.jsonl$/, '.previous.jsonl'), perSource - EVENT_GENERATION, eventLine);
    writeLines(events, EVENT_GENERATION, (i) => eventLine(i + perSource - EVENT_GENERATION));
    writeLines(runs, RUNS / SOURCES, (i) => JSON.stringify({ ...run, id: `${run.id}${owner.slice(-4)}${i}`, started_at: base + i }));
  }
  return { dataDir: spout.dataDir, endpointPath: new URL(endpoints[0] as string).pathname };
}

/** Starts `cli` on `dataDir`: from the spawn to the first /v1 answer and to the first /e/ answer, and the service's RSS then, MB. */
async function timedStart(cli: string, dataDir: string, endpointPath: string | null): Promise<{ v1: number; e: number; rssMb: number }> {
  const started = performance.now();
  const spout = await startSpout([], dataDir, [], cli);
  const v1 = await untilFirstV1(spout.url, started);
  let e = 0;
  if (endpointPath) {
    const res = await fetch(spout.url + endpointPath, { method: 'POST', body: '{}' });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${endpointPath} answered ${res.status}`);
    e = performance.now() - started;
  }
  const rssMb = Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${spout.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  await stopChild(spout.child);
  return { v1, e, rssMb };
}

const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** Prints row (e) for each build, each beside its empty-data-dir start, measured on one generated data dir. */
export async function startWithStoredData(builds: ReadonlyArray<{ name: string; cli: string }>): Promise<void> {
  const generated = performance.now();
  const big = await bigDataDir((builds[builds.length - 1] as { cli: string }).cli);
  console.log(`\n(e) data dir of ${SOURCES} sources, ${EVENTS} events and ${RUNS} runs made in ${ms(performance.now() - generated)}`);
  const made = await startSpout([], undefined, [], (builds[0] as { cli: string }).cli);
  await stopChild(made.child);
  const empty = made.dataDir;
  for (const { name, cli } of builds) {
    const bigStarts: Array<{ v1: number; e: number; rssMb: number }> = [];
    const emptyStarts: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      emptyStarts.push((await timedStart(cli, empty, null)).v1);
      bigStarts.push(await timedStart(cli, big.dataDir, big.endpointPath));
    }
    const v1 = median(bigStarts.map((s) => s.v1));
    const e = median(bigStarts.map((s) => s.e));
    const rss = median(bigStarts.map((s) => s.rssMb));
    const base = median(emptyStarts);
    console.log(`(e) ${name}: start to first /v1 answer (median of ${STARTS}) with ${SOURCES} sources, ${EVENTS} events, ${RUNS} runs ${ms(v1)} vs empty data dir ${ms(base)}: ${(v1 / base).toFixed(2)}× (target ≤ 1.5×); first /e/ answer ${ms(e)}; RSS ${rss.toFixed(0)} MB; load ${load()}`);
  }
}
