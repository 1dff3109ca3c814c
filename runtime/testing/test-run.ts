// One run of test files with node:test's own runner and reporters: files in parallel across the
// cores, each in a process of its own that imports the test module hooks (register-test-hooks.ts).
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { run } from 'node:test';
import { junit, spec, type TestEvent, tap } from 'node:test/reporters';
import { pathToFileURL } from 'node:url';
import { testRegisterScript } from '../lib/paths';

/** The reporters `--reporter` takes. */
export const REPORTERS = ['spec', 'tap', 'junit'] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** How one run goes. */
export interface TestRunOptions {
  reporter: ReporterName;
  /** Also write JUnit XML here. */
  junitFile?: string;
  /** Run only tests whose name contains this text. */
  filter?: string;
  /** Let calls go out and write cassettes (SPOUT_TEST_RECORD=1). */
  record?: boolean;
  /** Rewrite snapshots (SPOUT_UPDATE_SNAPSHOTS=1). */
  updateSnapshots?: boolean;
  signal?: AbortSignal;
}

/** What a run came to: tests (not suites) by outcome. */
export interface TestTotals {
  passed: number;
  failed: number;
  skipped: number;
  todo: number;
}

/** Node 20's skip reason for a test `--test-name-pattern` leaves out (later versions leave it out of the report). */
const LEFT_OUT = 'test name does not match pattern';

/** Runs `files`, printing `reporter`'s report on stdout (and JUnit XML to `junitFile`); resolves the totals. */
export async function runTestFiles(files: string[], options: TestRunOptions): Promise<TestTotals> {
  const outputs = [report(options.reporter, process.stdout, false)];
  if (options.junitFile) outputs.push(report('junit', fs.createWriteStream(options.junitFile), true));
  const totals: TestTotals = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for await (const event of testEvents(files, options)) {
    countTest(event, totals);
    for (const output of outputs) if (!output.input.write(event)) await once(output.input, 'drain');
  }
  for (const output of outputs) output.input.end();
  await Promise.all(outputs.map((o) => o.done));
  return totals;
}

/** The events of node:test's run of `files`, each file in a process of its own, without the tests `filter` left out. */
export function testEvents(files: string[], options: Omit<TestRunOptions, 'reporter'>): AsyncGenerator<TestEvent> {
  testProcessEnv(options);
  const events = run({
    files,
    concurrency: os.availableParallelism(),
    // A literal text, not a pattern: `--filter "a (b)"` means those characters.
    testNamePatterns: options.filter ? [options.filter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')] : undefined,
    signal: options.signal,
  });
  return withoutLeftOut(events as AsyncIterable<TestEvent>);
}

/**
 * The environment test processes inherit (Node 20's `run()` takes no `env` or `execArgv`): the
 * hooks as an `--import`, and the switches of the test API and snapshots.
 */
function testProcessEnv(options: Omit<TestRunOptions, 'reporter'>): void {
  const register = `--import ${pathToFileURL(testRegisterScript).href}`;
  const current = process.env.NODE_OPTIONS ?? '';
  if (!current.includes(register)) process.env.NODE_OPTIONS = `${current} ${register}`.trim();
  // `spout test` run from inside a test (a project's own suite) is a run of its own, not a child's.
  delete process.env.NODE_TEST_CONTEXT;
  if (options.record) process.env.SPOUT_TEST_RECORD = '1';
  if (options.updateSnapshots) process.env.SPOUT_UPDATE_SNAPSHOTS = '1';
}

/** A reporter fed events through `input`, writing to `destination` (stdout stays open for the next run). */
function report(name: ReporterName, destination: Writable, end: boolean): { input: PassThrough; done: Promise<void> } {
  const input = new PassThrough({ objectMode: true });
  const done = name === 'spec' ? pipeline(input, new spec(), destination, { end }) : pipeline(input, (source: AsyncIterable<TestEvent>) => (name === 'tap' ? tap : junit)(source as Parameters<typeof tap>[0]), destination, { end });
  return { input, done };
}

/** Adds a finished test (not a suite) to `totals`. */
export function countTest(event: TestEvent, totals: TestTotals): void {
  if (event.type !== 'test:pass' && event.type !== 'test:fail') return;
  if ((event.data.details as { type?: string }).type === 'suite') return;
  if (event.data.todo !== undefined && event.data.todo !== false) totals.todo++;
  else if (event.type === 'test:fail') totals.failed++;
  else if (event.data.skip !== undefined && event.data.skip !== false) totals.skipped++;
  else totals.passed++;
}

/** The events without tests `--filter` left out (Node 20 reports them as skipped): each with the `test:start` just before it. */
async function* withoutLeftOut(events: AsyncIterable<TestEvent>): AsyncGenerator<TestEvent> {
  // Per file, the last test:start, held until the next event of that file says whether it was left out.
  const held = new Map<string | undefined, TestEvent>();
  for await (const event of events) {
    const file = (event.data as { file?: string } | undefined)?.file;
    const start = held.get(file);
    held.delete(file);
    if ((event.data as { skip?: unknown } | undefined)?.skip === LEFT_OUT) continue;
    if (start) yield start;
    if (event.type === 'test:start') held.set(file, event);
    else yield event;
  }
  yield* held.values();
}
