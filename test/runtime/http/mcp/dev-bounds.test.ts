// Dev tools' answers are bounded: long strings and lists cut where they are, a huge result cut
// whole, and `_cut` naming each cut.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedResult, RESULT_LIMIT } from '../../../../runtime/http/mcp/dev/dev-bounds';

describe('boundedResult', () => {
  it('keeps a small result as it is, with no note', () => {
    const result = boundedResult({ run: { logs: ['a', 'b'] } }, 'ok');
    assert.deepEqual(result.structuredContent, { run: { logs: ['a', 'b'] } });
    assert.equal(result.content[0]?.type === 'text' && result.content[0].text, 'ok');
  });

  it('cuts a long string and a long list where they are, and says so', () => {
    const logs = Array.from({ length: 120 }, (_, i) => `line ${i}`);
    const result = boundedResult({ run: { logs, body: 'x'.repeat(10_000) } });
    const kept = result.structuredContent as { run: { logs: string[]; body: string }; _cut: string };
    assert.equal(kept.run.logs.length, 50);
    assert.ok(kept.run.body.length < 5000);
    assert.match(kept.run.body, /\[cut: 10000 bytes/);
    assert.match(kept._cut, /run\.logs \(120 items; the first 50 kept\)/);
    assert.match(kept._cut, /run\.body \(a string of 10000 characters\)/);
  });

  it('cuts a result still too large whole, as partial JSON text', () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'y'.repeat(3000)]));
    const result = boundedResult(many);
    const kept = result.structuredContent as { partial_json: string; _cut: string };
    assert.equal(kept.partial_json.length, RESULT_LIMIT);
    assert.match(kept._cut, /the whole result/);
  });
});
