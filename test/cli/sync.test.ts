// `spout sync` between two real services: A (this instance) and B (a profile saved with `spout
// login`). Plan, push, idempotence, updates keeping B's ids, conflicts, pull, deletions, secrets,
// and an apply that stops at its first failure and carries on when run again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** A source with an HTTP endpoint, a timer and a secret prop (written for this test). */
const SYNCED = `
export default {
  name: "Synced",
  key: "synced-source",
  version: "0.1.0",
  props: {
    http: { type: "$.interface.http" },
    timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } },
    token: { type: "string", secret: true, label: "Token" },
    greeting: { type: "string", label: "Greeting" },
  },
  async run(event) {
    if (event.method) this.$emit({ greeting: this.greeting, token_length: this.token.length, body: event.body }, { summary: "request" });
  },
};
`;

/** Deploys anywhere but refuses to activate on an instance other than the one named by its prop. */
const PICKY = `
export default {
  name: "Picky",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" }, home: { type: "string" } },
  hooks: {
    async activate() {
      if (!this.http.endpoint.startsWith(this.home)) throw new Error("this source only runs at " + this.home);
    },
  },
  async run() {},
};
`;

const STEP = `
export default {
  name: "Pass through",
  key: "sync-test-pass",
  version: "0.1.0",
  type: "action",
  props: { label: { type: "string" } },
  async run({ steps }) { return { label: this.label, event: steps.trigger.event }; },
};
`;

describe('spout sync between two instances', () => {
  let a: SpoutProcess;
  let b: SpoutProcess;
  let receiver: Receiver;
  let env: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  before(async () => {
    [a, b, receiver] = await Promise.all([startSpout({ apiKey: 'key-a' }), startSpout({ apiKey: 'key-b' }), startReceiver()]);
    env = cliEnv(a);
    await cliJson(['login', '-p', 'b', '--api-url', b.url, '--api-key', b.apiKey], env);
    const source = await a.api('POST', '/v1/sources', { component_code: SYNCED, configured_props: { token: 's3cret', greeting: 'hello', timer: { intervalSeconds: 600 } } });
    assert.equal(source.status, 200, JSON.stringify(source.json));
    ids.source = source.json.data.id;
    const hook = await a.api('POST', '/v1/webhooks', { url: receiver.url, name: 'receiver' });
    ids.webhook = hook.json.data.id;
    assert.equal((await a.api('POST', '/v1/subscriptions', { emitter_id: ids.source, listener_id: ids.webhook })).status, 200);
    const wf = await a.api('POST', '/v1/workflows', { name: 'On synced', trigger: { type: 'source', source_id: ids.source }, steps: [{ name: 'pass', component_code: STEP, configured_props: { label: 'from A' } }] });
    assert.equal(wf.status, 200, JSON.stringify(wf.json));
    ids.workflow = wf.json.data.id;
    const picky = await a.api('POST', '/v1/sources', { component_code: PICKY, configured_props: { home: a.url } });
    assert.equal(picky.status, 200, JSON.stringify(picky.json));
    ids.picky = picky.json.data.id;
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop(), receiver?.close()]);
  });

  it('plans every resource with diffs and the secrets to enter there', async () => {
    const plan = await cliJson(['sync', 'plan', '--to', 'b'], env);
    assert.equal(plan.direction, 'push');
    assert.deepEqual(plan.remote, { name: 'b', kind: 'spout', url: b.url });
    const byLabel = (label: string) => plan.items.find((i: any) => i.label === label);
    const source = byLabel('source "Synced"');
    assert.equal(source.action, 'create');
    assert.equal(source.local_id, ids.source);
    assert.deepEqual(source.secrets, ['token']);
    assert.match(source.diff, /\+configured_props\.greeting: "hello"/);
    assert.match(source.diff, /\+ +async run\(event\)/);
    assert.doesNotMatch(source.diff, /s3cret/);
    assert.equal(byLabel('webhook "receiver"').action, 'create');
    assert.equal(byLabel('workflow "On synced"').action, 'create');
    assert.ok(plan.items.some((i: any) => i.kind === 'subscription' && i.action === 'create'));
    assert.equal(plan.summary.conflict, 0);
    // Nothing was written by planning.
    assert.equal((await b.api('GET', '/v1/users/me/sources')).json.data.length, 0);
    // The readable plan names each item and its secret.
    const text = await cli(['sync', 'plan', '--to', 'b'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /\+ create +source "Synced"/);
    assert.match(text.stdout, /to enter there: token/);
  });

  it('stops at the first failure, saying what was done and what was not, and carries on when run again', async () => {
    const failed = await cli(['sync', 'push', '--to', 'b'], env, { timeoutMs: 60_000 });
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(failed.stderr, /stopped at create source "Picky": .*only runs at/);
    assert.match(failed.stderr, /Done \(\d+\): .*create source "Synced"/);
    assert.match(failed.stderr, /Not done \(\d+\): create source "Picky".*create webhook "receiver"/);
    assert.match(failed.stderr, /\[1\/\d+\] create .* done/);
    // What was done is linked: removing the cause and pushing again does only the rest.
    assert.equal((await a.api('DELETE', `/v1/sources/${ids.picky}`)).status, 204);
    const rest = await cliJson(['sync', 'push', '--to', 'b'], env, {});
    assert.equal(rest.ok, true, JSON.stringify(rest));
    assert.ok(!rest.done.some((i: any) => i.label === 'source "Synced"'), 'the source pushed before is not pushed twice');
    assert.ok(rest.done.some((i: any) => i.label === 'webhook "receiver"'));
    assert.equal((await b.api('GET', '/v1/users/me/sources')).json.data.length, 1);
  });

  it('pushed everything to B: ids mapped, the secret absent and the source waiting inactive', async () => {
    const [source] = (await b.api('GET', '/v1/users/me/sources')).json.data;
    ids.bSource = source.id;
    assert.notEqual(source.id, ids.source);
    assert.equal(source.active, false);
    assert.deepEqual(source.missing_props, ['token']);
    assert.equal(source.configured_props.greeting, 'hello');
    assert.deepEqual(source.configured_props.timer, { intervalSeconds: 600 });
    assert.equal(source.configured_props.token, undefined);
    assert.deepEqual((await b.api('GET', `/v1/sources/${source.id}/secrets`)).json.data.configured_props, {});
    const [hook] = (await b.api('GET', '/v1/users/me/webhooks')).json.data;
    ids.bWebhook = hook.id;
    assert.equal(hook.url, receiver.url);
    const subs = (await b.api('GET', '/v1/users/me/subscriptions')).json.data;
    assert.ok(subs.some((s: any) => s.emitter_id === source.id && s.listener_id === hook.id));
    const [wf] = (await b.api('GET', '/v1/users/me/workflows')).json.data;
    assert.deepEqual(wf.trigger, { type: 'source', source_id: source.id, event_name: null });
    assert.equal(wf.steps[0].configured_props.label, 'from A');
    const status = await cliJson(['sync', 'status', '--with', 'b'], env);
    assert.deepEqual(
      status.awaiting_secrets.map((w: any) => [w.remote_id, w.secrets]),
      [[source.id, ['token']]],
    );
  });

  it('sends secrets only with --with-secrets; then a request to B reaches the receiver through B’s webhook', async () => {
    const plan = await cliJson(['sync', 'plan', '--to', 'b', '--with-secrets'], env);
    const item = plan.items.find((i: any) => i.label === 'source "Synced"');
    assert.equal(item.action, 'update');
    assert.equal(item.remote_id, ids.bSource);
    assert.match(item.reason, /secret values to send/);
    const pushed = await cliJson(['sync', 'push', '--to', 'b', '--with-secrets'], env);
    assert.equal(pushed.ok, true, JSON.stringify(pushed));
    const source = (await b.api('GET', `/v1/sources/${ids.bSource}`)).json.data;
    assert.equal(source.active, true);
    assert.equal(source.configured_props.token, '********');
    assert.deepEqual((await b.api('GET', `/v1/sources/${ids.bSource}/secrets`)).json.data.configured_props, { token: 's3cret' });
    const res = await fetch(source.configured_props.http.endpoint_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hello: 'B' }) });
    assert.equal(res.status, 200);
    const got = await waitFor(() => receiver.received.find((r) => r.headers['x-spout-emitter-id'] === ids.bSource), 10_000, 'the event at the receiver');
    assert.deepEqual(JSON.parse(got.body), { greeting: 'hello', token_length: 6, body: { hello: 'B' } });
  });

  it('plans nothing on a second push', async () => {
    const plan = await cliJson(['sync', 'plan', '--to', 'b'], env);
    assert.deepEqual(plan.items, []);
    assert.ok(plan.summary.unchanged >= 4);
    const again = await cli(['sync', 'push', '--to', 'b'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Nothing to do/);
  });

  it('plans one update for an edit on A and keeps B’s ids', async () => {
    assert.equal((await a.api('PUT', `/v1/sources/${ids.source}`, { configured_props: { token: '********', greeting: 'changed', timer: { intervalSeconds: 600 } } })).status, 200);
    const plan = await cliJson(['sync', 'plan', '--to', 'b'], env);
    assert.deepEqual(
      plan.items.map((i: any) => [i.action, i.label, i.remote_id]),
      [['update', 'source "Synced"', ids.bSource]],
    );
    assert.match(plan.items[0].diff, /-configured_props\.greeting: "hello"\n\+configured_props\.greeting: "changed"/);
    const pushed = await cliJson(['sync', 'push', '--to', 'b'], env);
    assert.equal(pushed.ok, true);
    const source = (await b.api('GET', `/v1/sources/${ids.bSource}`)).json.data;
    assert.equal(source.configured_props.greeting, 'changed');
    // The secret set before is kept, and the source stays active.
    assert.equal(source.active, true);
    assert.equal((await b.api('GET', '/v1/users/me/sources')).json.data.length, 1);
  });

  it('reports an edit on B as a conflict on push, and pull brings it back', async () => {
    assert.equal((await b.api('PUT', `/v1/webhooks/${ids.bWebhook}`, { name: 'renamed on B' })).status, 200);
    const plan = await cliJson(['sync', 'plan', '--to', 'b'], env);
    assert.deepEqual(
      plan.items.map((i: any) => [i.action, i.kind]),
      [['conflict', 'webhook']],
    );
    assert.match(plan.items[0].reason, /changed on b since the last sync/);
    const refused = await cli(['sync', 'push', '--to', 'b'], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /1 conflict .*nothing was applied; pull first, or push --force/);

    const pullPlan = await cliJson(['sync', 'plan', '--from', 'b'], env);
    assert.deepEqual(
      pullPlan.items.map((i: any) => [i.action, i.kind, i.local_id]),
      [['update', 'webhook', ids.webhook]],
    );
    assert.match(pullPlan.items[0].diff, /-name: "receiver"\n\+name: "renamed on B"/);
    const pulled = await cliJson(['sync', 'pull', '--from', 'b'], env);
    assert.equal(pulled.ok, true);
    assert.equal((await a.api('GET', `/v1/webhooks/${ids.webhook}`)).json.data.name, 'renamed on B');
    assert.deepEqual((await cliJson(['sync', 'plan', '--to', 'b'], env)).items, []);
    assert.deepEqual((await cliJson(['sync', 'plan', '--from', 'b'], env)).items, []);
  });

  it('deletes on B only when the plan listed it and it was confirmed', async () => {
    assert.equal((await a.api('DELETE', `/v1/subscriptions?emitter_id=${ids.source}&listener_id=${ids.webhook}`)).status, 204);
    const plan = await cliJson(['sync', 'plan', '--to', 'b'], env);
    assert.deepEqual(
      plan.items.map((i: any) => [i.action, i.kind]),
      [['delete', 'subscription']],
    );
    const unconfirmed = await cli(['sync', 'push', '--to', 'b'], env);
    assert.equal(unconfirmed.code, 1);
    assert.match(unconfirmed.stderr, /the plan deletes subscription .* nothing was applied; confirm with --yes/);
    assert.equal((await b.api('GET', '/v1/users/me/subscriptions')).json.data.filter((s: any) => s.listener_id === ids.bWebhook).length, 1);
    const done = await cliJson(['sync', 'push', '--to', 'b', '--yes'], env);
    assert.equal(done.ok, true);
    assert.equal((await b.api('GET', '/v1/users/me/subscriptions')).json.data.filter((s: any) => s.listener_id === ids.bWebhook).length, 0);
  });

  it('answers bad usage with exit 2 and unknown profiles with how to make them', async () => {
    assert.equal((await cli(['sync', 'push'], env)).code, 2);
    const unknown = await cli(['sync', 'plan', '--to', 'nope'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no profile "nope".*spout login -p nope/);
    assert.equal((await cli(['sync', 'frobnicate', '--to', 'b'], env)).code, 2);
  });
});
