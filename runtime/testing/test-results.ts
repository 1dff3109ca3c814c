// A run's node:test events as results a program reads (the MCP tool run_tests): one per test, with
// its outcome, duration, and for a failure the message and the file:line of the assertion.
import type { TestEvent } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

/** One test's outcome. */
export interface TestResult {
  /** The test's name, after its suites' names (`suite > test`). */
  name: string;
  file: string;
  status: 'pass' | 'fail' | 'skip' | 'todo';
  duration_ms: number;
  /** A failed test's error message and where it was thrown: the assertion's `file:line` in the test's file when the stack has it. */
  failure?: { message: string; at: string };
}

/** What the runner process writes, one JSON line each: a test begun, a test's result, a line of a file's stderr. */
export type RunnerLine = { kind: 'started'; file: string; name: string } | { kind: 'result'; result: TestResult } | { kind: 'stderr'; file: string; text: string };

interface TestData {
  name: string;
  nesting: number;
  file?: string;
  line?: number;
  skip?: unknown;
  todo?: unknown;
  details?: { duration_ms?: number; type?: string; error?: unknown };
}

/** A stack frame's location: `file:///x/a.test.mjs:14:3` or `/x/a.test.mjs:14:3`, in parentheses or not. */
const FRAME = /(?:at |\()((?:file:\/\/)?(?:\/|[A-Za-z]:[\\/])[^():\n]*):(\d+):\d+\)?$/;

/** Where in the stack an error was thrown: the first frame in `file`, else the first outside Node and packages, else null. */
export function throwSite(stack: string, file: string): string | null {
  const frames = stack.split('\n').flatMap((line) => {
    const m = FRAME.exec(line.trim());
    if (!m) return [];
    const at = m[1] as string;
    return [{ file: at.startsWith('file:') ? fileURLToPath(at) : at, line: m[2] as string }];
  });
  const own = frames.find((f) => f.file === file) ?? frames.find((f) => !f.file.includes(`node_modules`) && !/[\\/]dist[\\/](testing|cli)[^\\/]*\.js$/.test(f.file));
  return own ? `${own.file}:${own.line}` : null;
}

/** The error a failed test threw (node:test wraps it in ERR_TEST_FAILURE with it as `cause`). */
function failureOf(data: TestData): { message: string; at: string } {
  const wrapper = data.details?.error as { cause?: unknown; message?: string } | undefined;
  const cause = wrapper?.cause ?? wrapper;
  const declared = `${data.file ?? '?'}:${data.line ?? '?'}`;
  if (cause instanceof Error || (typeof cause === 'object' && cause !== null && 'message' in cause)) {
    const err = cause as Error;
    return { message: String(err.message), at: (err.stack && data.file && throwSite(err.stack, data.file)) || declared };
  }
  return { message: String(cause ?? wrapper?.message ?? 'failed'), at: declared };
}

/** Turns a run's events into runner lines: keeps suites' names to name their tests, leaves suites out. */
export class TestResultCollector {
  /** Per file, the names of the tests begun at each nesting level. */
  private readonly open = new Map<string, string[]>();

  /** The lines `event` makes (none for most events). */
  take(event: TestEvent): RunnerLine[] {
    const data = event.data as TestData & { message?: string };
    const file = data.file ?? '';
    if (event.type === 'test:stderr') return [{ kind: 'stderr', file, text: data.message ?? '' }];
    if (event.type === 'test:start') {
      const names = this.open.get(file) ?? [];
      names.length = data.nesting;
      names.push(data.name);
      this.open.set(file, names);
      return [{ kind: 'started', file, name: this.fullName(file, data) }];
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') return [];
    if (data.details?.type === 'suite') return [];
    const status = data.todo !== undefined && data.todo !== false ? 'todo' : event.type === 'test:fail' ? 'fail' : data.skip !== undefined && data.skip !== false ? 'skip' : 'pass';
    const result: TestResult = { name: this.fullName(file, data), file, status, duration_ms: Math.round(data.details?.duration_ms ?? 0) };
    if (status === 'fail') result.failure = failureOf(data);
    return [{ kind: 'result', result }];
  }

  private fullName(file: string, data: TestData): string {
    const suites = (this.open.get(file) ?? []).slice(0, data.nesting);
    return [...suites, data.name].join(' > ');
  }
}
