// The sources list read with `expand=activity` (issue 47, point 5): each source's last event time and
// its recent error lines come with the list, so the UI refreshes its sources list in one request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deploySource, ECHO_SOURCE, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** A source (written for this test) whose run logs an error line, then emits. */
const FAILING = `export default { name: "Failing", version: "0.0.1", props: { http: "$.interface.http" },
  async run() { console.error("it broke"); this.$emit({ ok: false }); } };`;

describe('sources list with activity', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout();
  });
  after(async () => {
    await spout?.stop();
  });

  it("carries each source's last event and recent errors only when asked, and refuses an unknown expansion", async () => {
    const failing = await deploySource(spout, FAILING);
    const quiet = await deploySource(spout, ECHO_SOURCE);
    for (const _ of [1, 2]) await fetch(failing.endpoint, { method: 'POST', body: '{}' });
    const list = async () => (await spout.api('GET', '/v1/users/me/sources?expand=activity')).json.data as Array<{ id: string; activity?: { last_event_at: number | null; recent_errors: number } }>;
    const rows = await waitFor(
      async () => {
        const data = await list();
        return data.find((s) => s.id === failing.id)?.activity?.recent_errors === 2 ? data : null;
      },
      10_000,
      'both error lines in the list',
    );
    const newest = (await spout.api('GET', `/v1/sources/${failing.id}/event_summaries?limit=1`)).json.data[0];
    assert.equal(rows.find((s) => s.id === failing.id)?.activity?.last_event_at, newest.indexed_at_ms);
    assert.deepEqual(rows.find((s) => s.id === quiet.id)?.activity, { last_event_at: null, recent_errors: 0 });

    const plain = (await spout.api('GET', '/v1/users/me/sources')).json.data as Array<Record<string, unknown>>;
    assert.ok(plain.length === 2 && plain.every((s) => !('activity' in s)), 'without expand the list is as before');

    const bad = await spout.api('GET', '/v1/users/me/sources?expand=everything');
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.json), /expand/);
  });
});
