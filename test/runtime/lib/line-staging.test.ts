import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineStaging } from '../../../runtime/lib/line-staging';

describe('LineStaging', () => {
  it('gathers lines as UTF-8, each with its newline, and answers their sizes', () => {
    const staging = new LineStaging();
    const lines = ['{"a":1}', 'ünïcødé ✓ 𝄞', ''];
    const sizes = lines.map((l) => staging.add(l));
    assert.deepEqual(
      sizes,
      lines.map((l) => Buffer.byteLength(l) + 1),
    );
    assert.equal(staging.view().toString('utf8'), lines.map((l) => `${l}\n`).join(''));
    staging.clear();
    assert.equal(staging.view().length, 0);
  });

  it('grows for long lines (measured ones included) and keeps what it held', () => {
    const staging = new LineStaging();
    const small = 'x'.repeat(1000);
    const long = '€'.repeat(100_000); // over the length encoded unmeasured; 3 bytes each
    staging.add(small);
    assert.equal(staging.add(long), 300_001);
    staging.addBytes(Buffer.from('raw\n'));
    assert.equal(staging.view().toString('utf8'), `${small}\n${long}\nraw\n`);
    staging.clear();
    staging.add('after');
    assert.equal(staging.view().toString('utf8'), 'after\n');
  });

  it('gives the bytes of the line just added, without its newline', () => {
    const staging = new LineStaging();
    staging.add('first');
    for (const line of ['ünïcødé ✓', '€'.repeat(30_000), '']) assert.equal(staging.last(staging.add(line)).toString('utf8'), line);
  });
});
