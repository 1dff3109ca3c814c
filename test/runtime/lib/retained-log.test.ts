import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { RetainedLogs } from '../../../runtime/lib/retained-log';

interface Rec {
  id: string;
  n: number;
}

const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'spout-retained-'));
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check());
};

describe('RetainedLogs', () => {
  it('keeps the newest records within the count, in memory and, once compacted, on disk', async () => {
    const dir = tmpDir();
    const trimmed: Rec[] = [];
    const logs = new RetainedLogs<Rec>(dir, { count: 10, bytes: 1e6 }, { onTrim: (_owner, gone) => trimmed.push(...gone) });
    for (let n = 0; n < 25; n++) logs.appendOpen('a', [{ id: `r${n}`, n }]) ?? (await logs.append('a', [{ id: `r${n}`, n }]));
    const kept = logs.list('a').map((r) => r.n);
    assert.ok(kept.length >= 10 && kept.length <= 11, `kept ${kept.length}`);
    assert.equal(kept.at(-1), 24);
    assert.deepEqual(
      [...trimmed.map((r) => r.n), ...kept],
      Array.from({ length: 25 }, (_, n) => n),
      'each record is either kept or trimmed, in order',
    );
    await waitFor(() => fs.readFileSync(path.join(dir, 'a.jsonl'), 'utf8').split('\n').length < 25);
    await logs.close();
    const reopened = new RetainedLogs<Rec>(dir, { count: 10, bytes: 1e6 });
    assert.deepEqual(
      (await reopened.open('a')).map((r) => r.n).slice(-10),
      Array.from({ length: 10 }, (_, n) => n + 15),
    );
    await reopened.close();
  });

  it('keeps what `keep` makes of a record and its line, compacts to `snapshot`, and makes the same on reopening', async () => {
    const dir = tmpDir();
    const options = { keep: (r: Rec, line: string | Buffer) => ({ id: r.id, line: String(line) }), snapshot: (_owner: string, kept: readonly { line: string }[]) => kept.map((k) => k.line) };
    const logs = new RetainedLogs<Rec, { id: string; line: string }>(dir, { count: 5, bytes: 1e6 }, options);
    const [first] = (await logs.append('a', [{ id: 'r0', n: 0 }])) as [{ id: string; line: string }];
    assert.deepEqual(first, { id: 'r0', line: '{"id":"r0","n":0}' });
    for (let n = 1; n < 20; n++) logs.appendOpen('a', [{ id: `r${n}`, n }]);
    const before = logs.list('a').slice(-5);
    await waitFor(() => fs.readFileSync(path.join(dir, 'a.jsonl'), 'utf8').trim().split('\n').length < 20);
    await logs.close();
    const text = fs.readFileSync(path.join(dir, 'a.jsonl'), 'utf8');
    assert.ok(text.endsWith(`${before.map((k) => k.line).join('\n')}\n`), 'the compacted file holds the kept lines as they were');
    const reopened = new RetainedLogs<Rec, { id: string; line: string }>(dir, { count: 5, bytes: 1e6 }, options);
    assert.deepEqual((await reopened.open('a')).slice(-5), before);
    await reopened.close();
  });

  it('keeps two generations of files, the older a whole retention, and lists owners from either', async () => {
    const dir = tmpDir();
    const logs = new RetainedLogs<Rec>(dir, { count: 4, bytes: 1e6 });
    for (let n = 0; n < 10; n++) await logs.append('a', [{ id: `r${n}`, n }]);
    await logs.append('b', [{ id: 'b0', n: 0 }]);
    await logs.close();
    const ns = (name: string) =>
      fs
        .readFileSync(path.join(dir, name), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).n);
    assert.deepEqual(
      [ns('a.previous.jsonl'), ns('a.jsonl')],
      [
        [4, 5, 6, 7],
        [8, 9],
      ],
    );
    // A crash between renaming a full file and starting the next leaves only the previous generation.
    fs.renameSync(path.join(dir, 'b.jsonl'), path.join(dir, 'b.previous.jsonl'));
    const reopened = new RetainedLogs<Rec>(dir, { count: 4, bytes: 1e6 });
    assert.deepEqual((await reopened.ownersOnDisk()).sort(), ['a', 'b']);
    assert.deepEqual(
      (await reopened.open('b')).map((r) => r.id),
      ['b0'],
    );
    await reopened.remove('a');
    await reopened.close();
    assert.deepEqual(fs.readdirSync(dir).sort(), ['b.jsonl', 'b.previous.jsonl']);
  });
});
