// The CLI's prompts: options chosen by number become the configured value; a withLabel prop's
// keep their labels, as the component reads them (issue 45).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Choice, pick } from '../../runtime/cli/support/prop-prompts';

const TABLES: Choice[] = [
  { label: 'Projects', value: 'tb_1' },
  { label: 'People', value: 'tb_2' },
];

describe('choosing options at a prompt', () => {
  it('gives a withLabel prop each chosen option with its label', () => {
    assert.deepEqual(pick(TABLES, '2', false, true), { label: 'People', value: 'tb_2' });
    assert.deepEqual(pick(TABLES, '2, 1', true, true), [
      { label: 'People', value: 'tb_2' },
      { label: 'Projects', value: 'tb_1' },
    ]);
  });

  it('gives other props the values, and nothing for an answer that is not a choice', () => {
    assert.equal(pick(TABLES, '1', false, false), 'tb_1');
    assert.deepEqual(pick(TABLES, '1,2', true, false), ['tb_1', 'tb_2']);
    assert.equal(pick(TABLES, '3', false, true), undefined);
    assert.equal(pick(TABLES, 'tb_1', false, true), undefined);
  });
});
