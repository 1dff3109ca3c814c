// Local workflows through the API: triggers (HTTP, source, manual), steps passing data along with
// references, $.respond answering the HTTP caller, $.send.emit making the workflow an emitter a
// webhook receives from, runs recorded and replayed, export and import.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** Three actions in registry shape (written for this test). */
const PARSE = `
export default {
  name: "Parse order", version: "0.0.1", type: "action",
  props: { order: { type: "object" } },
  async run({ $ }) {
    $.export("$summary", "order " + this.order.id);
    $.export("itemCount", this.order.items.length);
    return { id: this.order.id, total: this.order.items.reduce((sum, i) => sum + i.price, 0) };
  },
};`;

const FORMAT = `
export default {
  name: "Format text", version: "0.0.1", type: "action",
  props: { template: { type: "string" }, total: { type: "integer" } },
  async run() { return this.template + " (" + (this.total * 2) + " doubled)"; },
};`;

const REPLY = `
export default {
  name: "Reply and emit", version: "0.0.1", type: "action",
  props: { message: { type: "string" }, stopAt: { type: "integer", optional: true } },
  async run({ steps, $ }) {
    if (this.stopAt !== undefined && steps.parse.$return_value.total >= this.stopAt) return $.flow.exit("too big");
    await $.respond({ status: 201, body: { message: this.message, items: steps.parse.itemCount } });
    $.send.emit({ raw_event: { message: this.message } });
    return "replied";
  },
};`;

describe('workflows', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  let ids: { parse: string; format: string; reply: string };
  before(async () => {
    [spout, receiver] = await Promise.all([startSpout({ args: ['--retry-schedule', '0.2,0.2'] }), startReceiver()]);
    const save = async (code: string) => (await spout.api('POST', '/v1/components', { component_code: code })).json.data.id as string;
    ids = { parse: await save(PARSE), format: await save(FORMAT), reply: await save(REPLY) };
  });
  after(async () => {
    await spout.stop();
    await receiver.close();
  });

  const steps = (stopAt?: number) => [
    { name: 'parse', component_id: ids.parse, configured_props: { order: '{{steps.trigger.event.body}}' } },
    { name: 'format', component_id: ids.format, configured_props: { template: 'Order {{steps.parse.$return_value.id}} with {{steps.parse.itemCount}} items', total: '{{steps.parse.$return_value.total}}' } },
    { name: 'reply', component_id: ids.reply, configured_props: { message: '{{steps.format.$return_value}}', ...(stopAt ? { stopAt } : {}) } },
  ];
  const order = { id: 'A7', items: [{ price: 3 }, { price: 4 }] };

  it('runs an HTTP-triggered workflow whose steps pass data along, answers via $.respond, and emits to a subscribed webhook', async () => {
    const created = await spout.api('POST', '/v1/workflows', { name: 'Orders', trigger: { type: 'http', custom_response: true }, steps: steps() });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const wf = created.json.data;
    assert.match(wf.id, /^p_/);
    const hook = (await spout.api('POST', `/v1/webhooks?url=${encodeURIComponent(receiver.url)}&name=wf`)).json.data;
    const sub = await spout.api('POST', '/v1/subscriptions', { emitter_id: wf.id, listener_id: hook.id });
    assert.equal(sub.status, 200, JSON.stringify(sub.json));

    const res = await fetch(wf.trigger.endpoint_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order) });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { message: 'Order A7 with 2 items (14 doubled)', items: 2 });

    const delivered = await waitFor(() => receiver.received[0], 10_000, 'the emitted event at the webhook');
    assert.deepEqual(JSON.parse(delivered.body), { message: 'Order A7 with 2 items (14 doubled)' });
    const secret = (await spout.api('GET', `/v1/webhooks/${hook.id}/secret`)).json.data.signing_secret;
    new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>);

    const runs = (await spout.api('GET', `/v1/workflows/${wf.id}/runs`)).json.data;
    assert.equal(runs.length, 1);
    assert.equal(runs[0].status, 'success');
    assert.deepEqual(
      runs[0].steps.map((s: { name: string; exports: Record<string, unknown>; ret: unknown }) => [s.name, s.ret]),
      [
        ['parse', { id: 'A7', total: 7 }],
        ['format', 'Order A7 with 2 items (14 doubled)'],
        ['reply', 'replied'],
      ],
    );
    assert.equal(runs[0].steps[0].exports.$summary, 'order A7');

    // Replay: the same trigger event runs again, recorded as a replay.
    const replay = await spout.api('POST', `/v1/workflows/${wf.id}/runs/${runs[0].id}/replay`);
    assert.equal(replay.json.data.replay_of, runs[0].id);
    assert.deepEqual(replay.json.data.event, runs[0].event);
    assert.equal((await spout.api('GET', `/v1/workflows/${wf.id}/runs`)).json.data.length, 2);
  });

  it('stops at $.flow.exit and at a failing step, recording why', async () => {
    const wf = (await spout.api('POST', '/v1/workflows', { name: 'Guarded', trigger: { type: 'manual' }, steps: steps(5) })).json.data;
    const exited = (await spout.api('POST', `/v1/workflows/${wf.id}/run`, { event: { body: order } })).json.data;
    assert.equal(exited.status, 'exited');
    assert.deepEqual(exited.steps.at(-1).exit, { reason: 'too big' });
    const failed = (await spout.api('POST', `/v1/workflows/${wf.id}/run`, { event: { body: { id: 'B', items: null } } })).json.data;
    assert.equal(failed.status, 'error');
    assert.equal(failed.steps.length, 1);
    assert.match(failed.steps[0].error.message, /Cannot read properties of null/);
  });

  it('runs on each event of its source trigger, exports and imports its definition', async () => {
    const source = await deploySource(spout);
    const wf = (await spout.api('POST', '/v1/workflows', { name: 'From source', trigger: { type: 'source', source_id: source.id }, steps: [{ name: 'parse', component_id: ids.parse, configured_props: { order: '{{steps.trigger.event.body}}' } }] })).json.data;
    await fetch(source.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order) });
    const run = await waitFor(async () => (await spout.api('GET', `/v1/workflows/${wf.id}/runs`)).json.data[0], 10_000, 'a run from the source event');
    assert.deepEqual(run.steps[0].ret, { id: 'A7', total: 7 });

    const exported = (await spout.api('GET', `/v1/workflows/${wf.id}/export`)).json;
    assert.equal(exported.spout_workflow, 1);
    assert.match(exported.steps[0].component_code, /Parse order/);
    const imported = await spout.api('POST', '/v1/workflows/import', exported);
    assert.equal(imported.status, 200, JSON.stringify(imported.json));
    assert.notEqual(imported.json.data.id, wf.id);
    assert.equal(imported.json.data.steps[0].name, 'parse');

    assert.equal((await spout.api('DELETE', `/v1/workflows/${wf.id}`)).status, 204);
    assert.equal((await spout.api('GET', `/v1/workflows/${wf.id}`)).status, 404);
  });

  it('keeps secret step props sealed at rest and masked in every view, clear only inside the step', async () => {
    const secretAction = `export default { name: "Uses a token", version: "0.0.1", type: "action",
      props: { token: { type: "string", secret: true } },
      async run() { return this.token.length; } };`;
    const token = 'wf-secret-9d81c7aa';
    const created = await spout.api('POST', '/v1/workflows', { name: 'Secretive', trigger: { type: 'manual' }, steps: [{ name: 'use', component_code: secretAction, configured_props: { token } }] });
    const wf = created.json.data;
    assert.equal(wf.steps[0].configured_props.token, '********');
    assert.equal((await spout.api('GET', `/v1/workflows/${wf.id}`)).json.data.steps[0].configured_props.token, '********');
    assert.equal((await spout.api('GET', `/v1/workflows/${wf.id}/export`)).json.steps[0].configured_props.token, '********');
    const run = (await spout.api('POST', `/v1/workflows/${wf.id}/run`)).json.data;
    assert.equal(run.steps[0].ret, token.length);
    // Sending the mask back in an update keeps the stored value.
    await spout.api('PUT', `/v1/workflows/${wf.id}`, { steps: [{ name: 'use', component_id: wf.steps[0].component_id, configured_props: { token: '********' } }] });
    assert.equal((await spout.api('POST', `/v1/workflows/${wf.id}/run`)).json.data.steps[0].ret, token.length);
    const metadata = fs.readFileSync(path.join(spout.dataDir, 'metadata.json'), 'utf8');
    assert.ok(!metadata.includes(token), 'the secret is not stored in clear');
  });

  it('answers bad definitions with 400 naming the step or trigger', async () => {
    const dup = await spout.api('POST', '/v1/workflows', {
      steps: [
        { name: 'a', component_id: ids.parse },
        { name: 'a', component_id: ids.parse },
      ],
    });
    assert.equal(dup.status, 400);
    assert.equal(dup.json.errors[0].path, 'steps[1].name');
    const bad = await spout.api('POST', '/v1/workflows', { steps: [{ name: 'trigger', component_id: 'sc_nope' }] });
    assert.deepEqual(
      bad.json.errors.map((e: { path: string }) => e.path),
      ['steps[0].name', 'steps[0].component_id'],
    );
    const timer = await spout.api('POST', '/v1/workflows', { trigger: { type: 'timer', schedule: { intervalSeconds: 0 } } });
    assert.equal(timer.json.errors[0].path, 'trigger.schedule');
    const missing = await spout.api('POST', '/v1/workflows', { trigger: { type: 'source', source_id: 'dc_missing' } });
    assert.equal(missing.status, 400);
  });
});
