import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineArena, type LineSpan } from '../../../runtime/lib/line-arena';

describe('LineArena', () => {
  it('gives back each line as appended, strings and bytes, across buffer boundaries and multi-byte characters', () => {
    const arena = new LineArena();
    const lines: Array<[string, LineSpan]> = [];
    for (let i = 0; i < 3000; i++) {
      // About 1 KB each, some far longer than a buffer, with characters of 2 to 4 bytes.
      const text = `{"i":${i},"s":"${'é€😀x'.repeat(i % 97 === 0 ? 300_000 : (i % 7) * 60)}"}`;
      lines.push([text, arena.append(i % 2 ? text : Buffer.from(text, 'utf8'))]);
    }
    for (const [text, span] of lines) assert.equal(arena.read(span), text);
  });

  it('frees buffers before a released position and still reads what comes after', () => {
    const arena = new LineArena();
    const spans = Array.from({ length: 5000 }, (_, i) => arena.append(`line ${i} ${'x'.repeat(1000)}`));
    arena.releaseThrough(spans[2999] as LineSpan);
    for (let i = 3000; i < 5000; i++) assert.equal(arena.read(spans[i] as LineSpan), `line ${i} ${'x'.repeat(1000)}`);
    assert.ok((arena as unknown as { slabs: Buffer[] }).slabs.length <= 3, 'the buffers before the cut are gone');
    assert.equal(Buffer.concat(arena.bytesFrom(spans[3000] as LineSpan)).toString(), Array.from({ length: 2000 }, (_, i) => `line ${i + 3000} ${'x'.repeat(1000)}\n`).join(''), 'the bytes from a line on are the lines of a file');
  });
});
