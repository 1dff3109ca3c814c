// Issue 12: a run that emits 200 000 events has them all stored and handed to delivery (it used
// to overflow the stack and answer 500 with nothing stored).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startSpout, tempDir } from '../helpers/service';
import { createWebhook, messages, subscribe } from '../helpers/webhooks';

const COUNT = 200_000;

const FLOOD = `export default {
  name: "Flood", version: "0.1.0", props: { http: "$.interface.http" },
  async run(event) { const n = Number(event.query.n); for (let i = 0; i < n; i++) this.$emit({ i }, { summary: "event " + i }); },
};`;

describe('a run that emits 200 000 events', () => {
  it('stores every one and creates every delivery message', async () => {
    const args = ['--event-retention', String(COUNT)];
    const spout = await startSpout({ dataDir: tempDir(), args });
    try {
      const deployed = await spout.api('POST', '/v1/sources', { component_code: FLOOD });
      assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
      const sourceId = deployed.json.data.id as string;
      // A disabled webhook: its messages are recorded, not sent (200 000 requests would only slow the suite).
      const hook = await createWebhook(spout, 'http://127.0.0.1:9/never');
      assert.equal((await spout.api('PUT', `/v1/webhooks/${hook.id}`, { active: false })).status, 200);
      await subscribe(spout, sourceId, hook.id);

      const res = await fetch(`${deployed.json.data.configured_props.http.endpoint_url}?n=${COUNT}`, { method: 'POST' });
      assert.equal(res.status, 200, await res.text());

      const events = await spout.api('GET', `/v1/sources/${sourceId}/event_summaries?limit=1&expand=event`);
      assert.equal(events.json.page_info.total_count, COUNT);
      assert.deepEqual(events.json.data[0].event, { i: COUNT - 1 });
      // On disk too, as one line each.
      const lines = fs
        .readFileSync(path.join(spout.dataDir, 'events', `${sourceId}.jsonl`), 'utf8')
        .split('\n')
        .filter(Boolean);
      assert.equal(lines.length, COUNT);
      assert.equal((await messages(spout, hook.id)).total, COUNT);
    } finally {
      await spout.stop();
    }
  });
});
