// Pipedream as a sync target, against a local stand-in of its REST API written from its public
// docs (test/helpers/pipedream.ts): no test can reach Pipedream itself. What Pipedream's API
// cannot hold is listed in the plan, never dropped silently.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type FakePipedream, startFakePipedream } from '../helpers/pipedream';
import { type SpoutProcess, startSpout } from '../helpers/service';

const SOURCE = `
export default {
  name: "To Pipedream",
  key: "to-pipedream",
  version: "0.1.0",
  props: {
    http: { type: "$.interface.http" },
    timer: { type: "$.interface.timer", default: { intervalSeconds: 900 } },
    apiKey: { type: "string", secret: true },
    channel: { type: "string" },
  },
  async run(event) { this.$emit(event); },
};
`;

const ACTION = `
export default { name: "Noop", key: "pd-test-noop", version: "0.1.0", type: "action", props: {}, async run() { return 1; } };
`;

describe('sync to Pipedream (a local stand-in of its REST API)', () => {
  let a: SpoutProcess;
  let pd: FakePipedream;
  let env: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  before(async () => {
    [a, pd] = await Promise.all([startSpout({ apiKey: 'key-a' }), startFakePipedream({ requireOrg: true, orgId: 'o_team1' })]);
    env = cliEnv(a);
    const source = await a.api('POST', '/v1/sources', { component_code: SOURCE, configured_props: { apiKey: 'pd-secret', channel: 'general', timer: { intervalSeconds: 300 } }, timeout_seconds: 30 });
    assert.equal(source.status, 200, JSON.stringify(source.json));
    ids.source = source.json.data.id;
    ids.webhook = (await a.api('POST', '/v1/webhooks', { url: 'https://example.com/hook', name: 'hook', retry_schedule: [1, 2] })).json.data.id;
    await a.api('POST', '/v1/subscriptions', { emitter_id: ids.source, listener_id: ids.webhook });
    ids.store = (await a.api('POST', '/v1/data_stores', { name: 'store' })).json.data.id;
    await a.api('POST', '/v1/accounts', { app: 'github', name: 'me', credentials: { token: 'gh' } });
    const wf = await a.api('POST', '/v1/workflows', { name: 'Flow', trigger: { type: 'manual' }, steps: [{ name: 'noop', component_code: ACTION }] });
    assert.equal(wf.status, 200, JSON.stringify(wf.json));
  });
  after(async () => {
    await Promise.all([a?.stop(), pd?.close()]);
  });

  it('logs in with a Pipedream key and workspace, checked with GET /v1/users/me', async () => {
    const wrongKey = await cli(['login', '-p', 'pd', '--pipedream', '--api-url', pd.url, '--api-key', 'nope', '--org-id', 'o_team1'], env);
    assert.equal(wrongKey.code, 1);
    assert.match(wrongKey.stderr, /refused the API key/);
    const wrongOrg = await cli(['login', '-p', 'pd', '--pipedream', '--api-url', pd.url, '--api-key', pd.apiKey, '--org-id', 'o_other'], env);
    assert.equal(wrongOrg.code, 1);
    assert.match(wrongOrg.stderr, /workspace o_other is not one of tester's: o_team1 \(team\)/);
    const saved = await cliJson(['login', '-p', 'pd', '--pipedream', '--api-url', pd.url, '--api-key', pd.apiKey, '--org-id', 'o_team1'], env);
    assert.equal(saved.kind, 'pipedream');
    assert.equal(saved.user, 'tester');
    // A Pipedream profile is a sync target, not a service to run commands against.
    const misuse = await cli(['-p', 'pd', 'list', 'sources'], env);
    assert.equal(misuse.code, 2);
    assert.match(misuse.stderr, /is a Pipedream profile/);
  });

  it('plans what Pipedream takes, and lists what it cannot hold', async () => {
    const plan = await cliJson(['sync', 'plan', '--to', 'pd'], env);
    const get = (kind: string) => plan.items.filter((i: any) => i.kind === kind);
    assert.equal(get('source')[0].action, 'create');
    assert.deepEqual(get('source')[0].secrets, ['apiKey']);
    assert.ok(get('source')[0].notes.some((n: string) => /no per-source timeout.*timeout_seconds 30/.test(n)));
    assert.equal(get('webhook')[0].action, 'create');
    assert.ok(get('webhook')[0].notes.some((n: string) => /retry_schedule is not sent/.test(n)));
    assert.equal(get('subscription')[0].action, 'create');
    assert.equal(get('workflow')[0].action, 'unsupported');
    assert.match(get('workflow')[0].reason, /only from templates/);
    assert.equal(get('data_store')[0].action, 'unsupported');
    assert.match(get('data_store')[0].reason, /no data store calls/);
    assert.equal(get('account')[0].action, 'unsupported');
    assert.match(get('account')[0].reason, /connect the app in Pipedream/);
    // The source's diff is in the shape Pipedream keeps (no filename, no timeout).
    assert.doesNotMatch(get('source')[0].diff, /timeout_seconds|filename/);
  });

  it('pushes sources, webhooks and subscriptions in the documented shapes, org_id on every call', async () => {
    const pushed = await cliJson(['sync', 'push', '--to', 'pd'], env);
    assert.equal(pushed.ok, true, JSON.stringify(pushed));
    const [source] = [...pd.sources.values()];
    assert.ok(source);
    ids.pdSource = source.id;
    assert.equal(source.name, 'To Pipedream');
    assert.deepEqual(source.configured_props, { channel: 'general', timer: { intervalSeconds: 300 } });
    // It waits for its secret: switched off with a documented update (component_id and active).
    assert.equal(source.active, false);
    const put = pd.requests.find((r) => r.method === 'PUT' && r.path === `/v1/sources/${source.id}`);
    assert.deepEqual(Object.keys(put?.params ?? {}).sort(), ['active', 'component_id', 'org_id']);
    const [hook] = [...pd.webhooks.values()];
    assert.deepEqual({ url: hook?.url, name: hook?.name }, { url: 'https://example.com/hook', name: 'hook' });
    assert.deepEqual(
      pd.subscriptions.map((s) => [s.emitter_id, s.listener_id]),
      [[source.id, hook?.id]],
    );
    for (const r of pd.requests.filter((x) => x.path !== '/v1/users/me')) assert.equal(r.params.org_id, 'o_team1', `${r.method} ${r.path} carries org_id`);
    assert.deepEqual(
      (await cliJson(['sync', 'plan', '--to', 'pd'], env)).items.filter((i: any) => !['unsupported', 'skip'].includes(i.action)),
      [],
    );
  });

  it('updates a renamed source in place, and replaces it (a new id) when its props change', async () => {
    await a.api('PUT', `/v1/sources/${ids.source}`, { name: 'Renamed' });
    const rename = await cliJson(['sync', 'plan', '--to', 'pd'], env);
    const item = rename.items.find((i: any) => i.kind === 'source');
    assert.deepEqual([item.action, item.remote_id], ['update', ids.pdSource]);
    assert.equal((await cliJson(['sync', 'push', '--to', 'pd'], env)).ok, true);
    assert.equal(pd.sources.get(String(ids.pdSource))?.name, 'Renamed');

    await a.api('PUT', `/v1/sources/${ids.source}`, { configured_props: { apiKey: '********', channel: 'random', timer: { intervalSeconds: 300 } } });
    const change = await cliJson(['sync', 'plan', '--to', 'pd'], env);
    const replace = change.items.find((i: any) => i.kind === 'source');
    assert.equal(replace.action, 'replace');
    assert.match(replace.reason, /update call takes no props.*new id and endpoint URL/);
    assert.ok(
      change.items.some((i: any) => i.kind === 'subscription' && i.action === 'replace'),
      'its subscription is made again for the new id',
    );
    assert.equal((await cliJson(['sync', 'push', '--to', 'pd'], env)).ok, true);
    assert.ok(!pd.sources.has(String(ids.pdSource)));
    const [now] = [...pd.sources.values()];
    assert.equal(now?.configured_props.channel, 'random');
    assert.deepEqual(
      pd.subscriptions.map((s) => s.emitter_id),
      [now?.id],
    );
  });

  it('sends the secret only with --with-secrets, never showing it in a plan', async () => {
    const plan = await cliJson(['sync', 'plan', '--to', 'pd', '--with-secrets'], env);
    assert.doesNotMatch(JSON.stringify(plan), /pd-secret/);
    assert.equal((await cliJson(['sync', 'push', '--to', 'pd', '--with-secrets'], env)).ok, true);
    const [source] = [...pd.sources.values()];
    assert.equal(source?.configured_props.apiKey, 'pd-secret');
    assert.equal(source?.active, true);
    const again = await cliJson(['sync', 'plan', '--to', 'pd'], env);
    assert.doesNotMatch(JSON.stringify(again), /pd-secret/);
    assert.deepEqual(
      again.items.filter((i: any) => i.kind === 'source'),
      [],
    );
  });

  it('refuses to pull from Pipedream, saying why', async () => {
    const pull = await cli(['sync', 'pull', '--from', 'pd'], env);
    assert.equal(pull.code, 1);
    assert.match(pull.stderr, /pulling from Pipedream is not supported/);
  });
});
