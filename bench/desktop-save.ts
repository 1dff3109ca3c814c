// Save to live (issue 44 point 5): a deployed HTTP source's code is replaced, SAMPLES times, and
// each save is timed to the first request its new code answers; beside it, esbuild bundling the
// same text alone (in this process, with the service's options), measured in the same run. Two
// paths: `PUT /v1/sources/{id}` (the editor's save) and `spout dev` (a file written, then polled).
// The endpoint is polled every 2 ms plus a request's time (a few ms): the figure's grain. Saves
// are SAVE_GAP_MS apart, as a developer's are; saves back to back are measured too.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleComponent } from '../runtime/components/bundle';
import { startSpout, stopChild } from './procs';
import { percentile } from './stats';

/** A source whose every answer names its version `n` (a custom response, so the poll sees it). */
export function savedSource(n: number): string {
  return `export default {
  name: "Save bench",
  version: "1.0.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    this.http.respond({ status: 200, body: "v${n}" });
  },
};
`;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The time before each save: a developer reads and types between saves (seconds), and the service
 * boots the host the next save loads in meanwhile (docs/runtime.md). Back to back, a save waits
 * for Node to start as a first one does.
 */
export const SAVE_GAP_MS = 1000;

/** Polls `endpoint` until it answers `want`; another answer (the old code's) is polled again. Throws after `limitMs`. */
export async function untilAnswer(endpoint: string, want: string, limitMs = 20_000): Promise<void> {
  const until = performance.now() + limitMs;
  for (;;) {
    if (performance.now() > until) throw new Error(`${endpoint} did not answer ${want} within ${limitMs} ms`);
    const res = await fetch(endpoint, { method: 'POST', body: '{}' }).catch(() => null);
    const text = res ? await res.text() : '';
    if (res?.status === 200 && text === want) return;
    if (res && res.status !== 200) throw new Error(`${endpoint} answered ${res.status}: ${text}`);
    await pause(2);
  }
}

/** esbuild bundling the text alone, as the service does (bundle.ts, no package cache), ms each. */
export async function esbuildAlone(samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await bundleComponent(savedSource(1000 + i));
    times.push(performance.now() - started);
  }
  return times;
}

/** `PUT /v1/sources/{id}` with new code to its new answer, `gapMs` after the last one, ms each. */
export async function saveByPut(cli: string, samples: number, gapMs = SAVE_GAP_MS): Promise<number[]> {
  const spout = await startSpout([], undefined, [], cli);
  try {
    const source = await spout.api('POST', '/v1/sources', { component_code: savedSource(0) });
    const endpoint = source.configured_props.http.endpoint_url as string;
    await untilAnswer(endpoint, 'v0');
    const times: number[] = [];
    for (let i = 1; i <= samples; i++) {
      await pause(gapMs);
      const started = performance.now();
      await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: savedSource(i) });
      await untilAnswer(endpoint, `v${i}`);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    await stopChild(spout.child);
  }
}

/** `spout dev FILE`: the file written to its new answer, `gapMs` after the last one, ms each. */
export async function saveByDev(cli: string, samples: number, gapMs = SAVE_GAP_MS): Promise<number[]> {
  const spout = await startSpout([], undefined, [], cli);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-save-'));
  const file = path.join(dir, 'save.mjs');
  fs.writeFileSync(file, savedSource(0));
  const dev = spawn(process.execPath, [cli, 'dev', file, '--json', '--api-url', spout.url, '--api-key', 'bench-key'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let out = '';
      dev.stdout.on('data', (c) => {
        if (process.env.DBG) process.stderr.write(c);
        out += c;
        const m = /"endpoint_url":"([^"]+)"/.exec(out);
        if (m) resolve(m[1] as string);
      });
      dev.once('exit', (code) => reject(new Error(`spout dev exited ${code}: ${out}`)));
    });
    await untilAnswer(endpoint, 'v0');
    const times: number[] = [];
    for (let i = 1; i <= samples; i++) {
      await pause(gapMs);
      const started = performance.now();
      fs.writeFileSync(file, savedSource(i));
      await untilAnswer(endpoint, `v${i}`);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    dev.kill('SIGTERM');
    await stopChild(spout.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

/** Prints the save-to-live row for `cli`: both paths beside esbuild alone, measured now. */
export async function saveRow(cli: string, samples: number): Promise<void> {
  const alone = await esbuildAlone(samples);
  const put = await saveByPut(cli, samples);
  const burst = await saveByPut(cli, samples, 0);
  // A save `spout dev` never takes live is a finding, not a reason to hang the whole bench.
  const dev = await saveByDev(cli, samples).catch((error: Error) => (console.log(`(d) spout dev: ${error.message}`), [Number.NaN]));
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const a50 = percentile(alone, 50);
  console.log(`(d) save to the new code answering (no npm packages), ${samples} samples, saves ${SAVE_GAP_MS} ms apart, load ${load}:`);
  console.log(`    PUT /v1/sources: p50 ${ms(percentile(put, 50))}, p95 ${ms(percentile(put, 95))}; spout dev: p50 ${ms(percentile(dev, 50))}, p95 ${ms(percentile(dev, 95))}`);
  console.log(`    vs esbuild bundling the same file alone p50 ${ms(a50)}, p95 ${ms(percentile(alone, 95))}: PUT p50 ${ms(percentile(put, 50) - a50)} above it, dev ${ms(percentile(dev, 50) - a50)} (target ≤ 150 ms)`);
  console.log(`    saves back to back (no time to boot the next save's host): PUT p50 ${ms(percentile(burst, 50))}, p95 ${ms(percentile(burst, 95))}`);
}
