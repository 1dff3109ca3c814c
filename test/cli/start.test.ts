// `npm start` without Electron's binary: the service runs headless and the UI link works; and the
// service never outlives the script that started it, however that script is stopped.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir, waitFor } from '../helpers/service';

/** A headless start (`node scripts/start.js` or `npm start`) on a free port, once its UI line is printed. */
interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  uiUrl: string;
  port: number;
  /** The service's own process (from DATA_DIR/server.json), a child of the start script. */
  servicePid: number;
}

async function start(command: string, args: string[]): Promise<Started> {
  const dataDir = tempDir();
  const child = spawn(command, args, {
    env: { ...process.env, SPOUT_HEADLESS: '1', SPOUT_DATA_DIR: dataDir, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const ui = await waitFor(() => /^UI: (\S+)$/m.exec(out), 30_000, `the UI line of ${command} ${args.join(' ')}`).catch((err: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${err.message}:\n${out}`);
  });
  const uiUrl = ui[1] as string;
  const { pid } = JSON.parse(fs.readFileSync(path.join(dataDir, 'server.json'), 'utf8')) as { pid: number };
  return { child, output: () => out, exited, uiUrl, port: Number(new URL(uiUrl).port), servicePid: pid };
}

/** Whether a process runs: a zombie (ended, not yet reaped by whoever adopted it) holds no port and runs nothing. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Whether nothing listens on the port any more. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

/** Waits (30 s at most) until the service's process is gone and its port free; a service still running then is killed so no test leaves one behind. */
async function assertServiceGone(started: Started): Promise<void> {
  try {
    await waitFor(async () => !running(started.servicePid) && (await portFree(started.port)), 30_000, `service ${started.servicePid} to end and free port ${started.port}`);
  } catch (err) {
    if (running(started.servicePid)) process.kill(started.servicePid, 'SIGKILL');
    throw new Error(`${(err as Error).message}\n${started.output()}`);
  }
}

describe('npm start', () => {
  it('falls back to the headless service and serves the UI behind its token link', async () => {
    const started = await start(process.execPath, ['scripts/start.js', '--port', '0']);
    try {
      assert.match(started.output(), /running headless/);
      const signIn = await fetch(started.uiUrl, { redirect: 'manual' });
      assert.equal(signIn.status, 302);
      const cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
      const page = await fetch(new URL('/', started.uiUrl), { headers: { cookie } });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<div id="root">/);
    } finally {
      started.child.kill('SIGTERM');
      assert.equal(await started.exited, 0);
    }
    await assertServiceGone(started);
  });

  it('SIGTERM to npm (as a process manager or `kill` sends it) stops the service and frees its port', async () => {
    const started = await start('npm', ['start', '--', '--port', '0']);
    started.child.kill('SIGTERM');
    await started.exited;
    await assertServiceGone(started);
  });

  it('SIGHUP to the start script (its terminal closed) is passed on, and the script exits with the service', async () => {
    const started = await start(process.execPath, ['scripts/start.js', '--port', '0']);
    started.child.kill('SIGHUP');
    const code = await started.exited;
    await assertServiceGone(started);
    assert.equal(code, 0, started.output());
  });

  it('a start script killed outright (SIGKILL) takes the service with it', async () => {
    const started = await start(process.execPath, ['scripts/start.js', '--port', '0']);
    started.child.kill('SIGKILL');
    await started.exited;
    await assertServiceGone(started);
    assert.match(started.output(), /the launcher ended: stopping/);
  });
});
