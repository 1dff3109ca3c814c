// The compat harness: loads the components of a folder laid out like Pipedream's `components/`
// tree (all, or a seeded random sample) into a fresh `spout serve` the way `spout publish FILE`
// does, and prints the load rate, a line per failure with its class and message, and the npm
// packages the service installed. With `--run`, each one is also deployed (sources) or run
// (actions) by key with placeholder props in network mode `replay` (compat-run.ts). Not part of
// `npm test`: it needs the registry and npm's network.
//
//   npm run compat -- DIR [--sample N | --sources N --actions M] [--seed S] [--run] [--concurrency C] [--port P] [--json FILE]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleFile } from '../runtime/components/bundle-file';
import { findComponentFiles } from '../runtime/components/registry-scan';
import { ComponentError } from '../runtime/lib/error-kinds';
import { startSpout, tempDir } from '../test/helpers/service';
import { classifyLoad, type Outcome as RunOutcome } from './compat-outcomes';
import { kindOf, type RunContext, runOne } from './compat-run';

interface Outcome {
  rel: string;
  ok: boolean;
  ms: number;
  warnings: number;
  failure?: { kind: string; message: string };
}

/** A small seeded PRNG (mulberry32), so a sample can be drawn again from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The class of a failure, as run mode names a load failure: Spout's classes by name, the registry's own bugs as `registry-bug: which`. */
function classify(stage: 'bundle' | 'service', message: string): string {
  const verdict = classifyLoad(stage, message);
  return verdict.result === 'spout' ? (verdict.why ?? 'spout') : `${verdict.result}: ${verdict.why}`;
}

const USAGE = `usage: npm run compat -- DIR [--sample N | --sources N --actions M] [--seed S] [--run] [--concurrency C] [--port P] [--json FILE]

Loads the component files of DIR (a tree laid out like Pipedream's components/) into a fresh
spout serve and prints the load rate and each failure; with --run, deploys or runs each too.

  --sample N       a seeded random sample of N files
  --sources N      with --actions M: N sources and M actions, sampled
  --seed S         the sample's seed (printed when chosen at random)
  --run            deploy sources and run actions with placeholder props, in replay mode
  --concurrency C  files handled at once (default 3)
  --port P         the port spout serve listens on (default: any free port)
  --json FILE      write every outcome to FILE
  --help           this text`;

/** The harness's options; a bad one prints the usage and exits 2. */
function options() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        port: { type: 'string' },
        sample: { type: 'string' },
        sources: { type: 'string' },
        actions: { type: 'string' },
        seed: { type: 'string' },
        run: { type: 'boolean' },
        concurrency: { type: 'string' },
        json: { type: 'string' },
      },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const { values, positionals } = options();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const dir = positionals[0];
  if (!dir || !fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`${dir ? `${dir}: not a folder` : 'DIR is missing'}\n\n${USAGE}`);
    process.exit(2);
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    console.error(`--port ${values.port}: give a port number from 0 to 65535\n\n${USAGE}`);
    process.exit(2);
  }
  const all = findComponentFiles(path.resolve(dir));
  let files = all;
  const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
  const shuffled = (list: typeof all) => {
    const rand = random(seed);
    const out = [...list];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  if (values.sources !== undefined || values.actions !== undefined) {
    const of = (kind: 'source' | 'action', n: string | undefined) => shuffled(all.filter((f) => kindOf(f.rel) === kind)).slice(0, Number(n ?? 0));
    files = [...of('source', values.sources), ...of('action', values.actions)];
    console.log(`sample of ${files.length} of ${all.length} component files (${values.sources ?? 0} sources, ${values.actions ?? 0} actions), seed ${seed}`);
  } else if (values.sample !== undefined) {
    files = shuffled(all).slice(0, Number(values.sample));
    console.log(`sample of ${files.length} of ${all.length} component files, seed ${seed}`);
  } else console.log(`all ${files.length} component files`);
  if (values.run) return runMode(path.resolve(dir), files, seed, Number(values.concurrency ?? 3), values.json, port);

  const dataDir = tempDir('spout-compat-');
  const spout = await startSpout({ dataDir, port });
  console.log(`spout serve on ${spout.url}`);
  const outcomes: Outcome[] = [];
  const concurrency = Number(values.concurrency ?? 3);
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const f = files[i]!;
      const t0 = Date.now();
      let outcome: Outcome;
      try {
        const bundled = await bundleFile(f.file);
        const res = await spout.api('POST', '/v1/components', { component_code: bundled.code, component_filename: bundled.filename });
        if (res.status === 200) outcome = { rel: f.rel, ok: true, ms: Date.now() - t0, warnings: res.json.data.warnings.length };
        else {
          const errors: Array<{ path: string; message: string }> = res.json?.errors ?? [];
          const message = errors.length ? errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join(' | ') : String(res.json?.detail ?? res.status);
          outcome = { rel: f.rel, ok: false, ms: Date.now() - t0, warnings: 0, failure: { kind: classify('service', message), message } };
        }
      } catch (err) {
        const message = err instanceof ComponentError ? err.problems.map((p) => `${p.path}: ${p.message}`).join(' | ') : (err as Error).message;
        outcome = { rel: f.rel, ok: false, ms: Date.now() - t0, warnings: 0, failure: { kind: classify('bundle', message), message } };
      }
      outcomes.push(outcome);
      if (process.stderr.isTTY) process.stderr.write(`\r${outcomes.length}/${files.length} (${outcomes.filter((o) => !o.ok).length} failed)`);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    if (process.stderr.isTTY) process.stderr.write('\n');
    await spout.stop();
  }

  const loaded = outcomes.filter((o) => o.ok).length;
  const failed = outcomes.filter((o) => !o.ok).sort((a, b) => a.failure!.kind.localeCompare(b.failure!.kind) || a.rel.localeCompare(b.rel));
  const theirs = failed.filter((o) => o.failure!.kind.startsWith('registry-bug')).length;
  console.log(
    `\nloaded ${loaded}/${outcomes.length} (${((100 * loaded) / outcomes.length).toFixed(1)}%) in ${((Date.now() - started) / 1000).toFixed(0)} s; ${outcomes.filter((o) => o.warnings > 0).length} loaded with warnings; ` +
      `failed by the registry's own bug ${theirs}, in Spout ${failed.length - theirs}`,
  );
  if (failed.length) console.log('\nfailures:');
  for (const o of failed) console.log(`  [${o.failure!.kind}] ${o.rel}: ${o.failure!.message.slice(0, 400)}`);
  const byKind = new Map<string, number>();
  for (const o of failed) byKind.set(o.failure!.kind, (byKind.get(o.failure!.kind) ?? 0) + 1);
  if (byKind.size) console.log(`\nby class: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const packagesDir = path.join(dataDir, 'packages');
  const installed = fs.existsSync(packagesDir)
    ? fs
        .readdirSync(packagesDir)
        .filter((e) => !e.startsWith('.'))
        .map((e) => e.replace('+', '/'))
        .sort()
    : [];
  console.log(`\nnpm packages installed (${installed.length}): ${installed.join(', ') || 'none'}`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ seed, sample: files.length, loaded, outcomes, installed }, null, 2));
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** `--run`: loads, deploys or runs each file, and prints the rates by kind and every outcome that is not a success. */
async function runMode(dir: string, files: Array<{ file: string; rel: string }>, seed: number, concurrency: number, json: string | undefined, port: number | undefined): Promise<void> {
  const dataDir = tempDir('spout-compat-run-');
  const spout = await startSpout({ dataDir, port, args: ['--registry', dir] });
  console.log(`spout serve on ${spout.url}`);
  let store: Promise<string> | null = null;
  const ctx: RunContext = {
    spout,
    dir,
    dataStore: () => (store ??= spout.api('POST', '/v1/data_stores', { name: 'compat placeholder' }).then((r) => r.json.data.id as string)),
  };
  const outcomes: RunOutcome[] = [];
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const f = files[i]!;
      let outcome: RunOutcome;
      try {
        outcome = await runOne(ctx, { file: f.file, rel: f.rel, kind: kindOf(f.rel) });
      } catch (err) {
        outcome = { rel: f.rel, kind: kindOf(f.rel), stage: 'run', result: 'spout', why: 'harness', message: (err as Error).stack ?? String(err) };
      }
      outcomes.push(outcome);
      if (process.stderr.isTTY) process.stderr.write(`\r${outcomes.length}/${files.length}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    if (process.stderr.isTTY) process.stderr.write('\n');
    await spout.stop();
  }
  console.log(`\nran ${outcomes.length} components in ${((Date.now() - started) / 1000).toFixed(0)} s, seed ${seed}`);
  const order = ['spout', 'by-design', 'registry-bug', 'placeholder', 'reached-http', 'completed'];
  const shown = outcomes.filter((o) => o.result !== 'completed' && o.result !== 'reached-http').sort((a, b) => order.indexOf(a.result) - order.indexOf(b.result) || (a.why ?? '').localeCompare(b.why ?? '') || a.rel.localeCompare(b.rel));
  if (shown.length) console.log('\nnot completed and not at HTTP:');
  for (const o of shown) console.log(`  [${o.result}${o.why ? `: ${o.why}` : ''}] ${o.stage} ${o.rel}: ${(o.message ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
  const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
  console.log('');
  for (const kind of ['source', 'action'] as const) {
    const of = outcomes.filter((o) => o.kind === kind);
    if (of.length === 0) continue;
    const count = (r: string) => of.filter((o) => o.result === r).length;
    const loaded = of.filter((o) => o.stage !== 'load').length;
    const notBroken = of.length - count('registry-bug');
    const good = count('completed') + count('reached-http');
    console.log(
      `${kind}s: ${of.length}; loaded ${loaded} (${pct(loaded, of.length)}); completed ${count('completed')}, reached HTTP ${count('reached-http')}, ` +
        `stopped by the registry's own bug ${count('registry-bug')}, by their own check of a placeholder ${count('placeholder')}, by what Spout refuses by design ${count('by-design')}, failed in Spout ${count('spout')}; ` +
        `completed or reached HTTP: ${good}/${notBroken} not broken in the registry = ${pct(good, notBroken)}`,
    );
  }
  if (json) fs.writeFileSync(json, JSON.stringify({ seed, outcomes }, null, 2));
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
