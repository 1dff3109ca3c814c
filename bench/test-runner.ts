// `npm run bench:test`: issue 41's figures, each beside a baseline measured in the same run.
//   1. one test file of one HTTP source (loadSource, one request, close) through `spout test`,
//      from start to exit, against `node --test` of one empty test file;
//   2. twenty such files, each in a folder of its own with its own copy of the source, against
//      `node --test` of twenty empty files.
// `spout test` is run as the built CLI (`node dist/cli.js test FILES`), leaving out bin/spout.js's
// check that dist/ is current. Rounds alternate between the contenders (the order flips each
// round) so that the machine's drift hits both alike; the first round fills the bundle cache (a
// fresh SPOUT_TEST_CACHE) and is printed apart as the cold start. Targets: both ratios under 3.
// `BENCH_ROUNDS` (default 5) rounds each; `BENCH_CLI` measures another build the same way.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchCli } from './procs';
import { median } from './stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MANY = 20;
const TARGET = 3;

/** An HTTP source answering with what it got and emitting it (written for this benchmark). */
const ECHO_SOURCE = `export default {
  key: "echo", name: "Echo", version: "0.1.0", type: "source",
  props: { http: "$.interface.http" },
  async run(event) {
    this.http.respond({ status: 200, body: event.body });
    this.$emit(event.body, { id: event.body.id, summary: "got " + event.body.id });
  },
};
`;

/** The test of it. */
const ECHO_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";
import { loadSource } from "spout/testing";
test("echo", async () => {
  const src = await loadSource("./echo.mjs", { now: "2026-01-01T00:00:00Z" });
  const r = await src.http({ method: "POST", path: "/x", body: { id: 1 } });
  assert.equal(r.status, 200);
  await src.close();
});
`;

/** Writes `count` test folders (echo.mjs and its test each) under `dir`; returns the test files. */
function echoTests(dir: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const folder = path.join(dir, `echo-${i}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'echo.mjs'), ECHO_SOURCE);
    fs.writeFileSync(path.join(folder, 'echo.test.mjs'), ECHO_TEST);
    return path.join(folder, 'echo.test.mjs');
  });
}

/** Writes `count` empty test files under `dir`. */
function emptyTests(dir: string, count: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const file = path.join(dir, `empty-${i}.test.mjs`);
    fs.writeFileSync(file, '');
    return file;
  });
}

/** Ms from starting `node ARGS` to its exit; rejects unless it exits 0. */
function timeRun(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`node ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

interface Contender {
  name: string;
  run: () => Promise<number>;
  ms: number[];
}

const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;
const spread = (ms: number[]): string => `${fmt(median(ms))} (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)})`;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-bench-test-'));
  const cli = path.resolve(benchCli);
  // No NODE_OPTIONS or test context of ours reaches the runs; the bundle cache starts empty.
  const env: NodeJS.ProcessEnv = { ...process.env, SPOUT_TEST_CACHE: path.join(dir, 'cache'), NODE_OPTIONS: undefined, NODE_TEST_CONTEXT: undefined, CI: undefined };
  const one = echoTests(path.join(dir, 'one'), 1);
  const many = echoTests(path.join(dir, 'many'), MANY);
  const empty = emptyTests(path.join(dir, 'empty-one'), 1);
  const empties = emptyTests(path.join(dir, 'empty-many'), MANY);
  const spoutTest = (files: string[]) => () => timeRun([cli, 'test', ...files], env, dir);
  const nodeTest = (files: string[]) => () => timeRun(['--test', ...files], env, dir);
  const figures: Array<{ label: string; pair: [Contender, Contender] }> = [
    {
      label: 'one file',
      pair: [
        { name: 'spout test, 1 file   ', run: spoutTest(one), ms: [] },
        { name: 'node --test, 1 empty  ', run: nodeTest(empty), ms: [] },
      ],
    },
    {
      label: `${MANY} files`,
      pair: [
        { name: `spout test, ${MANY} files  `, run: spoutTest(many), ms: [] },
        { name: `node --test, ${MANY} empty `, run: nodeTest(empties), ms: [] },
      ],
    },
  ];
  console.log(`spout: ${cli}; ${os.availableParallelism()} cores; ${ROUNDS} rounds each after a cold one`);
  try {
    for (const { pair } of figures) {
      const cold = await pair[0].run();
      const base = await pair[1].run();
      console.log(`cold cache: ${pair[0].name.trim()} ${fmt(cold)}, ${pair[1].name.trim()} ${fmt(base)}`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const { pair } of figures) {
        for (const c of round % 2 ? [...pair].reverse() : pair) {
          const ms = await c.run();
          c.ms.push(ms);
          console.log(`round ${round + 1}  ${c.name} ${fmt(ms).padStart(8)}`);
        }
      }
    }
    console.log('\nmedian (range)');
    for (const { label, pair } of figures) {
      const [spout, base] = pair;
      const ratio = median(spout.ms) / median(base.ms);
      // Each round's own ratio too: the two contenders of a round saw the same machine.
      const rounds = spout.ms.map((ms, i) => ms / (base.ms[i] as number));
      console.log(`${label}: spout test ${spread(spout.ms)}, node --test ${spread(base.ms)}; ratio of medians ${ratio.toFixed(2)} (rounds ${Math.min(...rounds).toFixed(2)}–${Math.max(...rounds).toFixed(2)}; target < ${TARGET}: ${ratio < TARGET ? 'met' : 'NOT met'})`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
