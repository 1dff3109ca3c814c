// Events, log lines and runs are kept in two generations of files (docs/storage.md). With a small
// retention the generations turn over every few requests: across SIGKILLs and restarts, a start
// reads both, keeps the whole retention, never gives an event twice, leaves no file of an
// interrupted rotation behind, and `spout doctor` finds the data dir clean.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliEnv } from '../helpers/cli';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

const PER_REQUEST = 10;
const EVENT_RETENTION = 50;
const RUN_RETENTION = 20;

const SOURCE = `export default {
  name: "Generations", version: "0.1.0", props: { http: "$.interface.http" },
  async run(event) {
    console.log("request " + event.body.i);
    for (let k = 0; k < ${PER_REQUEST}; k++) this.$emit({ i: event.body.i, k });
  },
};`;

const total = async (spout: SpoutProcess, sourceId: string, what: string) => (await spout.api('GET', `/v1/sources/${sourceId}/${what}?limit=1`)).json.page_info.total_count as number;

describe('retained logs in two generations', () => {
  it('keeps the whole retention across rotations, kills and restarts, with nothing twice and nothing left to mend', async () => {
    const dataDir = tempDir();
    const args = ['--event-retention', String(EVENT_RETENTION), '--invocation-retention', String(RUN_RETENTION)];
    let spout = await startSpout({ dataDir, args });
    let next = 0;
    let lastAccepted = -1;
    const source = await deploySource(spout, SOURCE);
    const endpointPath = new URL(source.endpoint).pathname;
    try {
      for (let round = 0; round < 3; round++) {
        const endpoint = spout.url + endpointPath;
        let running = true;
        let accepted = 0;
        const client = async () => {
          while (running) {
            const i = next++;
            try {
              const res = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i }) });
              await res.arrayBuffer();
              if (res.status === 200) {
                accepted++;
                lastAccepted = Math.max(lastAccepted, i);
              }
            } catch {
              // the service died under this request
            }
          }
        };
        const clients = Array.from({ length: 4 }, client);
        try {
          // Each request fills a fifth of the event retention: dozens of rotations a round.
          await waitFor(() => accepted >= 40, 20_000, 'requests accepted before the kill');
          await spout.kill();
        } finally {
          running = false;
          await Promise.all(clients);
        }
        spout = await startSpout({ dataDir, args });
      }

      const events = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=100&expand=event`)).json.data as Array<{ id: string; event: { i: number; k: number } }>;
      assert.ok(events.length >= EVENT_RETENTION, `a start keeps the whole retention from both generations (${events.length} events)`);
      assert.equal(new Set(events.map((e) => `${e.event.i}.${e.event.k}`)).size, events.length, 'no event is there twice');
      assert.equal(new Set(events.map((e) => e.id)).size, events.length);
      const newest = events
        .filter((e) => e.event.i === lastAccepted)
        .map((e) => e.event.k)
        .sort((a, b) => a - b);
      assert.deepEqual(
        newest,
        Array.from({ length: PER_REQUEST }, (_, k) => k),
        `the last accepted request's events are all kept`,
      );
      assert.ok((await total(spout, source.id, 'invocations')) >= RUN_RETENTION, 'runs: the whole retention');
      assert.ok((await total(spout, source.id, 'logs')) >= 1);

      // Log lines are kept 1000 a source: these requests never fill a generation of them.
      for (const folder of ['events', 'invocations', 'logs']) {
        const names = fs.readdirSync(path.join(dataDir, folder)).filter((n) => n.startsWith(source.id));
        assert.equal(names.includes(`${source.id}.previous.jsonl`), folder !== 'logs', `${folder}: ${names.join(', ')}`);
        assert.deepEqual(
          names.filter((n) => /rewritten|dropped|\.tmp$|damaged/.test(n)),
          [],
          `${folder}: nothing of an interrupted rotation is left`,
        );
      }
    } finally {
      await spout.stop();
    }
    const doctor = await cli(['doctor'], cliEnv(null, { SPOUT_DATA_DIR: dataDir }));
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  });
});
