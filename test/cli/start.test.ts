// `npm start` without Electron's binary: the service runs headless and the UI link works.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/service';

describe('npm start', () => {
  it('falls back to the headless service and serves the UI behind its token link', async () => {
    const child = spawn(process.execPath, ['scripts/start.js', '--port', '0'], {
      env: { ...process.env, SPOUT_HEADLESS: '1', SPOUT_DATA_DIR: tempDir(), CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const uiUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no UI line:\n${out}`)), 20_000);
        child.stdout.on('data', () => {
          const m = /^UI: (\S+)$/m.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1] as string);
          }
        });
      });
      assert.match(out, /running headless/);
      const signIn = await fetch(uiUrl, { redirect: 'manual' });
      assert.equal(signIn.status, 302);
      const cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
      const page = await fetch(new URL('/', uiUrl), { headers: { cookie } });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<div id="root">/);
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
  });
});
