// Row (b) of bench/desktop.ts (issue 44): the first request to a parked source, p50/p95, against a
// request to the same source warm (target: p50 ≤ 150 ms above warm). Run alone,
// `node --import tsx bench/desktop-wake.ts [BASE_CLI] [ROUNDS]` measures BASE_CLI (another build's
// dist/cli.js, e.g. main's) and this checkout's in turn, ROUNDS times (default 2), so that both
// builds meet the same load; each round prints the load average.
import os from 'node:os';
import { BENCH_SOURCE, startSpout, stopChild } from './procs';
import { percentile } from './stats';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** Posts to an endpoint; the time to its answer, ms. */
export async function post(endpoint: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(endpoint, { method: 'POST', body: '{}' });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${endpoint} answered ${res.status}`);
  return performance.now() - started;
}

/** A request to a parked source against one to the same source warm, `samples` times; null for a build without parking. */
async function wake(cli: string, samples: number): Promise<{ parked: number[]; warm: number[] } | null> {
  const spout = await startSpout(['--host-idle', '1'], undefined, [], cli).catch(() => null);
  if (!spout) return null; // a build without --host-idle
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const endpoint = source.configured_props.http.endpoint_url as string;
  const parked: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < samples; i++) {
    while ((await spout.api('GET', `/v1/sources/${source.id}`)).host !== 'parked') await pause(50);
    parked.push(await post(endpoint));
    warm.push(await post(endpoint));
  }
  await stopChild(spout.child);
  return { parked, warm };
}

/** Measures and prints row (b) for `cli`, after `label`. */
export async function wakeRow(cli: string, samples: number, label = ''): Promise<void> {
  const woke = await wake(cli, samples);
  if (!woke) return console.log(`${label}(b) no parked sources in this build (no --host-idle)`);
  const [p50, p95, w50, w95] = [percentile(woke.parked, 50), percentile(woke.parked, 95), percentile(woke.warm, 50), percentile(woke.warm, 95)];
  console.log(`${label}(b) first request to a parked source: p50 ${ms(p50)}, p95 ${ms(p95)} vs warm p50 ${ms(w50)}, p95 ${ms(w95)}: p50 ${ms(p50 - w50)} above warm (target ≤ 150 ms; ${samples} samples)`);
}

if (process.argv[1]?.endsWith('desktop-wake.ts')) {
  const [baseCli, rounds = '2'] = process.argv.slice(2);
  const samples = Number(process.env.DESKTOP_SAMPLES ?? 15);
  for (let round = 1; round <= Number(rounds); round++) {
    for (const [name, cli] of [...(baseCli ? [['before', baseCli]] : []), ['after', 'dist/cli.js']] as Array<[string, string]>) {
      const load = os.loadavg().map((l) => l.toFixed(2));
      await wakeRow(cli, samples, `round ${round}, ${name} (${cli}), load at its start ${load.join(' ')}: `);
    }
  }
}
