// One workflow step run alone (`POST /v1/workflows/{id}/steps/{step}/test`): the chosen event,
// earlier steps' outputs given or taken from the last run, unsaved props, and no run recorded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';

/** Two actions in registry shape (written for this test). */
const PARSE = `
export default {
  name: "Parse amount", version: "0.0.1", type: "action",
  props: { order: { type: "object" } },
  async run({ $ }) {
    $.export("cents", this.order.amount * 100);
    return { id: this.order.id };
  },
};`;

const LABEL = `
export default {
  name: "Label amount", version: "0.0.1", type: "action",
  props: { text: { type: "string" } },
  async run({ $ }) {
    console.log("labelling", this.text);
    $.export("$summary", "labelled " + this.text);
    $.send.emit({ raw_event: { text: this.text } });
    return this.text.toUpperCase();
  },
};`;

describe('testing one workflow step', () => {
  let spout: SpoutProcess;
  let wf: { id: string };
  let labelId: string;
  before(async () => {
    spout = await startSpout();
    const save = async (code: string) => (await spout.api('POST', '/v1/components', { component_code: code })).json.data.id as string;
    const parseId = await save(PARSE);
    labelId = await save(LABEL);
    const steps = [
      { name: 'parse', component_id: parseId, configured_props: { order: '{{steps.trigger.event.body}}' } },
      { name: 'label', component_id: labelId, configured_props: { text: 'order {{steps.parse.$return_value.id}}: {{steps.parse.cents}}' } },
    ];
    wf = (await spout.api('POST', '/v1/workflows', { name: 'Amounts', trigger: { type: 'manual' }, steps })).json.data;
  });
  after(() => spout.stop());

  it('runs the first step against a chosen event, recording no workflow run', async () => {
    const res = await spout.api('POST', `/v1/workflows/${wf.id}/steps/parse/test`, { event: { body: { id: 'Q1', amount: 3 } } });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(res.json.data.ret, { id: 'Q1' });
    assert.equal(res.json.data.exports.cents, 300);
    assert.match(res.json.data.invocation_id, /./);
    assert.equal((await spout.api('GET', `/v1/workflows/${wf.id}/runs`)).json.data.length, 0);
  });

  it('takes earlier steps from the body, else from the last run, and tries unsaved props', async () => {
    const given = await spout.api('POST', `/v1/workflows/${wf.id}/steps/label/test`, { event: {}, steps: { parse: { $return_value: { id: 'G2' }, cents: 5 } } });
    assert.equal(given.json.data.ret, 'ORDER G2: 5');
    assert.equal(given.json.data.exports.$summary, 'labelled order G2: 5');
    assert.ok(given.json.data.logs.some((l: { msg?: string; message?: string }) => JSON.stringify(l).includes('labelling')));

    await spout.api('POST', `/v1/workflows/${wf.id}/run`, { event: { body: { id: 'R3', amount: 1 } } });
    const fromRun = await spout.api('POST', `/v1/workflows/${wf.id}/steps/label/test`, {});
    assert.equal(fromRun.json.data.ret, 'ORDER R3: 100');

    const edited = await spout.api('POST', `/v1/workflows/${wf.id}/steps/label/test`, { configured_props: { text: 'id={{steps.parse.$return_value.id}}' } });
    assert.equal(edited.json.data.ret, 'ID=R3');
    // The saved step is unchanged by a test.
    assert.match((await spout.api('GET', `/v1/workflows/${wf.id}`)).json.data.steps[1].configured_props.text, /^order /);
  });

  it('reports a failing step with its error, and refuses unknown steps, components and bad bodies', async () => {
    const failed = await spout.api('POST', `/v1/workflows/${wf.id}/steps/parse/test`, { event: { body: null } });
    assert.equal(failed.status, 200);
    assert.match(failed.json.data.error.message, /prop `order` is required/);

    const noStep = await spout.api('POST', `/v1/workflows/${wf.id}/steps/nope/test`, {});
    assert.equal(noStep.status, 404);
    assert.match(noStep.json.detail, /step nope/);
    assert.equal((await spout.api('POST', `/v1/workflows/${wf.id}/steps/parse/test`, { component_id: 'sc_missing' })).status, 404);
    const bad = await spout.api('POST', `/v1/workflows/${wf.id}/steps/parse/test`, { steps: 'parse' });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.json), /steps/);
    assert.equal((await spout.api('POST', '/v1/workflows/p_missing/steps/parse/test', {})).status, 404);
    assert.ok(labelId);
  });
});
