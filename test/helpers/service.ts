import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

const cli = path.resolve('dist', 'cli.js');

/** A `spout serve` process started by a test. */
export interface SpoutProcess {
  url: string;
  /** The UI link printed at start: its token signs one browser in, once. */
  uiUrl: string;
  /** A new one-time UI sign-in link, asked of the service with the key (as `spout ui` does). */
  signInUrl: () => Promise<string>;
  apiKey: string;
  dataDir: string;
  child: ChildProcess;
  /** Output printed so far. */
  output: () => string;
  /** Calls /v1 with the key; `body` is sent as JSON. */
  api: (method: string, route: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; json: any; headers: Headers }>;
  /** SIGTERM and wait for exit; resolves the exit code. */
  stop: () => Promise<number | null>;
  /** SIGKILL and wait. */
  kill: () => Promise<void>;
}

/** A fresh data dir under the OS temp folder. */
export function tempDir(prefix = 'spout-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Makes a file path `name` in a fresh temp folder each call; the folders go once the test file's tests are done. Call at a test file's top level. */
export function tempFiles(prefix: string, name: string): () => string {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = tempDir(prefix);
    dirs.push(dir);
    return path.join(dir, name);
  };
}

/**
 * A fresh folder outside the machine's /tmp (under the checkout's git-ignored `test-results/`, or
 * `/var/tmp` when the checkout itself lies under /tmp), for files a component must not reach:
 * inside a component host, `/tmp/…` names the host's own temp folder (docs/security.md), so a
 * folder under /tmp would not be the one the test means.
 */
export function outsideTmpDir(prefix = 'spout-outside-'): string {
  const inCheckout = path.resolve('test-results');
  const base = inCheckout.startsWith('/tmp/') ? '/var/tmp' : inCheckout;
  fs.mkdirSync(base, { recursive: true });
  return fs.mkdtempSync(path.join(base, prefix));
}

/** Starts the real `spout serve` on a free port and waits for its ready line. */
export async function startSpout(options: { dataDir?: string; apiKey?: string; port?: number; args?: string[]; keyInDataDir?: boolean; env?: Record<string, string> } = {}): Promise<SpoutProcess> {
  const dataDir = options.dataDir ?? tempDir();
  const apiKey = options.apiKey ?? 'test-key-123';
  // As a user's first start does: the key lives in DATA_DIR/api-key instead of coming from a flag.
  if (options.keyInDataDir) fs.writeFileSync(path.join(dataDir, 'api-key'), `${apiKey}\n`, { mode: 0o600 });
  const keyArgs = options.keyInDataDir ? [] : ['--api-key', apiKey];
  const child = spawn(process.execPath, [cli, 'serve', '--port', String(options.port ?? 0), '--data-dir', dataDir, ...keyArgs, ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // A test's own XDG_CONFIG_HOME keeps the user's profiles (read by /v1/remotes) out of it.
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const [url, uiUrl] = await new Promise<[string, string]>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A service left running would keep the test file's process (and the whole run) alive.
      child.kill('SIGKILL');
      reject(new Error(`spout serve did not get ready in 15 s:\n${out}`));
    }, 15_000);
    const check = () => {
      const m = /Spout listening on (\S+)\nUI: (\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve([m[1] as string, m[2] as string]);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`spout serve exited (${code}):\n${out}`)));
  });
  const api: SpoutProcess['api'] = async (method, route, body, headers = {}) => {
    const res = await fetch(url + route, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, json, headers: res.headers };
  };
  const signInUrl = async () => {
    const res = await api('POST', '/v1/ui/sign-in-links');
    if (res.status !== 200) throw new Error(`POST /v1/ui/sign-in-links: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.data.url as string;
  };
  return {
    url,
    uiUrl,
    signInUrl,
    apiKey,
    dataDir,
    child,
    output: () => out,
    api,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Spawns `spout serve` on a port chosen free beforehand, so that a test can knock before the
 * service is ready (`startSpout` waits for its ready line); `output()` is what it printed so far.
 */
export async function spawnServeEarly(dataDir: string): Promise<{ base: string; child: ChildProcess; output: () => string }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--data-dir', dataDir, '--api-key', 'test-key-123'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  return { base: `http://127.0.0.1:${port}`, child, output: () => output };
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An HTTP source component that emits each request's body (written for the tests). */
export const ECHO_SOURCE = `
export default {
  name: "Request echo",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    this.$emit({ method: event.method, path: event.path, body: event.body }, { summary: event.method + " " + event.path });
  },
};
`;

/** Deploys `code` and returns the source id and its endpoint URL. */
export async function deploySource(spout: SpoutProcess, code = ECHO_SOURCE, extra: Record<string, unknown> = {}): Promise<{ id: string; endpoint: string }> {
  const res = await spout.api('POST', '/v1/sources', { component_code: code, ...extra });
  if (res.status !== 200) throw new Error(`deploy failed: ${res.status} ${JSON.stringify(res.json)}`);
  const data = res.json.data as { id: string; configured_props: Record<string, { endpoint_url?: string }> };
  return { id: data.id, endpoint: data.configured_props.http?.endpoint_url ?? '' };
}
