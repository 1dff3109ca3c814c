import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { paginate } from '../../../runtime/lib/pagination';

describe('paginate', () => {
  const items = ['e', 'd', 'c', 'b', 'a'].map((id) => ({ id }));
  const ids = (p: { data: Array<{ id: string }> }) => p.data.map((x) => x.id);
  it('pages newest first with before/after cursors', () => {
    const first = paginate(items, { limit: 2 }, (x) => x);
    assert.deepEqual(ids(first), ['e', 'd']);
    assert.deepEqual(first.page_info, { total_count: 5, count: 2, start_cursor: 'e', end_cursor: 'd' });
    assert.deepEqual(ids(paginate(items, { limit: 2, before: 'd' }, (x) => x)), ['c', 'b']);
    assert.deepEqual(ids(paginate(items, { limit: 2, after: 'b' }, (x) => x)), ['d', 'c']);
    assert.deepEqual(ids(paginate(items, { limit: 10, before: 'a' }, (x) => x)), []);
  });
});
