// Issue 22: no damaged file can make a data dir unbootable. A garbage line, a line cut short, a
// block of NUL bytes and a truncated metadata.json each start, the start reports the file and the
// line, the damaged part is kept aside, and the good data is all there. `spout doctor` finds the
// same and mends it. Issue 42: no acknowledged change is lost to one damaged file (each state file
// is written twice, and a whole document followed by garbage is kept).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliEnv } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** A source (written for this test) that logs, emits and keeps a counter in this.db. */
const COUNTER = `export default {
  name: "Counter", version: "0.1.0", props: { http: "$.interface.http", db: "$.service.db" },
  async run(event) {
    const n = (this.db.get("n") ?? 0) + 1;
    this.db.set("n", n);
    console.log("run " + n);
    this.$emit({ n }, { summary: "run " + n });
  },
};`;

interface Built {
  dataDir: string;
  sourceId: string;
  webhookId: string;
}

/** A data dir with a source that ran three times, a webhook subscribed to it, and a data store record. */
async function buildDataDir(): Promise<Built> {
  const spout = await startSpout({ dataDir: tempDir() });
  try {
    const deployed = await spout.api('POST', '/v1/sources', { component_code: COUNTER, name: 'counter' });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
    const sourceId = deployed.json.data.id as string;
    const webhook = await spout.api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/never', name: 'never' });
    const webhookId = webhook.json.data.id as string;
    assert.equal((await spout.api('POST', '/v1/subscriptions', { emitter_id: sourceId, listener_id: webhookId })).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await fetch(deployed.json.data.configured_props.http.endpoint_url, { method: 'POST' })).status, 200);
    await waitFor(async () => (await spout.api('GET', `/v1/sources/${sourceId}/invocations?limit=1`)).json.page_info.total_count === 3, 10_000, 'three recorded runs');
    // The last change to metadata.json, which a recovery from its previous version would give up.
    assert.equal((await spout.api('PUT', `/v1/webhooks/${webhookId}`, { description: 'changed last' })).status, 200);
    return { dataDir: spout.dataDir, sourceId, webhookId };
  } finally {
    await spout.stop();
  }
}

/** Damages one file of each kind the way a crash, a disk or a careless hand does. */
function damage({ dataDir, sourceId }: Built): void {
  const file = (...parts: string[]) => path.join(dataDir, ...parts);
  fs.appendFileSync(file('events', `${sourceId}.jsonl`), 'garbage\n');
  const runs = fs.readFileSync(file('invocations', `${sourceId}.jsonl`), 'utf8');
  fs.appendFileSync(file('invocations', `${sourceId}.jsonl`), runs.split('\n')[0]!.slice(0, 40));
  const logs = fs.readFileSync(file('logs', `${sourceId}.jsonl`), 'utf8').split('\n');
  fs.writeFileSync(file('logs', `${sourceId}.jsonl`), Buffer.concat([Buffer.from(`${logs[0]}\n`), Buffer.alloc(4096), Buffer.from(logs.slice(1).join('\n'))]));
  fs.appendFileSync(file('deliveries.jsonl'), '{"t":"m","truncated\n');
  const metadata = fs.readFileSync(file('metadata.json'));
  fs.writeFileSync(file('metadata.json'), metadata.subarray(0, metadata.length / 2));
}

async function expectGoodData(spout: SpoutProcess, built: Built): Promise<void> {
  const events = await spout.api('GET', `/v1/sources/${built.sourceId}/event_summaries?expand=event`);
  assert.equal(events.status, 200, 'the source is there, restored from metadata.json.copy');
  assert.deepEqual(
    events.json.data.map((e: { event: unknown }) => e.event),
    [{ n: 3 }, { n: 2 }, { n: 1 }],
  );
  assert.equal((await spout.api('GET', `/v1/sources/${built.sourceId}/invocations`)).json.page_info.total_count, 3);
  const logs = (await spout.api('GET', `/v1/sources/${built.sourceId}/logs`)).json.data.map((l: { message: string }) => l.message);
  for (const n of [1, 2, 3]) assert.ok(logs.includes(`run ${n}`), `log line "run ${n}" kept`);
  const webhook = await spout.api('GET', `/v1/webhooks/${built.webhookId}`);
  assert.equal(webhook.status, 200);
  assert.equal(webhook.json.data.description, 'changed last', 'the last change is kept: the copy holds it');
  assert.equal((await spout.api('GET', `/v1/webhooks/${built.webhookId}/messages`)).json.data.length, 3, 'the delivery messages are kept');
  // this.db carries on from where it was.
  await fetch((await spout.api('GET', `/v1/sources/${built.sourceId}`)).json.data.configured_props.http.endpoint_url, { method: 'POST' });
  await waitFor(async () => (await spout.api('GET', `/v1/sources/${built.sourceId}/event_summaries?expand=event&limit=1`)).json.data[0]?.event.n === 4, 10_000, 'the fourth run');
}

describe('a start on a damaged data dir', () => {
  it('starts, reports each damaged file and line, keeps the damaged parts aside and the good data', async () => {
    const built = await buildDataDir();
    damage(built);
    const spout = await startSpout({ dataDir: built.dataDir });
    try {
      // A source's files are read after the start answers (on first use, or in the background): the summary ends the reading.
      const out = await waitFor(() => (/the start found \d+ damaged part/.test(spout.output()) ? spout.output() : null), 10_000, 'the summary of damaged parts');
      const id = built.sourceId;
      assert.match(out, new RegExp(`events/${id}\\.jsonl line 4: not JSON \\("garbage"\\); set aside in ${id}\\.jsonl\\.damaged`));
      assert.match(out, new RegExp(`invocations/${id}\\.jsonl line 4: cut short \\(the service stopped while writing it\\); set aside`));
      assert.match(out, new RegExp(`logs/${id}\\.jsonl line 2: 4096 NUL bytes`));
      assert.match(out, /deliveries\.jsonl line \d+: not JSON/);
      assert.match(out, /metadata\.json: damaged \(.*\); set aside as metadata\.json\.damaged and restored from its copy \(metadata\.json\.copy, the same version\): nothing is lost/);
      assert.match(out, /the start found 5 damaged part\(s\)/);
      assert.equal(fs.readFileSync(path.join(built.dataDir, 'events', `${id}.jsonl.damaged`), 'utf8'), 'garbage\n');
      assert.ok(fs.existsSync(path.join(built.dataDir, 'metadata.json.damaged')));
      await expectGoodData(spout, built);
    } finally {
      await spout.stop();
    }
    // Set aside once: the next start finds nothing to report.
    const again = await startSpout({ dataDir: built.dataDir });
    await again.stop();
    assert.doesNotMatch(again.output(), /damaged|set aside/);
  });

  it('spout doctor lists the same damage with file and line, and --repair mends it as a start would', async () => {
    const built = await buildDataDir();
    damage(built);
    const env = cliEnv(null, { SPOUT_DATA_DIR: built.dataDir });
    const check = await cli(['doctor'], env);
    assert.equal(check.code, 1, check.stdout + check.stderr);
    assert.match(check.stdout, new RegExp(`events/${built.sourceId}\\.jsonl line 4: not JSON`));
    assert.match(check.stdout, /metadata\.json: damaged .*its copy \(\.copy\) is good: --repair \(or the next start\) restores it, nothing is lost/);
    assert.match(check.stdout, /5 problem\(s\)/);
    const repair = await cli(['doctor', '--repair', '--json'], env);
    assert.equal(repair.code, 0, repair.stdout + repair.stderr);
    const repairs = repair.json<{ repairs: Array<{ file: string; message: string }> }>().repairs;
    assert.equal(repairs.length, 5);
    assert.match(repairs.find((r) => r.file.endsWith('metadata.json'))?.message ?? '', /restored from its copy \(metadata\.json\.copy, the same version\): nothing is lost/, 'the doctor says what it restored');
    assert.equal((await cli(['doctor'], env)).code, 0, 'nothing is left to mend');
    const spout = await startSpout({ dataDir: built.dataDir });
    try {
      assert.doesNotMatch(spout.output(), /damaged/);
      await expectGoodData(spout, built);
    } finally {
      await spout.stop();
    }
  });

  it('keeps every acknowledged change: a whole document followed by garbage, or a truncated file (metadata.json and a db file)', async () => {
    for (const how of ['garbage after the document', 'truncated'] as const) {
      const built = await buildDataDir();
      // The last change to metadata.json is a deploy: the version before it has no such source.
      let spout = await startSpout({ dataDir: built.dataDir });
      const last = await spout.api('POST', '/v1/sources', { component_code: COUNTER, name: 'deployed-last' });
      assert.equal(last.status, 200, JSON.stringify(last.json));
      await spout.stop();
      const files = [path.join(built.dataDir, 'metadata.json'), path.join(built.dataDir, 'db', `${built.sourceId}.json`)];
      for (const file of files) {
        const text = fs.readFileSync(file);
        fs.writeFileSync(file, how === 'truncated' ? text.subarray(0, Math.floor(text.length / 2)) : Buffer.concat([text, Buffer.from('\n{"garbage": tru\n')]));
      }
      const doctor = await cli(['doctor'], cliEnv(null, { SPOUT_DATA_DIR: built.dataDir }));
      const said = how === 'truncated' ? /its copy \(\.copy\) is good: --repair \(or the next start\) restores it, nothing is lost/ : /it starts with a whole document: --repair \(or the next start\) keeps it, nothing is lost/;
      for (const file of files) assert.match(doctor.stdout, new RegExp(`${path.basename(file).replace('.', '\\.')}: damaged .*${said.source}`), `${how}: ${doctor.stdout}`);
      spout = await startSpout({ dataDir: built.dataDir });
      try {
        const restored = how === 'truncated' ? /restored from its copy \(\S+\.copy, the same version\): nothing is lost/ : /kept the whole document it starts with and set the file aside as \S+\.damaged: nothing is lost/;
        for (const file of files) assert.match(spout.output(), new RegExp(`${path.basename(file).replace('.', '\\.')}: damaged .*${restored.source}`), `${how}: ${spout.output()}`);
        assert.equal((await spout.api('GET', `/v1/sources/${last.json.data.id}`)).status, 200, `${how}: the source deployed last is there`);
        assert.equal((await spout.api('GET', `/v1/webhooks/${built.webhookId}`)).json.data.description, 'changed last', how);
        // this.db kept its last value (3): the next run counts 4.
        await fetch((await spout.api('GET', `/v1/sources/${built.sourceId}`)).json.data.configured_props.http.endpoint_url, { method: 'POST' });
        await waitFor(async () => (await spout.api('GET', `/v1/sources/${built.sourceId}/event_summaries?expand=event&limit=1`)).json.data[0]?.event.n === 4, 10_000, `${how}: the fourth run`);
      } finally {
        await spout.stop();
      }
    }
  });
});
