// `npm run bench:cli`: issue 43's figure, the time of a `spout` command typed as the README says
// (`./spout`), beside `node bin/spout.js` and the `npx spout` the README used to give, for the same
// command in the same run: `--version`, and `list sources` against a running service. Each run is
// timed from spawn to exit, from the checkout's root, as a user's shell would start it. Rounds
// rotate the contenders' order so that the machine's drift hits each alike. `BENCH_ROUNDS`
// (default 7) rounds.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startSpout, stopChild } from './procs';
import { median } from './stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

/** Ms from spawning `file ARGS` to its exit; rejects unless it exits 0. */
function timeRun(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${file} ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

/** How each contender starts the command. */
const CONTENDERS: Array<{ name: string; start: (args: string[]) => [string, string[]] }> = [
  { name: './spout (README)', start: (args) => ['./spout', args] },
  { name: 'node bin/spout.js', start: (args) => [process.execPath, ['bin/spout.js', ...args]] },
  { name: 'npx spout (before)', start: (args) => ['npx', ['spout', ...args]] },
];

const fmt = (ms: number[]): string => `${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)})`;

async function main(): Promise<void> {
  const spout = await startSpout();
  // The commands find the service through these, as after `spout login`; nothing of ours reaches them.
  const env: NodeJS.ProcessEnv = { ...process.env, SPOUT_API_URL: spout.url, SPOUT_API_KEY: 'bench-key', NODE_OPTIONS: undefined };
  const commands = [['--version'], ['list', 'sources']];
  const ms = commands.map(() => CONTENDERS.map((): number[] => []));
  console.log(`${os.availableParallelism()} cores, load ${os.loadavg()[0]?.toFixed(1)}; ${ROUNDS} rounds after a warm-up round`);
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [c, args] of commands.entries()) {
        const order = CONTENDERS.map((_, i) => (i + round) % CONTENDERS.length);
        for (const i of order) {
          const [file, argv] = (CONTENDERS[i] as (typeof CONTENDERS)[number]).start(args);
          const took = await timeRun(file, argv, env);
          // Round 0 warms the file cache (and fills npx's cache folder), as a second command would find it.
          if (round > 0) (ms[c] as number[][])[i]!.push(took);
        }
      }
    }
  } finally {
    await stopChild(spout.child);
  }
  console.log('\nmedian (range), and the ratio of medians to node bin/spout.js');
  for (const [c, args] of commands.entries()) {
    const base = median(ms[c]![1]!);
    console.log(`spout ${args.join(' ')}`);
    for (const [i, contender] of CONTENDERS.entries()) console.log(`  ${contender.name.padEnd(20)} ${fmt(ms[c]![i]!).padEnd(22)} ×${(median(ms[c]![i]!) / base).toFixed(2)}`);
  }
  console.log(`load after: ${os.loadavg()[0]?.toFixed(1)}`);
}

await main();
