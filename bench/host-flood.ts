// Issue 42, point 4: the service's peak resident memory while component hosts send it all they
// may, beside the idle service's:
//   1. 12 hosts at once, each run sending a message of 60 MB (the largest is 64 MB), 4 runs each;
//   2. one run emitting 200 000 small events, then four such runs at once.
// `node --import tsx bench/host-flood.ts` (after `node scripts/build.js`); `BENCH_CLI=/path/to/dist/cli.js`
// measures another build the same way; `BENCH_ONLY=hosts|events` runs one of the two.
import fs from 'node:fs';
import { startSpout, stopChild } from './procs';

const HOSTS = Number(process.env.BENCH_HOSTS ?? 12);
const RUNS = Number(process.env.BENCH_RUNS ?? 4);
const EVENTS = 200_000;

/**
 * A source (written for this benchmark) whose run sends the service a message of `?mb=` MB, as a
 * hostile one can: it rewrites its host's report of the run to carry one event that large, which
 * the service refuses (over 6 MB), so nothing is stored and only what is in flight counts. With
 * `?n=` it emits that many small events.
 */
const FLOOD = `export default {
  name: "Flood", version: "0.1.0", props: { http: "$.interface.http" },
  async run(event) {
    const mb = Number(event.query.mb ?? 0);
    if (mb > 0) {
      const json = JSON.stringify({ big: "x".repeat(mb << 20) });
      const stringify = JSON.stringify;
      JSON.stringify = function (value, ...rest) {
        if (value && value.type === "done") { JSON.stringify = stringify; value = { ...value, emits: [{ json, meta: {} }] }; }
        return stringify.call(this, value, ...rest);
      };
    }
    for (let i = 0; i < Number(event.query.n ?? 0); i++) this.$emit({ i }, { summary: "event " + i });
  },
};`;

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0).padStart(5)} MB`;

/** Resident memory of a process now, and its peak so far (Linux: VmRSS, VmHWM). */
function rss(pid: number): { now: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { now: kb('VmRSS'), peak: kb('VmHWM') };
}

async function manyHosts(): Promise<void> {
  const spout = await startSpout();
  const endpoints: string[] = [];
  for (let i = 0; i < HOSTS; i++) endpoints.push((await spout.api('POST', '/v1/sources', { component_code: FLOOD })).configured_props.http.endpoint_url);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = rss(spout.child.pid as number).now;
  const started = Date.now();
  const statuses = await Promise.all(
    endpoints.map(async (endpoint) => {
      const out: number[] = [];
      for (let r = 0; r < RUNS; r++) out.push(await fetch(`${endpoint}?mb=60`, { method: 'POST' }).then(async (res) => (await res.arrayBuffer(), res.status)));
      return out;
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const peak = rss(spout.child.pid as number).peak;
  await stopChild(spout.child);
  const ok = statuses.flat().filter((s) => s === 200).length;
  console.log(`\n${HOSTS} hosts at once, ${RUNS} runs each sending a 60 MB message (${process.env.BENCH_CLI ?? 'dist/cli.js'})`);
  console.log(`  idle service (${HOSTS} sources deployed)  ${mb(idle)}`);
  console.log(`  peak while they send                ${mb(peak)}   ratio ${(peak / idle).toFixed(2)}   (${ok}/${HOSTS * RUNS} answered 200 in ${seconds.toFixed(1)} s)`);
}

/** `sources` runs at once, each of a source of its own, each emitting EVENTS events. */
async function manyEvents(sources: number): Promise<void> {
  const spout = await startSpout(['--event-retention', String(EVENTS)]);
  const endpoints: string[] = [];
  for (let i = 0; i < sources; i++) endpoints.push((await spout.api('POST', '/v1/sources', { component_code: FLOOD })).configured_props.http.endpoint_url);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = rss(spout.child.pid as number).now;
  const started = Date.now();
  const statuses = await Promise.all(endpoints.map(async (endpoint) => (await fetch(`${endpoint}?n=${EVENTS}`, { method: 'POST' })).status));
  const seconds = (Date.now() - started) / 1000;
  const peak = rss(spout.child.pid as number).peak;
  await stopChild(spout.child);
  console.log(`
${sources} run(s) at once, each emitting ${EVENTS} events`);
  console.log(`  idle service (${sources} source(s) deployed)  ${mb(idle)}`);
  console.log(`  peak during the runs                ${mb(peak)}   ratio ${(peak / idle).toFixed(2)}   (answered ${statuses.join(', ')} in ${seconds.toFixed(1)} s)`);
}

if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'hosts') await manyHosts();
if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'events') {
  await manyEvents(1);
  await manyEvents(4);
}
