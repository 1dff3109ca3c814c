// Issue 12: a SIGKILL while requests stream into an endpoint loses no accepted event, and leaves
// no stored event undelivered (an event and its delivery messages are written side by side; a
// crash between the two is mended on the next start).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';
import { createWebhook, subscribe } from '../helpers/webhooks';

/** Each request's run emits this many events: large batches make the crash window wide. */
const PER_REQUEST = 40;

const BATCH_SOURCE = `export default {
  name: "Batch emitter", version: "0.1.0", props: { http: "$.interface.http" },
  async run(event) { for (let k = 0; k < ${PER_REQUEST}; k++) this.$emit({ i: event.body.i, k }); },
};`;

type Emitted = { i: number; k: number };
const key = (e: Emitted) => `${e.i}.${e.k}`;

/** Every stored event, as `i.k`, paging through event_summaries. */
async function storedKeys(spout: SpoutProcess, sourceId: string): Promise<Set<string>> {
  const keys = new Set<string>();
  let before = '';
  for (;;) {
    const res = await spout.api('GET', `/v1/sources/${sourceId}/event_summaries?limit=100&expand=event${before ? `&before=${before}` : ''}`);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    for (const e of res.json.data as Array<{ event: Emitted }>) keys.add(key(e.event));
    if (res.json.data.length < 100) return keys;
    before = res.json.page_info.end_cursor;
  }
}

describe('SIGKILL during ingest', () => {
  it('stores every accepted event and delivers every stored one, over several crashes', async () => {
    const dataDir = tempDir();
    const args = ['--retry-schedule', '0.2,0.2,0.2,0.2,0.2', '--event-retention', '100000'];
    const receiver = await startReceiver();
    let spout = await startSpout({ dataDir, args });
    const accepted = new Set<number>();
    let next = 0;
    try {
      const source = await deploySource(spout, BATCH_SOURCE);
      const hook = await createWebhook(spout, receiver.url);
      await subscribe(spout, source.id, hook.id);

      // Each start picks a new port; the endpoint keeps its path.
      const endpointPath = new URL(source.endpoint).pathname;
      for (let round = 0; round < 3; round++) {
        // Clients post as fast as they are answered; the service is killed while they do.
        const endpoint = spout.url + endpointPath;
        let running = true;
        const client = async () => {
          while (running) {
            const i = next++;
            try {
              const res = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i }) });
              if (res.status === 200) accepted.add(i);
              await res.arrayBuffer();
            } catch {
              // the service died under this request: not accepted
            }
          }
        };
        const clients = Array.from({ length: 12 }, client);
        try {
          const target = accepted.size + 20;
          await waitFor(() => accepted.size >= target, 20_000, 'requests accepted before the kill');
          await spout.kill();
        } finally {
          running = false;
          await Promise.all(clients);
        }
        spout = await startSpout({ dataDir, args });
      }

      const stored = await storedKeys(spout, source.id);
      for (const i of accepted) for (let k = 0; k < PER_REQUEST; k++) assert.ok(stored.has(key({ i, k })), `event ${k} of accepted request ${i} was stored`);
      const undeliveredNow = () => {
        const delivered = new Set(receiver.received.map((r) => key(JSON.parse(r.body) as Emitted)));
        return [...stored].filter((k) => !delivered.has(k));
      };
      await waitFor(() => undeliveredNow().length === 0, 30_000, 'every stored event delivered').catch(() => undefined);
      const undelivered = undeliveredNow();
      assert.deepEqual(undelivered, [], `${undelivered.length} of ${stored.size} stored events never reached the webhook`);
      assert.ok(accepted.size >= 60);
    } finally {
      await spout.stop();
      await receiver.close();
    }
  });
});
