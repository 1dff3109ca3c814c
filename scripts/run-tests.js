// Runs the test files under test/ with Node's test runner (TypeScript through tsx); with arguments,
// only the files whose path contains one of them. Two lanes run side by side, each a file at a
// time: the browser tests (test/e2e/, one Chromium each, timing-sensitive UIs such as Monaco's)
// and all the others. One lane took 1077 s on the 2-core CI machine; node's own
// `--test-concurrency=2` may pair two browser files, which starve each other's pages. `--typecheck` (npm test) type-checks every part
// at the same time: tsc only reads the sources, so it cannot disturb the tests, and the tests'
// output starts at once instead of after minutes of silent type-checking.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const args = process.argv.slice(2);
const typecheck = args.includes('--typecheck');
const filter = args.filter((a) => a !== '--typecheck');

const files = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.test.ts')) files.push(full);
  }
};
walk('test');
const selected = filter.length ? files.filter((f) => filter.some((x) => f.includes(x))) : files;
if (selected.length === 0) {
  console.error(`No test file's path contains ${filter.map((x) => `"${x}"`).join(' or ')}: nothing was run. Give a word of a file's path under test/ (e.g. webhooks).`);
  process.exit(1);
}

// The tests' temp folders (data dirs, config homes, logs) go in one folder of this run, removed at
// the end: a run makes thousands, and they would pile up in the machine's temp folder.
// KEEP_TEST_TMP=1 keeps it, to look at what a failing test left. spout/testing's cache (bundles,
// packages) goes there too, not in the developer's ~/.cache/spout.
const testTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-tests-'));

/** Runs a command to its end; resolves its exit status and (when captured) its output. */
function run(command, argv, capture, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    let output = '';
    if (capture) for (const s of [child.stdout, child.stderr]) s.on('data', (c) => (output += c));
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Runs one lane of test files with node's runner, each line of its output shown as it comes, after the lane's name. */
function runLane(name, laneFiles, env) {
  return new Promise((resolve) => {
    if (laneFiles.length === 0) return resolve(0);
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...laneFiles], { stdio: ['ignore', 'pipe', 'pipe'], env });
    for (const stream of [child.stdout, child.stderr]) readline.createInterface({ input: stream }).on('line', (line) => console.log(`${name} | ${line}`));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** The three TypeScript projects (service, renderer, Electron main), one after another. */
async function typecheckAll() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const started = Date.now();
  for (const project of ['tsconfig.json', 'renderer/tsconfig.json', 'main/tsconfig.json']) {
    const { code, output } = await run(process.execPath, [tsc, '-p', project], true);
    if (code !== 0) return { ok: false, text: `type-check of ${project} failed:\n${output}` };
  }
  return { ok: true, text: `type-check passed (service, renderer, Electron main) in ${Math.round((Date.now() - started) / 1000)} s` };
}

const started = Date.now();
console.log(`Running ${selected.length} test files${typecheck ? ', type-checking beside them' : ''}…`);
const checking = typecheck ? typecheckAll() : null;
const env = { ...process.env, TMPDIR: testTmp, SPOUT_TEST_CACHE: path.join(testTmp, 'spout-test-cache') };
const isBrowser = (f) => f.split(path.sep).includes('e2e');
const lanes = [
  ['browser', selected.filter(isBrowser).sort()],
  ['other  ', selected.filter((f) => !isBrowser(f)).sort()],
];
const codes = await Promise.all(lanes.map(([name, laneFiles]) => runLane(name, laneFiles, env)));
lanes.forEach(([name, laneFiles], i) => laneFiles.length && console.log(`${name.trim()} lane: ${laneFiles.length} files, ${codes[i] === 0 ? 'passed' : 'failures above (lines starting with its name)'}`));
let status = codes.some((c) => c !== 0) ? 1 : 0;
if (checking) {
  const result = await checking;
  console.log(result.text);
  if (!result.ok) status = 1;
}
if (process.env.KEEP_TEST_TMP) console.log(`The tests' temp folders are in ${testTmp}.`);
else fs.rmSync(testTmp, { recursive: true, force: true });
console.log(`${status === 0 ? 'All passed' : 'Failures above'} in ${Math.round((Date.now() - started) / 1000)} s.`);
process.exit(status);
