// Issue 22: whole-file state is written whole and synced, the version before kept; a damaged file
// is set aside and replaced by that version, saying so.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { FileProblem } from '../../../runtime/lib/file-problems';
import { readStateFile, writeStateFile } from '../../../runtime/lib/state-file';

const parse = (text: string) => {
  const value = JSON.parse(text) as { v?: unknown };
  if (typeof value.v !== 'number') throw new Error('no v');
  return value.v;
};

describe('state files', () => {
  it('keep the version before each write, and are private', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-state-')), 'sub', 'state.json');
    await writeStateFile(file, '{"v":1}');
    assert.equal(fs.existsSync(`${file}.prev`), false, 'nothing before the first version');
    await writeStateFile(file, '{"v":2}');
    await writeStateFile(file, '{"v":3}');
    assert.equal(fs.readFileSync(file, 'utf8'), '{"v":3}');
    assert.equal(fs.readFileSync(`${file}.prev`, 'utf8'), '{"v":2}');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
  });

  it('replace a damaged file by its previous version, keeping the damaged one and saying so', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-state-')), 'state.json');
    await writeStateFile(file, '{"v":1}');
    await writeStateFile(file, '{"v":2}');
    fs.writeFileSync(file, '{"v":');
    const problems: FileProblem[] = [];
    const read = readStateFile(file, parse, (p) => problems.push(p));
    assert.deepEqual([read.status, read.value], ['recovered', 1]);
    assert.match(problems[0]!.message, /damaged .*set aside as state\.json\.damaged and replaced by the version before it/);
    assert.equal(fs.readFileSync(`${file}.damaged`, 'utf8'), '{"v":');
    assert.equal(readStateFile(file, parse).value, 1, 'the good version is in place again');
  });

  it('say so when there is no good version left, setting both aside', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-state-')), 'state.json');
    fs.writeFileSync(file, '');
    fs.writeFileSync(`${file}.prev`, '{"w":1}');
    const problems: FileProblem[] = [];
    const read = readStateFile(file, parse, (p) => problems.push(p));
    assert.equal(read.status, 'lost');
    assert.match(problems[0]!.message, /damaged \(empty\).*the earlier version is damaged too \(no v; set aside as state\.json\.prev\.damaged\)/);
    assert.equal(readStateFile(file, parse).status, 'missing');
  });
});
