// A run of test files on behalf of someone else (the MCP tool run_tests): the code is an agent's,
// so it runs in a runner process of its own (test-runner-main.ts) and the test processes that one
// starts, never in the caller's, under Node's permission model with only the grants below
// (docs/security.md), with a small environment, and killed whole at the deadline.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { platformReadPaths } from '../components/platform-packages';
import { bundledRegistryDir, cliScript, distDir, hostScript } from '../lib/paths';
import { permissionFlag } from '../sandbox/host-grants';
import type { RunnerLine, TestResult } from './test-results';
import type { TestTotals } from './test-run';
import type { RunnerJob } from './test-runner-main';
import { testCacheDir } from './test-runtime';

/** The runner process's script. */
const runnerScript = path.join(distDir, 'testing-runner.js');
/** Of each file's stderr, this many characters (the end) are kept. */
const STDERR_KEPT = 4_000;

export interface IsolatedRunOptions {
  files: string[];
  /** The folders the tests may read and write (their own files, snapshots). */
  roots: string[];
  filter?: string;
  updateSnapshots?: boolean;
  /** The whole run's limit: at it, the runner and every test process are killed. */
  timeoutMs: number;
}

/** What an isolated run came to. */
export interface IsolatedRunReport {
  tests: TestResult[];
  totals: TestTotals;
  timedOut: boolean;
  /** When the run was killed: the tests begun and not finished, else the files that had reported no test. */
  unfinished: string[];
  /** The end of the stderr of each file that wrote to it. */
  stderr: Record<string, string>;
  /** The runner's own failure (it could not start, or it crashed), if any. */
  runnerError: string | null;
}

/** The paths a run may read besides the roots: Spout's own code and packages, and what modules it loads probe for. */
function spoutReadPaths(): string[] {
  const modules = path.join(distDir, '..', 'node_modules');
  const real = (p: string): string[] => (fs.existsSync(p) ? [p, fs.realpathSync(p)] : [p]);
  // pidusage (host usage) looks for /etc/alpine-release at load; host launches go through /bin/sh.
  return [distDir, hostScript, cliScript, bundledRegistryDir, ...real(modules), ...platformReadPaths(), '/etc/alpine-release', '/bin/sh'];
}

/** The runner's Node arguments: the permission model (where this Node has it) with its grants, then the script and the job. */
export function runnerArgs(job: RunnerJob, roots: string[], tempDir: string, cacheDir: string, flags: ReadonlySet<string> = process.allowedNodeEnvironmentFlags): string[] {
  const args: string[] = [];
  const permission = permissionFlag(flags);
  if (permission) {
    const read = [...new Set([...roots, tempDir, cacheDir, ...spoutReadPaths()])];
    const write = [...new Set([...roots, tempDir, cacheDir])];
    // Each path its own flag: Node 20 reads a comma in one value as part of the path.
    args.push(permission, ...read.map((p) => `--allow-fs-read=${p}`), ...write.map((p) => `--allow-fs-write=${p}`));
    // Test processes start component hosts and esbuild; the module hooks run on a worker thread.
    args.push('--allow-child-process', '--allow-worker');
  }
  if (flags.has('--disable-warning')) args.push('--disable-warning=ExperimentalWarning', '--disable-warning=SecurityWarning');
  args.push(runnerScript, JSON.stringify(job));
  return args;
}

/** The runner's environment: none of the caller's secrets (its API key), a temp folder of its own, the test cache `spout test` uses. */
function runnerEnv(tempDir: string, cacheDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { TMPDIR: tempDir, TMP: tempDir, TEMP: tempDir, SPOUT_TEST_CACHE: cacheDir };
  for (const name of ['PATH', 'HOME', 'USERPROFILE', 'TZ', 'LANG', 'LC_ALL', 'SYSTEMROOT', 'SPOUT_NPM_REGISTRY']) if (process.env[name] !== undefined) env[name] = process.env[name];
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  return env;
}

/** Runs `files` in a runner process of their own; resolves with every result, at the latest when the run is killed at its deadline. */
export async function runTestsIsolated(options: IsolatedRunOptions): Promise<IsolatedRunReport> {
  const tempDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-run-tests-')));
  const cacheDir = testCacheDir();
  fs.mkdirSync(cacheDir, { recursive: true });
  const report: IsolatedRunReport = { tests: [], totals: { passed: 0, failed: 0, skipped: 0, todo: 0 }, timedOut: false, unfinished: [], stderr: {}, runnerError: null };
  const begun = new Map<string, string>();
  const job: RunnerJob = { files: options.files, filter: options.filter, updateSnapshots: options.updateSnapshots };
  // Its own process group: the deadline kills the runner and every test process it started at once.
  const child = spawn(process.execPath, runnerArgs(job, options.roots, tempDir, cacheDir), { cwd: tempDir, env: runnerEnv(tempDir, cacheDir), stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
  let runnerStderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (runnerStderr = (runnerStderr + text).slice(-STDERR_KEPT)));
  const take = (line: RunnerLine): void => {
    if (line.kind === 'started') begun.set(`${line.file}\0${line.name}`, line.name);
    else if (line.kind === 'stderr') report.stderr[line.file] = ((report.stderr[line.file] ?? '') + line.text).slice(-STDERR_KEPT);
    else {
      begun.delete(`${line.result.file}\0${line.result.name}`);
      report.tests.push(line.result);
      const key = ({ pass: 'passed', fail: 'failed', skip: 'skipped', todo: 'todo' } as const)[line.result.status];
      report.totals[key]++;
    }
  };
  createInterface({ input: child.stdout }).on('line', (text) => {
    try {
      take(JSON.parse(text) as RunnerLine);
    } catch {
      // Not a line of ours: the runner writes nothing else on stdout.
    }
  });
  const timer = setTimeout(() => {
    report.timedOut = true;
    killGroup(child.pid);
  }, options.timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', (status) => resolve(status)));
  clearTimeout(timer);
  // Whatever the runner left behind (a test process that outlived it) goes with it.
  killGroup(child.pid);
  fs.rmSync(tempDir, { recursive: true, force: true });
  const reported = new Set(report.tests.map((t) => t.file));
  report.unfinished = begun.size ? [...begun.values()] : options.files.filter((f) => !reported.has(f));
  if (!report.timedOut && code !== 0 && report.tests.length === 0) report.runnerError = runnerStderr.trim() || `the runner ended with status ${code}`;
  return report;
}

/** Kills a process group (the process alone on Windows, which has none). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
