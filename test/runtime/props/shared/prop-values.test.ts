// Value rules every prop kind shares.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STATIC_VALUE_LIMIT, showValue, staticValueProblem } from '../../../../runtime/props/shared/prop-values';

describe('staticValueProblem', () => {
  it('measures the UTF-8 bytes of the JSON text against 64 KB', () => {
    assert.equal(STATIC_VALUE_LIMIT, 65536);
    // JSON adds two quote bytes to a string.
    assert.equal(staticValueProblem('x'.repeat(STATIC_VALUE_LIMIT - 2)), null);
    assert.match(staticValueProblem('x'.repeat(STATIC_VALUE_LIMIT - 1)) ?? '', /^is 65537 bytes as JSON text/);
    // "é" is one character but two UTF-8 bytes.
    assert.match(staticValueProblem('é'.repeat(STATIC_VALUE_LIMIT / 2)) ?? '', /^is 65538 bytes/);
    assert.match(staticValueProblem({ rows: Array.from({ length: 20000 }, (_, i) => i) }) ?? '', /shorten it or load the data at run time$/);
    assert.equal(staticValueProblem({ a: 1 }), null);
    assert.equal(staticValueProblem(undefined), null);
  });
});
describe('showValue', () => {
  it('shows a value as JSON, shortened past 60 characters', () => {
    assert.equal(showValue({ a: 1 }), '{"a":1}');
    assert.equal(showValue(undefined), 'undefined');
    assert.equal(showValue('x'.repeat(100)), `"${'x'.repeat(56)}...`);
  });
});
