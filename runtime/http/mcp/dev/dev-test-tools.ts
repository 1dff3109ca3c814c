// run_tests: the component tests under the allowed folders, run as `spout test` runs them (the same
// runner, testing/test-run.ts), but in processes of their own under Node's permission model
// (testing/isolated-test-run.ts): a test file is code an agent wrote.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { runTestsIsolated } from '../../../testing/isolated-test-run';
import { findTestFiles, TEST_FILE } from '../../../testing/test-files';
import type { TestResult } from '../../../testing/test-results';
import { boundedResult } from './dev-bounds';
import { FileRefused } from './dev-roots';
import { type DevSession, type DevTool, devTool } from './dev-tool-kit';

/** A run's limit when the call gives none: inside the 60 s many MCP clients wait for an answer. */
export const DEFAULT_TEST_TIMEOUT_S = 50;
/** The longest limit a call may ask for. */
export const MAX_TEST_TIMEOUT_S = 600;

/** One line for the agent: totals, and the first failure with its place. */
function summaryLine(tests: TestResult[], totals: { passed: number; failed: number; skipped: number; todo: number }, seconds: number, timedOut: boolean): string {
  const parts = [`${totals.passed} passed`, `${totals.failed} failed`];
  if (totals.skipped) parts.push(`${totals.skipped} skipped`);
  if (totals.todo) parts.push(`${totals.todo} todo`);
  const first = tests.find((t) => t.status === 'fail');
  const failure = first?.failure ? `; first failure: "${first.name}" at ${first.failure.at}: ${first.failure.message.split('\n')[0]}` : '';
  return `${parts.join(', ')} in ${seconds.toFixed(1)} s${timedOut ? ' (killed at the timeout)' : ''}${failure}`;
}

/** The test files `given` names, each under the roots; refused when a root holds the data dir, which the tests' processes could then read. */
function testFilesOf(session: DevSession, given: string): string[] {
  const target = session.roots.check(given);
  if (!fs.existsSync(target)) throw new FileRefused(`${given}: no such file or folder under ${session.roots.list().join(', ')}`);
  const dataDir = session.ctx.settings().data_dir;
  const holder = session.roots.list().find((root) => {
    const rel = path.relative(root, fs.realpathSync(dataDir));
    return !rel.startsWith('..') && !path.isAbsolute(rel);
  });
  if (holder) throw new FileRefused(`run_tests: the allowed folder ${holder} holds Spout's data dir, which test processes would be able to read; restart the session with --root for the components' own folder`);
  if (fs.statSync(target).isFile() && !TEST_FILE.test(target)) throw new FileRefused(`${given}: not a test file; test files are named NAME.test.mjs, NAME.test.js or NAME.test.ts (give one, or a folder)`);
  return findTestFiles([target]).files.map((file) => session.roots.check(file));
}

/** The test tools: run_tests. */
export const TEST_TOOLS: DevTool[] = [
  devTool({
    name: 'run_tests',
    title: 'Run component tests',
    description:
      'Runs the component tests (*.test.mjs, *.test.js, *.test.ts using spout/testing; component_guide topic tests shows how to write one) in a file or folder under the allowed folders, as `spout test` does, in processes of their own. Answers each test with its status, duration and, for a failure, the message and the file:line of the assertion, failures first, and the totals.',
    input: z.object({
      path: z.string().min(1).max(1000).describe('A test file or a folder of tests, under the allowed folders (relative to the first)'),
      filter: z.string().min(1).max(200).optional().describe("Run only the tests whose name (or a suite's name) contains this text"),
      update_snapshots: z.boolean().default(false).describe('Rewrite the snapshots (matchSnapshot) that differ'),
      timeout_seconds: z.number().int().min(1).max(MAX_TEST_TIMEOUT_S).default(DEFAULT_TEST_TIMEOUT_S).describe('Kill the run after this many seconds'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async ({ path: given, filter, update_snapshots, timeout_seconds }, session) => {
      const files = testFilesOf(session, given);
      if (files.length === 0) return boundedResult({ passed: false, files: 0, tests: [] }, `no test files (*.test.mjs, *.test.js, *.test.ts) under ${given}`);
      const started = performance.now();
      const run = await runTestsIsolated({ files, roots: session.roots.list(), filter, updateSnapshots: update_snapshots, timeoutMs: timeout_seconds * 1000 });
      const seconds = (performance.now() - started) / 1000;
      const order = { fail: 0, pass: 1, skip: 2, todo: 3 } as const;
      const tests = [...run.tests].sort((a, b) => order[a.status] - order[b.status]);
      const failedFiles = new Set(tests.filter((t) => t.status === 'fail').map((t) => t.file));
      const result = {
        passed: !run.timedOut && !run.runnerError && run.totals.failed === 0 && tests.length > 0,
        totals: run.totals,
        duration_ms: Math.round(seconds * 1000),
        files: files.length,
        ...(run.timedOut ? { timed_out: `killed after ${timeout_seconds} s; still running: ${run.unfinished.join(', ')}` } : {}),
        ...(run.runnerError ? { runner_error: run.runnerError } : {}),
        tests,
        stderr: Object.fromEntries(Object.entries(run.stderr).filter(([file]) => failedFiles.has(file) || run.timedOut)),
      };
      const line = run.runnerError ? `the tests could not be run: ${run.runnerError.split('\n')[0]}` : summaryLine(tests, run.totals, seconds, run.timedOut);
      return boundedResult(result, filter && tests.length === 0 && !run.timedOut ? `${line}; no test name contains "${filter}"` : line);
    },
  }),
];
