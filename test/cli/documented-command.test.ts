// The `spout` command as the README says to type it (issue 43): `./spout`, which Node runs directly,
// where `npx spout` had npm load the whole installed tree, twice, before every command.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string; bin: { spout: string } };

/** Text files of the folders users read commands from: the README, docs, the UI, the CLI's and service's messages. */
function documented(): string[] {
  const under = (dir: string) => (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => path.join(dir, f)).filter((f) => /\.(md|ts|tsx|mjs|js|json)$/.test(f));
  return ['README.md', ...under('docs'), ...under('renderer/src'), ...under('runtime'), ...under('main')];
}

describe('the documented spout command', () => {
  it('is ./spout, the package bin run by Node with no npm in between', () => {
    assert.equal(fs.realpathSync('spout'), path.resolve(pkg.bin.spout));
    const run = spawnSync('./spout', ['--version'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `spout ${pkg.version}\n`);
  });

  it('is the one every doc, snippet and message types (no `npx spout CMD` left)', () => {
    const slow = documented().flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        .filter(({ line }) => /\b(npx|npm exec)( --)? spout [a-z-]/.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    assert.deepEqual(slow, []);
    assert.match(fs.readFileSync('README.md', 'utf8'), /^\.\/spout list sources/m);
  });

  it('leaves `npx spout` working inside the clone (DESIGN section 4)', () => {
    const run = spawnSync('npx', ['spout', '--version'], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `spout ${pkg.version}\n`);
  });
});
