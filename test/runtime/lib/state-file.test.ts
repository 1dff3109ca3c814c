// Issue 22: whole-file state is written whole and synced, the version before kept; a damaged file
// is set aside and replaced, saying so. Issue 42: each version is written twice (the file and its
// copy), so a damaged file loses no change; a whole document followed by garbage is kept.
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
    assert.equal(fs.readFileSync(`${file}.copy`, 'utf8'), '{"v":3}', 'the current version is in two files');
    assert.equal(fs.statSync(`${file}.copy`).mode & 0o777, 0o600);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
  });

  it('restore a truncated file from its copy: the last version, nothing lost', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-state-')), 'state.json');
    await writeStateFile(file, '{"v":1}');
    await writeStateFile(file, '{"v":2}');
    fs.writeFileSync(file, '{"v":');
    const problems: FileProblem[] = [];
    const read = readStateFile(file, parse, (p) => problems.push(p));
    assert.deepEqual([read.status, read.value], ['recovered', 2]);
    assert.match(problems[0]!.message, /damaged .*set aside as state\.json\.damaged and restored from its copy \(state\.json\.copy, the same version\): nothing is lost/);
    assert.equal(readStateFile(file, parse).value, 2, 'the last version is in place again');
  });

  it('keep a whole document followed by garbage, setting the file aside and saying so', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-state-')), 'state.json');
    await writeStateFile(file, '{"v":1}');
    await writeStateFile(file, '{"v":2, "s":"a } in a \\" string"}');
    fs.appendFileSync(file, '\n{"v": garbage');
    fs.rmSync(`${file}.copy`);
    const problems: FileProblem[] = [];
    const read = readStateFile(file, parse, (p) => problems.push(p));
    assert.deepEqual([read.status, read.value], ['recovered', 2]);
    assert.match(problems[0]!.message, /damaged \(14 bytes after the document that are not part of it\); kept the whole document it starts with and set the file aside as state\.json\.damaged: nothing is lost/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"v":2, "s":"a } in a \\" string"}');
    assert.equal(fs.readFileSync(`${file}.copy`, 'utf8'), fs.readFileSync(file, 'utf8'), 'the copy is written again');
  });

  it('replace a damaged file by its previous version when its copy is damaged too, saying so', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-state-')), 'state.json');
    await writeStateFile(file, '{"v":1}');
    await writeStateFile(file, '{"v":2}');
    fs.writeFileSync(file, '{"v":');
    fs.writeFileSync(`${file}.copy`, '');
    const problems: FileProblem[] = [];
    const read = readStateFile(file, parse, (p) => problems.push(p));
    assert.deepEqual([read.status, read.value], ['recovered', 1]);
    assert.match(problems[0]!.message, /damaged .* and its copy is damaged too \(empty\); set aside as state\.json\.damaged and replaced by the version before it/);
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
