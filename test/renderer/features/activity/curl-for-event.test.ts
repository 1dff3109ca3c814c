// "Copy as cURL" of an event without its request (a pruned run, or none recorded) says so instead of
// passing its data off as the request that was sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { curlForEvent } from '../../../../renderer/src/features/activity/curl';
import type { EventSummary } from '../../../../runtime/contract/source-api';

const event: EventSummary = {
  id: '1700000000000-0',
  indexed_at_ms: 1700000000000,
  event: { method: 'PUT', path: '/orders/7', body: { id: 7 } },
  invocation_id: 'inv_1',
  metadata: { emit_id: 'e1', id: 'x', name: null, summary: null, emitter_id: 'dc_1', ts: 1700000000000 },
};

describe('curlForEvent', () => {
  it('says a pruned run took the request with it, and what the command does instead', () => {
    const command = curlForEvent(event, 'http://127.0.0.1:7620/e/abc', true);
    const [why, what, curl] = command.split('\n');
    assert.match(why!, /^# The run that emitted event 1700000000000-0 is no longer kept/);
    assert.match(what!, /^# This posts the event's body as JSON to the endpoint; the method, path, query and headers of the original are not known\./);
    // No guessed path or method: only what is known is sent.
    assert.equal(curl, `curl -X POST 'http://127.0.0.1:7620/e/abc' -H 'content-type: application/json' --data-raw '{"id":7}'`);
  });
  it('says when no request was ever recorded', () => {
    assert.match(curlForEvent({ ...event, invocation_id: null, event: 'text' }, null).split('\n')[0]!, /has no recorded request/);
  });
});
