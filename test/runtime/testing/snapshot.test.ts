// matchSnapshot's file, keys and rules, called from a test file written into a temp folder (the
// snapshot file goes beside the file that called).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { SnapshotOwner } from '../../../runtime/testing/public-api';
import { tempFiles } from '../../helpers/service';

type Snap = (owner: SnapshotOwner, value: unknown, name?: string) => void;

const snapshotModule = pathToFileURL(path.resolve('runtime/testing/snapshot.ts')).href;
const newFile = tempFiles('spout-snapshot-', 'case.test.mjs');

/** A test file in a fresh folder calling matchSnapshot (through a helper file, as a user's helper would); `snap` is its call. */
async function testFile(snapshots?: Record<string, unknown>): Promise<{ snap: Snap; snapFile: string }> {
  const file = newFile();
  const helper = path.join(path.dirname(file), 'helper.mjs');
  fs.writeFileSync(helper, `import { matchSnapshot } from ${JSON.stringify(snapshotModule)};\nexport const check = (o, v, n) => matchSnapshot(o, v, n);\n`);
  fs.writeFileSync(file, `import { check } from './helper.mjs';\nexport const snap = (o, v, n) => check(o, v, n);\n`);
  const snapFile = `${file}.snap.json`;
  if (snapshots) fs.writeFileSync(snapFile, JSON.stringify(snapshots));
  const { snap } = (await import(pathToFileURL(file).href)) as { snap: Snap };
  return { snap, snapFile };
}

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('matchSnapshot', () => {
  const env = { ...process.env };
  afterEach(() => {
    for (const name of ['CI', 'SPOUT_UPDATE_SNAPSHOTS']) {
      if (env[name] === undefined) delete process.env[name];
      else process.env[name] = env[name];
    }
  });

  it('writes missing snapshots beside the test file: keys by test name and call, sorted, pretty, with a trailing newline', async () => {
    delete process.env.CI;
    const { snap, snapFile } = await testFile();
    snap({ name: 'emits' }, { z: 1, a: [true, null] });
    snap({ name: 'emits' }, 'second');
    snap({ task: { name: 'vitest' } }, 3, 'count');
    snap('by text', null);
    const text = fs.readFileSync(snapFile, 'utf8');
    assert.deepEqual(Object.keys(JSON.parse(text)), ['by text #1', 'emits #1', 'emits #2', 'vitest: count #1']);
    assert.equal(text, `${JSON.stringify(read(snapFile), null, 2)}\n`);
    assert.match(text, /"a": \[\n {6}true,\n {6}null\n {4}\],\n {4}"z": 1/);
  });

  it('passes on the same content in another key order, and fails on a change with a diff', async () => {
    const { snap } = await testFile({ 'same #1': { a: 1, b: 2 }, 'changed #1': { id: 1, summary: 'old' } });
    snap({ name: 'same' }, { b: 2, a: 1 });
    assert.throws(
      () => snap({ name: 'changed' }, { id: 1, summary: 'new' }),
      (err: Error) => {
        assert.equal(err.name, 'AssertionError');
        assert.match(err.message, /snapshot "changed #1" in case\.test\.mjs\.snap\.json does not match/);
        assert.match(err.message, /^- {2}"summary": "old"$/m);
        assert.match(err.message, /^\+ {2}"summary": "new"$/m);
        assert.match(err.message, /spout test --update-snapshots/);
        return true;
      },
    );
  });

  it('under CI fails on a missing snapshot, writing nothing', async () => {
    process.env.CI = 'true';
    const { snap, snapFile } = await testFile();
    assert.throws(() => snap({ name: 'new' }, 1), /no snapshot "new #1" in case\.test\.mjs\.snap\.json, and none is written under CI: run "spout test --update-snapshots"/);
    assert.equal(fs.existsSync(snapFile), false);
  });

  it('with SPOUT_UPDATE_SNAPSHOTS=1 rewrites what differs, writes what is missing even under CI, and leaves obsolete entries', async () => {
    process.env.CI = 'true';
    process.env.SPOUT_UPDATE_SNAPSHOTS = '1';
    const { snap, snapFile } = await testFile({ 'changed #1': 'old', 'gone #1': 'kept' });
    snap({ name: 'changed' }, 'new');
    snap({ name: 'added' }, 'added');
    assert.deepEqual(read(snapFile), { 'added #1': 'added', 'changed #1': 'new', 'gone #1': 'kept' });
  });

  it('names the fix for a value with no JSON form and for a damaged file', async () => {
    delete process.env.CI;
    const { snap } = await testFile();
    assert.throws(() => snap('t', undefined), /a value of type undefined has no JSON form/);
    const damaged = await testFile();
    fs.writeFileSync(damaged.snapFile, '{');
    assert.throws(() => damaged.snap('t', 1), /case\.test\.mjs\.snap\.json is not JSON .*delete it and run "spout test --update-snapshots"/);
  });
});
