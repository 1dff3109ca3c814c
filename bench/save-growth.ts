// `npm run bench:save-growth [-- CLI…]` (issue 44 point 5): does a save get slower as saves pile
// up? A source whose bundle is ~100 KB (a big literal table, no packages) is deployed, then
// SAMPLES saves (`PUT /v1/sources/{id}` with new code) are each timed to the first request the new
// code answers: after 0 prior saves, and again after PRIOR prior saves, in the same run, with
// metadata.json's size (and the components/ folder's, where a build has one) at each point. Each
// CLI given (another build's dist/cli.js, e.g. main's) is measured in turn, then this checkout's,
// so that both meet the same load. `BENCH_PRIOR` (default 300), `BENCH_SAMPLES` (default 15).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SAVE_GAP_MS, untilAnswer } from './desktop-save';
import { benchCli, startSpout, stopChild } from './procs';
import { percentile } from './stats';

const PRIOR = Number(process.env.BENCH_PRIOR ?? 300);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);
const ROWS = 800;

/** The table every version carries: ~24 KB of source, a ~100 KB bundle with its inline source map. */
const TABLE = Array.from({ length: ROWS }, (_, i) => `  ["row-${i}", ${i}, "${((i * 2654435761) % 4294967296).toString(36)}"],`).join('\n');

/** Version `n` of the source: each answer names it, so the poll sees when it is live. */
function bigSource(n: number): string {
  return `const TABLE = [\n${TABLE}\n];
export default {
  name: "Save growth bench",
  version: "1.0.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    this.http.respond({ status: 200, body: "v${n}:" + TABLE.length });
  },
};
`;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Bytes of a file, or of every file in a folder; 0 when absent. */
function sizeOf(file: string): number {
  try {
    const stat = fs.statSync(file);
    if (!stat.isDirectory()) return stat.size;
    return fs.readdirSync(file).reduce((sum, name) => sum + sizeOf(path.join(file, name)), 0);
  } catch {
    return 0;
  }
}

interface Point {
  prior: number;
  times: number[];
  metadata: number;
  content: number;
  load: string;
}

/** One build: the timed saves after 0 prior saves, then after PRIOR. */
async function measure(cli: string): Promise<Point[]> {
  const spout = await startSpout([], undefined, [], cli);
  try {
    const source = await spout.api('POST', '/v1/sources', { component_code: bigSource(0) });
    const endpoint = source.configured_props.http.endpoint_url as string;
    await untilAnswer(endpoint, `v0:${ROWS}`);
    let saved = 0;
    const save = () => spout.api('PUT', `/v1/sources/${source.id}`, { component_code: bigSource(++saved) });
    const point = async (): Promise<Point> => {
      const prior = saved;
      const metadata = sizeOf(path.join(spout.dataDir, 'metadata.json'));
      const content = sizeOf(path.join(spout.dataDir, 'components'));
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        await pause(SAVE_GAP_MS);
        const started = performance.now();
        await save();
        await untilAnswer(endpoint, `v${saved}:${ROWS}`);
        times.push(performance.now() - started);
      }
      return { prior, times, metadata, content, load: load() };
    };
    const first = await point();
    while (saved < PRIOR) await save();
    return [first, await point()];
  } finally {
    await stopChild(spout.child);
  }
}

function row(label: string, p: Point): string {
  const [p50, p95] = [percentile(p.times, 50), percentile(p.times, 95)];
  return `  ${label.padEnd(30)} ${String(p.prior).padStart(5)}  ${`${p50.toFixed(0)} ms`.padStart(8)}  ${`${p95.toFixed(0)} ms`.padStart(8)}  ${kb(p.metadata).padStart(10)}  ${kb(p.content).padStart(12)}  ${p.load}`;
}

async function main(): Promise<void> {
  const clis = [...process.argv.slice(2), benchCli];
  console.log(`${os.availableParallelism()} cores; ${SAMPLES} timed saves at each point, ${SAVE_GAP_MS} ms apart; a ~100 KB bundle each`);
  const results: Array<{ cli: string; points: Point[] }> = [];
  for (const cli of clis) results.push({ cli, points: await measure(cli) });
  console.log(`\n  ${'build'.padEnd(30)} prior       p50       p95  metadata.json  components/  load (1, 5, 15 min)`);
  for (const { cli, points } of results) for (const p of points) console.log(row(cli === 'dist/cli.js' ? 'this checkout' : cli, p));
}

await main();
