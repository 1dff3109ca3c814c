// Issue 22: a data file is read line by line, each line on its own; what is damaged is reported
// with its line, set aside in `<file>.damaged`, and the file rewritten without it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { FileProblem } from '../../../runtime/lib/file-problems';
import { scanJsonLines, scanJsonLinesYielding } from '../../../runtime/lib/jsonl-scan';

const tmpFile = (text: string | Buffer) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-scan-')), 'data.jsonl');
  fs.writeFileSync(file, text);
  return file;
};

function scan(file: string, options: { repair?: boolean; maxLineBytes?: number; check?: (v: unknown) => string | null } = {}) {
  const records: unknown[] = [];
  const problems: FileProblem[] = [];
  const result = scanJsonLines(file, { repair: options.repair ?? true, maxLineBytes: options.maxLineBytes, check: options.check, onRecord: (v) => records.push(v), report: (p) => problems.push(p) });
  return { records, problems, result };
}

describe('scanJsonLines', () => {
  it('sets a line that is not JSON aside, naming its line, and keeps the rest', () => {
    const file = tmpFile('{"n":1}\ngarbage\n{"n":2}\n');
    const { records, problems } = scan(file);
    assert.deepEqual(records, [{ n: 1 }, { n: 2 }]);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.line, 2);
    assert.match(problems[0]!.message, /not JSON \("garbage"\); set aside in data\.jsonl\.damaged/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"n":1}\n{"n":2}\n');
    assert.equal(fs.readFileSync(`${file}.damaged`, 'utf8'), 'garbage\n');
    assert.deepEqual(scan(file).problems, [], 'the next read finds the file clean');
  });

  it('reports a cut last line instead of dropping it silently, and keeps a whole last record that lost its newline', () => {
    const cut = tmpFile('{"n":1}\n{"n":');
    const first = scan(cut);
    assert.deepEqual(first.records, [{ n: 1 }]);
    assert.match(first.problems[0]!.message, /cut short/);
    assert.equal(first.problems[0]!.line, 2);
    assert.equal(fs.readFileSync(cut, 'utf8'), '{"n":1}\n');
    const whole = tmpFile('{"n":1}\n{"n":2}');
    assert.deepEqual(scan(whole).records, [{ n: 1 }, { n: 2 }]);
    assert.equal(fs.readFileSync(whole, 'utf8'), '{"n":1}\n{"n":2}\n');
  });

  it('drops a block of NUL bytes and reads the records around and after it', () => {
    const file = tmpFile(Buffer.concat([Buffer.from('{"n":1}\n{"n":2}'), Buffer.alloc(4096), Buffer.from('{"n":3}\n{"n":4}\n'), Buffer.alloc(512)]));
    const { records, problems } = scan(file);
    assert.deepEqual(records, [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    assert.deepEqual(
      problems.map((p) => [p.line, /(\d+) NUL bytes/.exec(p.message)?.[1]]),
      [
        [2, '4096'],
        [4, '512'],
      ],
    );
    assert.equal(fs.readFileSync(file, 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n');
  });

  it('sets aside a line longer than the limit without reading it whole, and lines its check refuses', () => {
    const file = tmpFile(`{"n":1}\n"${'x'.repeat(3 * 1024 * 1024)}"\n{"n":2}\n{"m":3}\n`);
    const { records, problems } = scan(file, { maxLineBytes: 1024 * 1024, check: (v) => ((v as { n?: unknown }).n === undefined ? 'no n' : null) });
    assert.deepEqual(records, [{ n: 1 }, { n: 2 }]);
    assert.deepEqual(
      problems.map((p) => p.line),
      [2, 4],
    );
    assert.match(problems[0]!.message, /3\.0 MB long, over the 1\.0 MB a line of this file may hold/);
    assert.match(problems[1]!.message, /^no n; set aside/);
    assert.equal(fs.statSync(`${file}.damaged`).size, 3 * 1024 * 1024 + 3 + '{"m":3}\n'.length);
  });

  it('only reports, changing nothing, when not repairing', () => {
    const text = '{"n":1}\ngarbage\n{"n":';
    const file = tmpFile(text);
    const { records, problems } = scan(file, { repair: false });
    assert.deepEqual(records, [{ n: 1 }]);
    assert.equal(problems.length, 2);
    assert.ok(problems.every((p) => !p.message.includes('set aside')));
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    assert.equal(fs.existsSync(`${file}.damaged`), false);
  });
});

describe('scanJsonLinesYielding (issue 44: a big file read at start holds up requests by a chunk at most)', () => {
  it('gives the event loop turns while it reads a file of several chunks, and reads what the blocking scan reads', async () => {
    // About 4 MB: four chunks, with a damaged line and one running across chunk edges.
    const lines = Array.from({ length: 40_000 }, (_, n) => JSON.stringify({ n, pad: 'x'.repeat(90) }));
    lines.splice(20_000, 0, 'garbage');
    const text = `${lines.join('\n')}\n`;
    const blocking = scan(tmpFile(text));
    const file = tmpFile(text);
    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const seen: number[] = [];
    const records: unknown[] = [];
    const problems: FileProblem[] = [];
    const result = await scanJsonLinesYielding(file, {
      repair: true,
      onRecord: (v) => {
        records.push(v);
        seen.push(turns);
      },
      report: (p) => problems.push(p),
    });
    spinning = false;
    assert.ok((seen.at(-1) as number) > (seen[0] as number) + 2, `other work ran between the chunks (turns seen: first ${seen[0]}, last ${seen.at(-1)})`);
    assert.deepEqual(records, blocking.records);
    assert.deepEqual(result, blocking.result);
    assert.deepEqual(
      problems.map((p) => p.line),
      [20_001],
    );
    assert.equal(fs.readFileSync(file, 'utf8'), `${lines.filter((l) => l !== 'garbage').join('\n')}\n`, 'the damaged line is set aside as the blocking scan does');
  });
});
