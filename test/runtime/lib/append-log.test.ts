import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { AppendLog } from '../../../runtime/lib/append-log';
import { tempFiles } from '../../helpers/service';

const tmpFile = tempFiles('spout-log-', 'log.jsonl');

describe('AppendLog', () => {
  it('reads back what was appended, in order, across many concurrent appends', async () => {
    const file = tmpFile();
    const { log } = await AppendLog.open<{ n: number }>(file);
    await Promise.all(Array.from({ length: 500 }, (_, n) => log.append({ n })));
    await log.close();
    const { records } = await AppendLog.open<{ n: number }>(file);
    assert.deepEqual(
      records.map((r) => r.n),
      Array.from({ length: 500 }, (_, n) => n),
    );
  });

  it('drops a torn last line left by a crash and appends cleanly after it', async () => {
    const file = tmpFile();
    fs.writeFileSync(file, '{"n":1}\n{"n":2}\n{"n":');
    const { log, records } = await AppendLog.open<{ n: number }>(file);
    assert.deepEqual(records, [{ n: 1 }, { n: 2 }]);
    await log.append({ n: 3 });
    await log.close();
    assert.equal(fs.readFileSync(file, 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('with unsyncedWithinMs, holds unsynced lines back until the delay, a synced append or close', async () => {
    const read = (file: string) => fs.readFileSync(file, 'utf8');
    const held = tmpFile();
    const { log } = await AppendLog.open<{ n: number }>(held, { unsyncedWithinMs: 60_000 });
    log.appendUnsynced(['{"n":1}', '{"n":2}']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(read(held), '', 'not written at the next turn');
    await log.append({ n: 3 });
    assert.equal(read(held), '{"n":1}\n{"n":2}\n{"n":3}\n', 'a synced append writes what waited first');
    log.appendUnsynced(['{"n":4}']);
    await log.close();
    assert.equal(read(held), '{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n', 'close writes what waited');

    const timed = tmpFile();
    const { log: soon } = await AppendLog.open<{ n: number }>(timed, { unsyncedWithinMs: 10 });
    soon.appendUnsynced(['{"n":1}']);
    for (let waited = 0; read(timed) === '' && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(read(timed), '{"n":1}\n', 'written once the delay is up');
    await soon.close();
  });

  it('compacts to a snapshot; appends made meanwhile land after it, once each', async () => {
    const file = tmpFile();
    const { log } = await AppendLog.open<{ n: number }>(file);
    const state: number[] = [];
    const add = (n: number) => {
      state.push(n);
      return log.append({ n });
    };
    await Promise.all([1, 2, 3, 4].map(add));
    const pending = [add(5)]; // queued, not yet written: the snapshot covers it
    let duringSwap: Promise<void> | null = null;
    const compaction = log.rewrite(() => {
      const lines = state.slice(-2).map((n) => JSON.stringify({ n }));
      duringSwap = add(6); // made after the snapshot: lands after the new content
      return lines;
    });
    await Promise.all([compaction, ...pending]);
    await duringSwap;
    await log.close();
    const { records } = await AppendLog.open<{ n: number }>(file);
    assert.deepEqual(
      records.map((r) => r.n),
      [4, 5, 6],
    );
  });
});

describe('AppendLog under a steady stream of appends', () => {
  it('finishes a compaction while appends keep coming', async () => {
    const file = tmpFile();
    const { log } = await AppendLog.open<{ n: number }>(file);
    let done = false;
    const state: number[] = [];
    const producer = (async () => {
      for (let n = 0; !done; n++) {
        state.push(n);
        await log.append({ n });
      }
    })();
    await new Promise((r) => setTimeout(r, 20));
    await log.rewrite(() => state.slice(-5).map((n) => JSON.stringify({ n })));
    done = true;
    await producer;
    await log.close();
    const { records } = await AppendLog.open<{ n: number }>(file);
    const ns = records.map((r) => r.n);
    assert.deepEqual(
      ns,
      [...ns].sort((a, b) => a - b),
      'in order',
    );
    assert.equal(new Set(ns).size, ns.length, 'no duplicates');
    assert.equal(ns[ns.length - 1], state[state.length - 1]);
  });
});
