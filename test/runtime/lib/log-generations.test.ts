import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { AppendLog } from '../../../runtime/lib/append-log';
import { droppedFile, ownerOfLogFile, previousFile, rewrittenFile } from '../../../runtime/lib/log-generations';
import { tempFiles } from '../../helpers/service';

const tmpFile = tempFiles('spout-generations-', 'dc_a.jsonl');
/** Generations that turn over only when `rotate` is called. */
const BY_HAND = { lines: Infinity, bytes: Infinity };
const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
const numbers = (records: { n: number }[]) => records.map((r) => r.n);

describe('log generations', () => {
  it('names the files of a log, and tells whose log a file is', () => {
    assert.equal(previousFile('/d/dc_a.jsonl'), '/d/dc_a.previous.jsonl');
    assert.equal(rewrittenFile('/d/dc_a.jsonl'), '/d/dc_a.rewritten.jsonl');
    assert.deepEqual(['dc_a.jsonl', 'dc_a.previous.jsonl', 'dc_a.rewritten.jsonl', 'dc_a.jsonl.damaged', 'dc_a.jsonl.tmp', 'dc_a.jsonl.dropped.tmp', '.jsonl'].map(ownerOfLogFile), ['dc_a', 'dc_a', 'dc_a', null, null, null, null]);
  });

  it('rotate makes the file the previous generation, queued lines included, and the next one replaces it', async () => {
    const file = tmpFile();
    const { log } = await AppendLog.open<{ n: number }>(file, { generations: BY_HAND });
    log.appendUnsynced(['{"n":0}', '{"n":1}']);
    const inode = fs.statSync(file).ino;
    log.rotate();
    assert.equal(fs.statSync(previousFile(file)).ino, inode, 'the file was renamed, not copied');
    assert.deepEqual(lines(previousFile(file)), ['{"n":0}', '{"n":1}'], 'lines queued before the rotation stay with its generation');
    assert.equal(log.lineCount, 0);
    await Promise.all([log.append({ n: 2 }), log.append({ n: 3 })]);
    assert.deepEqual(lines(file), ['{"n":2}', '{"n":3}']);
    log.rotate();
    await log.append({ n: 4 });
    await log.close();
    assert.deepEqual(lines(previousFile(file)), ['{"n":2}', '{"n":3}'], 'the oldest generation is gone');
    for (let i = 0; i < 100 && fs.existsSync(droppedFile(file)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(fs.existsSync(droppedFile(file)), false, 'the oldest generation is deleted in the background');
    const { log: again, records } = await AppendLog.open<{ n: number }>(file, { generations: BY_HAND });
    assert.deepEqual(numbers(records), [2, 3, 4], 'opening reads the previous generation first');
    assert.equal(again.lineCount, 1, 'lineCount is the newest file');
    await again.close();
  });

  it('synced appends on both sides of a rotation resolve once durable, in order', async () => {
    const file = tmpFile();
    const { log } = await AppendLog.open<{ n: number }>(file, { generations: BY_HAND });
    const appended: Promise<void>[] = [];
    for (let n = 0; n < 200; n++) {
      if (n > 0 && n % 50 === 0) log.rotate();
      appended.push(log.append({ n }));
      if (n % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(appended);
    await log.close();
    assert.deepEqual(
      numbers(
        lines(previousFile(file))
          .concat(lines(file))
          .map((l) => JSON.parse(l)),
      ),
      Array.from({ length: 100 }, (_, i) => i + 100),
    );
  });

  it('a rewrite replaces both generations; one a crash cut short is finished on open', async () => {
    const file = tmpFile();
    const { log } = await AppendLog.open<{ n: number }>(file, { generations: BY_HAND });
    await log.append({ n: 1 });
    log.rotate();
    await log.append({ n: 2 });
    await log.rewrite(() => ['{"n":2}']);
    await log.append({ n: 3 });
    await log.close();
    assert.equal(fs.existsSync(previousFile(file)), false);
    assert.deepEqual(lines(file), ['{"n":2}', '{"n":3}']);

    // A crash after the rewrite's content got its name, before it replaced the two generations;
    // and one before a dropped generation was deleted.
    fs.writeFileSync(previousFile(file), '{"n":0}\n');
    fs.writeFileSync(droppedFile(file), '{"n":-1}\n');
    fs.writeFileSync(rewrittenFile(file), '{"n":3}\n');
    const { log: again, records } = await AppendLog.open<{ n: number }>(file, { generations: BY_HAND });
    assert.deepEqual(numbers(records), [3], 'the rewritten content stands for both generations');
    assert.deepEqual(
      [previousFile(file), rewrittenFile(file), droppedFile(file)].filter((f) => fs.existsSync(f)),
      [],
    );
    await again.close();
  });
});
