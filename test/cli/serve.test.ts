// `spout serve` as docs/cli.md fixes it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startSpout, tempDir } from '../helpers/service';

describe('spout serve', () => {
  it('prints the ready lines, writes server.json and stops cleanly on SIGTERM', async () => {
    const spout = await startSpout();
    assert.match(spout.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    // The link carries a one-time sign-in token, never the key (test/api/security-ui-sign-in.test.ts).
    assert.match(spout.uiUrl, new RegExp(`^${spout.url}/\\?token=spt_[\\w-]+$`));
    assert.ok(!spout.output().includes(spout.apiKey), 'the key is not printed');
    const info = JSON.parse(fs.readFileSync(path.join(spout.dataDir, 'server.json'), 'utf8'));
    assert.deepEqual(info, { url: spout.url, pid: spout.child.pid });
    assert.equal(await spout.stop(), 0);
    assert.ok(!fs.existsSync(path.join(spout.dataDir, 'server.json')));
  });

  it('generates an API key once into DATA_DIR/api-key with mode 0600 and reuses it', async () => {
    const dataDir = tempDir();
    const env = { ...process.env };
    delete env.SPOUT_API_KEY;
    const run = () => {
      const child = spawnSync(
        process.execPath,
        [
          '-e',
          `
        const { startService } = await import(${JSON.stringify(path.resolve('dist/runtime.js'))});
        const s = await startService({ port: 0, dataDir: ${JSON.stringify(dataDir)} });
        console.log(s.apiKey); await s.stop();`,
          '--input-type=module',
        ],
        { env, encoding: 'utf8' },
      );
      assert.equal(child.status, 0, child.stderr);
      return child.stdout.trim();
    };
    const first = run();
    assert.match(first, /^spk_/);
    assert.equal(run(), first);
    const stat = fs.statSync(path.join(dataDir, 'api-key'));
    assert.equal(stat.mode & 0o777, 0o600);
  });

  it('exits 1 naming the fix when the port is taken', async () => {
    const first = await startSpout();
    try {
      const port = new URL(first.url).port;
      const second = spawnSync(process.execPath, ['dist/cli.js', 'serve', '--port', port, '--data-dir', tempDir(), '--api-key', 'k'], { encoding: 'utf8' });
      assert.equal(second.status, 1);
      assert.match(second.stderr, new RegExp(`port ${port} on 127.0.0.1 is in use.*--port 0`));
    } finally {
      await first.stop();
    }
  });

  it('exits 2 with a hint on bad usage', () => {
    const bad = spawnSync(process.execPath, ['dist/cli.js', 'serve', '--port', 'abc'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--port: "abc" is not a port number/);
    const unknown = spawnSync(process.execPath, ['dist/cli.js', 'frobnicate'], { encoding: 'utf8' });
    assert.equal(unknown.status, 2);
    const schedule = spawnSync(process.execPath, ['dist/cli.js', 'serve', '--retry-schedule', '1,x'], { encoding: 'utf8' });
    assert.equal(schedule.status, 2);
    assert.match(schedule.stderr, /"x" is not a number of seconds/);
    const timeout = spawnSync(process.execPath, ['dist/cli.js', 'serve', '--delivery-timeout', '0'], { encoding: 'utf8' });
    assert.equal(timeout.status, 2);
    assert.match(timeout.stderr, /--delivery-timeout: "0" is not a number of seconds between 0 and 3600/);
    const disable = spawnSync(process.execPath, ['dist/cli.js', 'serve', '--disable-after', '5 weeks'], { encoding: 'utf8' });
    assert.equal(disable.status, 2);
    assert.match(disable.stderr, /--disable-after: "5 weeks" is not a duration; give seconds/);
  });
});
