// Action test runs through POST /v1/actions/run: the `$` context of an action run with registry-style
// actions (written for this test): http_request, data stores, $.flow.exit, $.respond and $.send.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { type SpoutProcess, startSpout } from '../helpers/service';

const HTTP_ACTION = `
export default {
  key: "spout_test-send-request",
  name: "Send request",
  version: "0.0.1",
  type: "action",
  props: { request: { type: "http_request", label: "Request" } },
  async run({ $ }) {
    const response = await this.request.execute();
    $.export("$summary", "Got " + response.status);
    $.export("context", { jit: $.context.JIT, hasDeadline: $.context.deadline > Date.now() });
    return response.data;
  },
};`;

const STORE_ACTION = `
export default {
  name: "Add to counter",
  version: "0.0.1",
  type: "action",
  props: { store: { type: "data_store" }, key: { type: "string" }, by: { type: "integer", default: 1, optional: true } },
  async run({ steps, $ }) {
    const before = (await this.store.get(this.key)) ?? 0;
    await this.store.set(this.key, before + this.by);
    $.export("$summary", this.key + " is now " + (before + this.by));
    return { before, after: before + this.by, trigger: steps.trigger?.event ?? null };
  },
};`;

const EXIT_ACTION = `
export default {
  name: "Stop early",
  version: "0.0.1",
  type: "action",
  props: { stop: { type: "boolean" } },
  async run({ $ }) {
    $.export("first", 1);
    if (this.stop) $.flow.exit("nothing to do");
    $.export("second", 2);
    return "went on";
  },
};`;

const RESPOND_AND_SEND = (receiverUrl: string) => `
export default {
  name: "Respond and send",
  version: "0.0.1",
  type: "action",
  props: {},
  async run({ $ }) {
    await $.respond({ status: 201, headers: { "x-step": "yes" }, body: { ok: true } });
    $.send.http({ method: "PUT", url: ${JSON.stringify(receiverUrl)}, data: { sent: "after the step" } });
    $.send.email({ subject: "Hi", text: "offline" });
    $.send.emit({ raw_event: { from: "step" } });
    console.log("sent everything");
    return "done";
  },
};`;

describe('actions', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  before(async () => {
    [spout, receiver] = await Promise.all([startSpout(), startReceiver()]);
  });
  after(async () => {
    await spout.stop();
    await receiver.close();
  });

  const run = (body: Record<string, unknown>) => spout.api('POST', '/v1/actions/run', body);

  it('runs an http_request action: exports, summary, return value and $.context', async () => {
    const res = await run({ component_code: HTTP_ACTION, configured_props: { request: { method: 'POST', url: receiver.url, body: { type: 'raw', raw: 'ping' } } } });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.json.error, null);
    assert.equal(res.json.exports.$summary, 'Got 200');
    assert.deepEqual(res.json.exports.context, { jit: true, hasDeadline: true });
    assert.equal(receiver.received.at(-1)!.body, 'ping');
    // Saved by the run: runs again by key.
    const again = await run({ id: 'spout_test-send-request', configured_props: { request: { url: receiver.url } } });
    assert.equal(again.json.exports.$summary, 'Got 200');
  });

  it('runs a data store action and passes `steps` through', async () => {
    const store = (await spout.api('POST', '/v1/data_stores', { name: 'counters' })).json.data.id;
    const props = { store: { dataStore: store }, key: 'visits', by: 5 };
    const first = await run({ component_code: STORE_ACTION, configured_props: props, steps: { trigger: { event: { id: 7 } } } });
    assert.deepEqual(first.json.ret, { before: 0, after: 5, trigger: { id: 7 } });
    const second = await run({ component_code: STORE_ACTION, configured_props: props });
    assert.equal(second.json.exports.$summary, 'visits is now 10');
    assert.equal((await spout.api('GET', `/v1/data_stores/${store}/records/visits`)).json.data.value, 10);
  });

  it('ends a step at a bare $.flow.exit call with the reason', async () => {
    const stopped = await run({ component_code: EXIT_ACTION, configured_props: { stop: true } });
    assert.deepEqual(stopped.json.exit, { reason: 'nothing to do' });
    assert.deepEqual(stopped.json.exports, { first: 1 });
    assert.equal(stopped.json.error, null);
    assert.equal(stopped.json.ret, null);
    const went = await run({ component_code: EXIT_ACTION, configured_props: { stop: false } });
    assert.deepEqual([went.json.exit, went.json.ret, went.json.exports.second], [null, 'went on', 2]);
  });

  it('records $.respond, performs $.send.http after the step, and keeps other sends in the outbox', async () => {
    const before = receiver.received.length;
    const res = await run({ component_code: RESPOND_AND_SEND(receiver.url) });
    assert.equal(res.json.error, null, JSON.stringify(res.json.error));
    assert.deepEqual(res.json.response, { status: 201, headers: { 'x-step': 'yes', 'content-type': 'application/json' }, body: '{"ok":true}' });
    assert.deepEqual(res.json.emitted, [{ from: 'step' }]);
    assert.deepEqual(
      res.json.os.map((o: { message: string }) => o.message),
      ['sent everything'],
    );
    assert.equal(receiver.received.length, before + 1);
    assert.equal(receiver.received.at(-1)!.body, '{"sent":"after the step"}');
    assert.deepEqual(
      res.json.sends.map((s: { kind: string; result?: unknown }) => [s.kind, s.result ?? null]),
      [
        ['http', { status: 200 }],
        ['email', null],
      ],
    );
    const outbox = (await spout.api('GET', '/v1/outbox')).json.data as Array<{ kind: string; run_id: string; config: { subject?: string } }>;
    assert.equal(outbox.find((s) => s.kind === 'email')!.config.subject, 'Hi');
    assert.equal(outbox[0]!.run_id, res.json.id);
  });

  it('reports a throwing action in the body, and bad requests with 4xx', async () => {
    const thrown = await run({ component_code: `export default { name: "Boom", version: "0.0.1", type: "action", props: {}, async run() { throw new Error("boom"); } };` });
    assert.equal(thrown.status, 200);
    assert.equal(thrown.json.error.message, 'boom');
    const missing = await run({ component_code: STORE_ACTION, configured_props: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(
      missing.json.errors.map((e: { path: string }) => e.path),
      ['configured_props.store', 'configured_props.key'],
    );
    const source = await spout.api('POST', '/v1/components', { component_code: `export default { name: "S", version: "0.0.1", props: {}, async run() {} };` });
    const notAction = await run({ id: source.json.data.id });
    assert.equal(notAction.status, 400);
    assert.match(notAction.json.error, /is a source; sources are deployed/);
    assert.equal((await run({ id: 'nope' })).status, 404);
    assert.equal((await run({})).status, 400);
  });
});
