// `/tmp` inside a component host (issue 21): the shim reads `/tmp/…` as the host's own folder. It
// patches the process's `fs`, so it is tried in a child process of its own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { outsideTmpDir, tempDir } from '../../helpers/service';

const SHIM = path.resolve('runtime', 'sandbox', 'child', 'tmp-shim.ts');

describe('the /tmp shim', () => {
  it('maps /tmp paths, os.tmpdir() and the paths fs answers to the host’s folder, and leaves others alone', () => {
    const folder = tempDir('spout-shim-');
    const name = `spout-shim-${process.pid}-${Date.now()}`;
    const outside = outsideTmpDir('spout-shim-outside-');
    const outsideFile = path.join(outside, 'here.txt');
    fs.writeFileSync(outsideFile, 'here');
    const script = `
      import fs from "node:fs";
      import os from "node:os";
      import { writeFileSync } from "node:fs";
      import { installTmpShim, mapTmp } from ${JSON.stringify(SHIM)};
      installTmpShim();
      mapTmp(${JSON.stringify(folder)});
      writeFileSync("/tmp/${name}-a.txt", "a");
      fs.appendFileSync(os.tmpdir() + "/${name}-a.txt", "b");
      await fs.promises.writeFile(new URL("file:///tmp/${name}-b.txt"), "c");
      fs.renameSync("/tmp/${name}-b.txt", "/tmp/${name}-c.txt");
      const dir = fs.mkdtempSync("/tmp/${name}-d-");
      const real = fs.realpathSync("/tmp/${name}-a.txt");
      await new Promise((resolve) => fs.createWriteStream(dir + "/e.txt").end("e", resolve));
      const missing = (() => { try { fs.readFileSync("/tmp/${name}-missing"); } catch (err) { return { path: err.path, message: err.message }; } })();
      const missingAsync = await fs.promises.stat("/tmp/${name}-missing").catch((err) => err.path);
      console.log(JSON.stringify({
        missing, missingAsync,
        tmpdir: os.tmpdir(),
        a: fs.readFileSync("/tmp/${name}-a.txt", "utf8"),
        c: await fs.promises.readFile("/tmp/${name}-c.txt", "utf8"),
        dir, real,
        e: fs.readFileSync(dir + "/e.txt", "utf8"),
        exists: fs.existsSync("/tmp/${name}-a.txt"),
        here: fs.existsSync(${JSON.stringify(outsideFile)}),
      }));
    `;
    try {
      const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }));
      assert.equal(out.tmpdir, '/tmp');
      assert.equal(out.a, 'ab');
      assert.equal(out.c, 'c');
      assert.match(out.dir, new RegExp(`^/tmp/${name}-d-`), 'mkdtemp answers under /tmp');
      assert.equal(out.real, `/tmp/${name}-a.txt`, 'realpath answers under /tmp');
      assert.equal(out.e, 'e', 'streams open the mapped path');
      assert.ok(out.exists);
      assert.deepEqual(out.missing, { path: `/tmp/${name}-missing`, message: `ENOENT: no such file or directory, open '/tmp/${name}-missing'` }, 'errors name the path as the component gave it');
      assert.equal(out.missingAsync, `/tmp/${name}-missing`);
      assert.ok(out.here, 'paths outside /tmp are left alone');
      assert.deepEqual(
        fs
          .readdirSync(folder)
          .filter((f) => !f.includes('-d-'))
          .sort(),
        [`${name}-a.txt`, `${name}-c.txt`],
      );
      assert.ok(!fs.existsSync(`/tmp/${name}-a.txt`), 'the machine’s /tmp was not written');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
