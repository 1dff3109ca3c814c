// The bundled examples deploy and behave as their comments say.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout, waitFor } from './helpers/service';

describe('bundled examples', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  it('http-echo answers with respond() and emits the request', async () => {
    const code = fs.readFileSync('resources/examples/http-echo.mjs', 'utf8');
    const source = await deploySource(spout, code, { configured_props: { label: 'hook' } });
    const res = await fetch(`${source.endpoint}/orders?id=7`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
    assert.equal(res.status, 202);
    assert.deepEqual(await res.json(), { accepted: true, summary: 'hook: PUT /orders' });
    // respond() answers at once; the run's emits are stored when it ends.
    const events = await waitFor(
      async () => {
        const r = await spout.api('GET', `/v1/sources/${source.id}/event_summaries`);
        return r.json.data.length > 0 ? r : null;
      },
      5000,
      'the emitted event',
    );
    assert.deepEqual(events.json.data[0].event, { method: 'PUT', path: '/orders', query: { id: '7' }, body: { ok: true } });
    assert.equal(events.json.data[0].metadata.summary, 'hook: PUT /orders');
  });
});
