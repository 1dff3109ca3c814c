// The messages view's filters as the API takes them, and as the line the bulk retry asks with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeFilters, localSeconds, type MessageFilters, messageQuery, rangeProblem, retryStatus } from '../../../../renderer/src/features/webhooks/message-filters';

const NONE: MessageFilters = { status: '', source: '', eventId: '', channel: '', span: '', from: '', to: '' };
const name = (id: string) => (id === 'dc_1' ? 'orders' : id);

describe('webhook message filters', () => {
  it('gives the API every filter set, a span as seconds back from now', () => {
    assert.deepEqual(messageQuery(NONE, 10_000), {});
    assert.deepEqual(messageQuery({ ...NONE, status: 'failed', source: 'dc_1', eventId: ' evt ', channel: 'orders', span: '1h' }, 10_000), { status: 'failed', source: 'dc_1', event_id: 'evt', event_name: 'orders', since: 6400 });
  });

  it('reads a custom range as local 24-hour text, and names what it cannot read', () => {
    const f = { ...NONE, span: 'custom' as const, from: '2026-11-28 09:00', to: '2026-11-28 10:30' };
    assert.deepEqual(messageQuery(f, 0), { since: localSeconds('2026-11-28 09:00'), until: localSeconds('2026-11-28 10:30') });
    assert.equal(localSeconds('2026-11-28 10:30'), Math.floor(new Date(2026, 10, 28, 10, 30).getTime() / 1000));
    assert.equal(rangeProblem(f), null);
    assert.match(rangeProblem({ ...f, from: '9am' }) ?? '', /"9am" is not a time: write it as YYYY-MM-DD HH:MM/);
    assert.match(rangeProblem({ ...f, to: '2026-11-28 08:00' }) ?? '', /ends before it starts/);
    assert.deepEqual(messageQuery({ ...f, from: '9am' }, 0), {}, 'a range that cannot be read is left out');
  });

  it('retries failed messages, or failing ones when the list shows those, and never other statuses', () => {
    assert.equal(retryStatus(NONE), 'failed');
    assert.equal(retryStatus({ ...NONE, status: 'failed' }), 'failed');
    assert.equal(retryStatus({ ...NONE, status: 'failing' }), 'failing');
    assert.equal(retryStatus({ ...NONE, status: 'delivered' }), null);
    assert.equal(retryStatus({ ...NONE, status: 'paused' }), null);
  });

  it('says the filters in the stream filter words', () => {
    assert.equal(describeFilters({ ...NONE, source: 'dc_1', span: '1h' }, name, 'failed'), 'status:failed source:orders since 1h');
    assert.equal(describeFilters({ ...NONE, channel: 'x', span: 'custom', from: '2026-11-28 09:00' }, name), 'channel:x since 2026-11-28 09:00');
    assert.equal(describeFilters(NONE, name), '');
  });
});
