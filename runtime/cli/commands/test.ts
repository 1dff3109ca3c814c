import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { findTestFiles, testsAffectedBy } from '../../testing/test-files';
import { REPORTERS, type ReporterName, runTestFiles, type TestRunOptions, type TestTotals } from '../../testing/test-run';
import { parse } from '../support/args';
import { interruption } from '../support/follow';
import { clock, dim, displayPath, green, note, out, red } from '../support/output';
import { writeTestFromRun } from '../support/run-test-writer';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout test [PATHS…] [--watch] [--record] [--update-snapshots] [--reporter spec|tap|junit]
                  [--junit FILE] [--filter TEXT]
       spout test --from INVOCATION_ID [FILE]

Runs component tests: every *.test.mjs, *.test.js and *.test.ts file under PATHS (files or
folders; default: this folder; node_modules and dot-folders are skipped), with Node's test runner,
files in parallel across the cores. Test files import "spout/testing" wherever they are (it is this
Spout's own), and TypeScript test files run as they are. Snapshots (matchSnapshot) are kept in
NAME.test.mjs.snap.json beside each test file; a missing one is written, except under CI.
Exit status 0 when every test passed, 1 when one failed or no test file was found, 2 on bad usage.

Options:
  --watch              after the run, rerun a component's tests when it or its test changes
                       (X.test.mjs belongs to X.mjs beside it; a test that names a changed file
                       reruns too); Ctrl-C ends
  --record             let outgoing calls go out and write the cassettes the tests replay
  --update-snapshots   rewrite the snapshots that differ (and write missing ones, CI or not)
  --reporter NAME      the report printed: spec (default), tap or junit (JUnit XML)
  --junit FILE         also write the report as JUnit XML to FILE (its folder is made)
  --filter TEXT        run only the tests whose name (or a suite's name) contains TEXT
  --from ID            write a test of a source's recorded run (spout invocations SRC lists them):
                       NAME.test.mjs replaying its request, timer or hook at its time and expecting
                       its answer and events, NAME.cassette.json answering its calls; beside FILE,
                       else the file the source was deployed from in this folder, else in ./SLUG/
                       (its code written there). An existing test or cassette is kept: the test is
                       NAME.from-ID.test.mjs and the cassette gets the calls it lacks.
`;

/** Time without file-change notices before a rerun starts (editors write files in bursts). */
const DEBOUNCE_MS = 100;

export async function run(argv: string[]): Promise<void> {
  const spec = { watch: { type: 'boolean' }, record: { type: 'boolean' }, 'update-snapshots': { type: 'boolean' }, reporter: { type: 'string' }, junit: { type: 'string' }, filter: { type: 'string' }, from: { type: 'string' } } as const;
  const args = parse(argv, spec, HELP);
  if (!args) return;
  if (args.globals.json) throw new UsageError('spout test has no --json: "--reporter tap" or "--reporter junit" print a report programs read');
  const from = args.string('from');
  if (from !== undefined) {
    if (!/^inv_\w+$/.test(from)) throw new UsageError(`--from: "${from}" is not an invocation id (inv_…); "spout invocations SRC" lists a source's runs`);
    const other = Object.keys(spec).find((name) => name !== 'from' && (args.string(name) !== undefined || args.flag(name)));
    if (other) throw new UsageError(`--from writes a test and runs nothing: leave out --${other}, then run the test with "spout test"`);
    return writeTestFromRun(connect(args), from, args.atMost(1).positionals[0]);
  }
  const reporter = args.string('reporter') ?? 'spec';
  if (!(REPORTERS as readonly string[]).includes(reporter)) throw new UsageError(`--reporter: "${reporter}" is not a reporter; give ${REPORTERS.join(', ')}`);
  const paths = args.positionals.length ? args.positionals : ['.'];
  for (const p of paths) if (!fs.existsSync(p)) throw new UsageError(`${p}: no such file or folder`);
  const junitFile = args.string('junit');
  if (junitFile !== undefined) {
    if (!junitFile) throw new UsageError('--junit: give the file to write the JUnit XML to');
    fs.mkdirSync(path.dirname(path.resolve(junitFile)), { recursive: true });
  }
  const options: TestRunOptions = {
    reporter: reporter as ReporterName,
    junitFile: junitFile && path.resolve(junitFile),
    filter: args.string('filter') || undefined,
    record: args.flag('record'),
    updateSnapshots: args.flag('update-snapshots'),
  };
  const { files } = findTestFiles(paths);
  const searched = paths.map((p) => displayPath(p)).join(', ');
  if (!files.length) note(`no test files (*.test.mjs, *.test.js, *.test.ts) under ${searched}`);
  const passed = files.length > 0 && (await runAndSum(files, options));
  if (args.flag('watch')) await watch(paths, options);
  else process.exitCode = passed ? 0 : 1;
}

/** One run and its summary line; true when every test passed (and `--filter` matched one). */
async function runAndSum(files: string[], options: TestRunOptions): Promise<boolean> {
  const started = performance.now();
  const totals = await runTestFiles(files, options);
  // Ctrl-C during a rerun: what ran is reported, but no total of a run cut short.
  if (options.signal?.aborted) return false;
  const line = summary(totals, performance.now() - started);
  // The spec report is for people; a tap or junit report stays what its readers parse.
  if (options.reporter === 'spec') out(`\n${line}`);
  else note(line);
  const ran = totals.passed + totals.failed + totals.skipped + totals.todo;
  if (options.filter && ran === 0) note(`no test name contains "${options.filter}"`);
  return totals.failed === 0 && !(options.filter && ran === 0);
}

/** `3 passed, 1 failed, 2 skipped in 1.4 s`. */
function summary(totals: TestTotals, ms: number): string {
  const parts = [green(`${totals.passed} passed`), totals.failed ? red(`${totals.failed} failed`) : '0 failed'];
  if (totals.skipped) parts.push(`${totals.skipped} skipped`);
  if (totals.todo) parts.push(`${totals.todo} todo`);
  return `${parts.join(', ')} in ${(ms / 1000).toFixed(1)} s`;
}

/** Whether a changed file can rerun tests: not what the runs write themselves, nor an editor's scratch file. */
function worthRerun(name: string, options: TestRunOptions): boolean {
  if (name.startsWith('.') || name.endsWith('~') || name.endsWith('.tmp') || name.includes('.snap.json')) return false;
  return !(options.record && name.endsWith('.cassette.json'));
}

/** Reruns the tests a change touches until Ctrl-C, one run at a time (changes during a run make the next). */
async function watch(paths: string[], options: TestRunOptions): Promise<void> {
  const stop = interruption();
  const watchers = new Map<string, fs.FSWatcher>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let queue = Promise.resolve();
  const observe = (folders: string[]): void => {
    for (const dir of folders) {
      if (watchers.has(dir)) continue;
      // Folders, not files: editors often replace a file rather than write it in place.
      const watcher = fs.watch(dir, (_event, name) => {
        if (!name || !worthRerun(name, options)) return;
        pending.add(path.join(dir, name));
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => (queue = queue.then(rerun)), DEBOUNCE_MS);
      });
      watcher.on('error', () => watchers.delete(dir));
      watchers.set(dir, watcher);
    }
  };
  const rerun = async (): Promise<void> => {
    if (stop.signal.aborted || !pending.size) return;
    const changed = [...pending];
    pending.clear();
    const found = findTestFiles(paths.filter((p) => fs.existsSync(p)));
    observe(found.folders);
    const files = testsAffectedBy(changed, found.files);
    if (!files.length) return;
    const names = changed.map((f) => displayPath(f)).join(', ');
    out(dim(`\n── ${clock(Date.now())} ${names} changed: rerunning ${files.length} test file${files.length === 1 ? '' : 's'} ──`));
    await runAndSum(files, { ...options, signal: stop.signal });
  };
  observe(findTestFiles(paths).folders);
  note(dim('Watching for changes. Ctrl-C ends.', process.stderr));
  await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  if (timer) clearTimeout(timer);
  for (const w of watchers.values()) w.close();
  stop.dispose();
  await queue;
}
