// What the Activity UI reads beside the invocation routes: one event by id (an emit of a run, a
// link, however old), an action test run's record readable by the id its answer gives, and each
// workflow step's record linked from the workflow run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout } from '../helpers/service';

/** Logs and returns a greeting. Written for this test. */
const ACTION = 'export default { name: "Greet", key: "greet", version: "0.1.0", type: "action", props: {}, async run({ steps }) { console.log("greeting"); return "hi " + (steps.trigger?.event?.who ?? "you"); } };\n';

describe('run links', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout();
  });
  after(async () => {
    await spout.stop();
  });

  it('reads one event by id, with its data in full, past the latest page; unknown ids are 404', async () => {
    const source = await deploySource(spout, 'export default { name: "Many", version: "0.1.0", props: {}, async run() { for (let i = 0; i < 120; i++) this.$emit({ i, pad: "x".repeat(2000) }, { summary: "n" + i }); } };');
    const ran = (await spout.api('POST', `/v1/sources/${source.id}/run`)).json.data as { invocation_id: string; emitted: string[] };
    const oldest = ran.emitted[0] as string;
    const latest = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=100`)).json.data as Array<{ id: string }>;
    assert.ok(!latest.some((e) => e.id === oldest), 'the first event is past the latest page');
    const read = await spout.api('GET', `/v1/sources/${source.id}/event_summaries/${oldest}`);
    assert.equal(read.status, 200);
    assert.equal(read.json.data.id, oldest);
    assert.equal(read.json.data.event.pad.length, 2000, 'the data in full, not a preview');
    assert.equal(read.json.data.invocation_id, ran.invocation_id);
    for (const bad of ['1-1', 'not-an-id', '9999999999999-0']) {
      const missing = await spout.api('GET', `/v1/sources/${source.id}/event_summaries/${bad}`);
      assert.equal(missing.status, 404, bad);
      assert.match(missing.json.detail, new RegExp(bad));
    }
    assert.equal((await spout.api('GET', `/v1/sources/dc_nope/event_summaries/${oldest}`)).status, 404);
  });

  it("records an action's test run before answering, and links each workflow step to its record", async () => {
    const run = (await spout.api('POST', '/v1/actions/run', { component_code: ACTION, component_filename: 'greet.mjs' })).json as { invocation_id: string };
    // Read at once: the record is there when the answer comes.
    const record = await spout.api('GET', `/v1/invocations/${run.invocation_id}`);
    assert.equal(record.status, 200);
    assert.equal(record.json.data.trigger, 'action');
    assert.deepEqual(
      record.json.data.logs.map((l: { message: string }) => l.message),
      ['greeting'],
    );

    const componentId = (await spout.api('POST', '/v1/components', { component_code: ACTION })).json.data.id as string;
    const wf = (await spout.api('POST', '/v1/workflows', { name: 'Greeter', trigger: { type: 'manual' }, steps: [{ name: 'greet', component_id: componentId }] })).json.data.id as string;
    const wfRun = (await spout.api('POST', `/v1/workflows/${wf}/run`, { event: { who: 'Ada' } })).json.data as { steps: Array<{ invocation_id: string | null }> };
    const stepRecord = (await spout.api('GET', `/v1/invocations/${wfRun.steps[0]!.invocation_id}`)).json.data;
    assert.equal(stepRecord.owner_id, componentId);
    assert.deepEqual(stepRecord.result.ret, 'hi Ada');
    // Kept with the run: the runs list gives the same link.
    const runs = (await spout.api('GET', `/v1/workflows/${wf}/runs`)).json.data as Array<{ steps: Array<{ invocation_id: string | null }> }>;
    assert.equal(runs[0]!.steps[0]!.invocation_id, stepRecord.id);
  });
});
