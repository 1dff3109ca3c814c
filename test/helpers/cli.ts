import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { type SpoutProcess, tempDir, waitFor } from './service';

const cliPath = path.resolve('dist', 'cli.js');

/** What a finished `spout` command printed and how it exited. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json: <T = any>() => T;
}

type Env = Record<string, string | undefined>;

/**
 * An environment that points the CLI at `spout` (or at nothing): a private XDG_CONFIG_HOME and
 * data dir, so the user's own profiles and local service are never used.
 */
export function cliEnv(spout: SpoutProcess | null, extra: Env = {}): Env {
  const env: Env = { ...process.env, XDG_CONFIG_HOME: tempDir('spout-cli-config-'), SPOUT_DATA_DIR: tempDir('spout-cli-data-'), NO_COLOR: '1' };
  for (const k of ['SPOUT_API_URL', 'SPOUT_API_KEY', 'SPOUT_REGISTRY', 'SPOUT_REGISTRY_DIRS']) delete env[k];
  if (spout) Object.assign(env, { SPOUT_API_URL: spout.url, SPOUT_API_KEY: spout.apiKey });
  return { ...env, ...extra };
}

/** Runs `spout ARGS` to completion (asynchronously: the test's own servers keep answering). */
export function cli(args: string[], env: Env, options: { cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env: env as NodeJS.ProcessEnv, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`spout ${args.join(' ')} did not finish:\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout,
        stderr,
        json: () => {
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(`spout ${args.join(' ')} printed no JSON (exit ${code}):\n${stdout}\n${stderr}`);
          }
        },
      });
    });
  });
}

/** Runs `spout ARGS` and expects exit 0; returns its parsed JSON output. */
export async function cliJson<T = any>(args: string[], env: Env, options: { cwd?: string } = {}): Promise<T> {
  const r = await cli([...args, '--json'], env, options);
  if (r.code !== 0) throw new Error(`spout ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r.json<T>();
}

/** A long-running `spout` command (dev, -f): its output so far, its JSON lines, and a stop. */
export interface LiveCli {
  child: ChildProcess;
  output: () => string;
  /** stdout lines that parse as JSON. */
  lines: () => any[];
  /** Waits for a JSON line matching `match`. */
  waitForLine: (match: (line: any) => boolean, what: string, timeoutMs?: number) => Promise<any>;
  /** Sends SIGINT (Ctrl-C) and resolves the exit code. */
  interrupt: () => Promise<number | null>;
}

export function startCli(args: string[], env: Env, options: { cwd?: string } = {}): LiveCli {
  const child = spawn(process.execPath, [cliPath, ...args], { env: env as NodeJS.ProcessEnv, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = () =>
    stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return null;
        }
      })
      .filter(Boolean);
  return {
    child,
    output: () => `${stdout}\n--- stderr ---\n${stderr}`,
    lines,
    waitForLine: (match, what, timeoutMs = 10_000) =>
      waitFor(() => lines().find(match), timeoutMs, `${what} in the output of spout ${args.join(' ')}`).catch((err: Error) => {
        throw new Error(`${err.message}\n${stdout}\n--- stderr ---\n${stderr}`);
      }),
    interrupt: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}
