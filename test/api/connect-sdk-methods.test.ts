// Every method of `@pipedream/sdk` against Spout (docs/connect.md, "Every SDK method"): the ones
// the other Connect tests leave out — reconnecting an account, invoking a workflow, and each method
// that is not available offline answering a 501 that names it — and the docs' table naming them all.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { PipedreamClient } from '@pipedream/sdk';
import { CONNECT_REGISTRY, type ConnectClient, connectClient, failure } from '../helpers/connect';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const once = { maxRetries: 0 };

/** A workflow step (written for this test) that answers with what the trigger received. */
const ECHO_STEP = `
export default {
  name: "Echo request", version: "0.0.1", type: "action", props: {},
  async run({ steps, $ }) {
    const { body, headers } = steps.trigger.event;
    await $.respond({ status: 202, body: { body, user: headers["x-pd-external-user-id"] ?? null } });
    return { body, user: headers["x-pd-external-user-id"] ?? null };
  },
};`;

/** The SDK's resource clients and their public methods, read from the client itself (a new SDK's new methods show up). */
function sdkMethods(pd: PipedreamClient): string[] {
  const methods: string[] = [];
  // Helpers the proxy client declares private in its types.
  const internal = new Set(['constructor', 'transformProxyHeaders', 'getResponseType', 'isJsonResponse']);
  for (let proto = Object.getPrototypeOf(pd); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (!d.get || name.startsWith('_') || name === 'rawAccessToken') continue;
      const client = (pd as unknown as Record<string, object>)[name] as object;
      for (const m of Object.getOwnPropertyNames(Object.getPrototypeOf(client))) {
        if (!internal.has(m) && !m.startsWith('_') && typeof (client as Record<string, unknown>)[m] === 'function') methods.push(`${name}.${m}`);
      }
    }
  }
  return [...new Set(methods)].sort();
}

describe('@pipedream/sdk: every method', () => {
  let spout: SpoutProcess;
  let c: ConnectClient;
  let pd: PipedreamClient;

  before(async () => {
    spout = await startSpout({ args: ['--registry', CONNECT_REGISTRY] });
    c = await connectClient(spout);
    pd = c.pd;
  });
  after(async () => {
    await spout.stop();
  });

  it('lists every SDK method in docs/connect.md', () => {
    const methods = sdkMethods(pd);
    assert.ok(methods.length >= 70 && methods.includes('workflows.invokeForExternalUser') && methods.includes('proxy.patch'), methods.join(', '));
    const docs = fs.readFileSync('docs/connect.md', 'utf8');
    assert.deepEqual(
      methods.filter((m) => !docs.includes(`\`${m}\``)),
      [],
      'methods docs/connect.md does not list',
    );
  });

  it("reconnects an account (accounts.create with accountId): its fields change, also for the user's running trigger", async () => {
    const { token } = await pd.tokens.create({ externalUserId: 'r1' });
    const made = await pd.accounts.create({ externalUserId: 'r1', appSlug: 'ledgerly', cfmapJson: JSON.stringify({ api_key: 'old-key', owner: 'Old', books: 'general' }), connectToken: token });
    const deployed = (await pd.triggers.deploy({ id: 'ledgerly-new-entry', externalUserId: 'r1', configuredProps: { ledgerly: { authProvisionId: made.id }, book: 'general' }, emitOnDeploy: false })).data as unknown as { id: string; configuredProps: { http: { endpoint_url: string } } };

    const again = await pd.tokens.create({ externalUserId: 'r1' });
    const reconnected = await pd.accounts.create({ externalUserId: 'r1', appSlug: 'ledgerly', accountId: made.id, name: 'Renewed', cfmapJson: JSON.stringify({ api_key: 'new-key', owner: 'New', books: 'general' }), connectToken: again.token });
    assert.equal(reconnected.id, made.id);
    assert.equal(reconnected.name, 'Renewed');
    assert.deepEqual(
      (await pd.accounts.list({ externalUserId: 'r1' })).data.map((a) => a.id),
      [made.id],
      'no second account',
    );
    assert.equal(((await pd.accounts.retrieve(made.id, { includeCredentials: true })).credentials as { api_key: string }).api_key, 'new-key');

    // The running trigger reads the new fields on its next event.
    await fetch(deployed.configuredProps.http.endpoint_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'after-reconnect' }) });
    const events = await waitFor(async () => (await pd.deployedTriggers.listEvents(deployed.id, { externalUserId: 'r1' })).data.find((e) => e.id === 'after-reconnect'), 10_000, 'the event');
    assert.equal((events.e as { owner: string }).owner, 'New');

    // Another user's account, another app, or a token of another user: refused.
    const other = await pd.tokens.create({ externalUserId: 'r2' });
    const stranger = await failure(pd.accounts.create({ externalUserId: 'r2', appSlug: 'ledgerly', accountId: made.id, cfmapJson: '{"api_key":"x"}', connectToken: other.token }, once));
    assert.equal(stranger.statusCode, 404);
    const wrongApp = await failure(pd.accounts.create({ externalUserId: 'r1', appSlug: 'http', accountId: made.id, cfmapJson: '{"api_key":"x"}', connectToken: (await pd.tokens.create({ externalUserId: 'r1' })).token }, once));
    assert.equal(wrongApp.statusCode, 400);
    assert.match(JSON.stringify(wrongApp.body), /is a ledgerly account, not http/);
    const mismatch = await failure(pd.accounts.create({ externalUserId: 'r1', appSlug: 'ledgerly', cfmapJson: '{"api_key":"x"}', connectToken: other.token }, once));
    assert.equal(mismatch.statusCode, 400);
    assert.match(JSON.stringify(mismatch.body), /not the user connect_token was made for \(\\"r2\\"\)/);
    assert.deepEqual((await pd.accounts.list({ externalUserId: 'r2' })).data, []);
    // No account is connected through an OAuth app offline.
    assert.deepEqual((await pd.accounts.list({ externalUserId: 'r1', oauthAppId: 'oa_any' })).data, []);
    await pd.deployedTriggers.delete(deployed.id, { externalUserId: 'r1' });
  });

  it("invokes a Spout workflow with workflows.invoke when workflowDomain is the base URL's host", async () => {
    const created = await spout.api('POST', '/v1/workflows', { name: 'Echo', trigger: { type: 'http' }, steps: [{ name: 'echo', component_code: ECHO_STEP }] });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const wf = created.json.data as { id: string; trigger: { endpoint_url: string } };
    // Without the option the SDK refuses any URL outside Pipedream's domain.
    await assert.rejects(pd.workflows.invoke({ urlOrEndpoint: wf.trigger.endpoint_url }), /URL must end with m\.pipedream\.net/);

    const local = new PipedreamClient({ baseUrl: spout.url, clientId: c.credentials.client_id, clientSecret: c.credentials.client_secret, projectId: 'proj_local', projectEnvironment: 'development', workflowDomain: new URL(spout.url).hostname });
    // The SDK lower-cases the URL; Spout finds the endpoint all the same.
    const invoked = await local.workflows.invoke({ urlOrEndpoint: wf.trigger.endpoint_url, body: { order: 7 } });
    assert.equal((invoked as { status: number }).status, 202);
    const forUser = await local.workflows.invokeForExternalUser({ urlOrEndpoint: wf.trigger.endpoint_url, externalUserId: 'w1', body: { order: 8 } });
    assert.equal((forUser as { status: number }).status, 202);

    // $.respond answers before the run ends: its record comes a moment later.
    type Run = { steps: Array<{ ret: unknown }> };
    const runs = await waitFor(
      async () => {
        const listed = (await spout.api('GET', `/v1/workflows/${wf.id}/runs`)).json.data as Run[];
        return listed.length === 2 ? listed : null;
      },
      10_000,
      'both runs',
    );
    assert.deepEqual(runs.map((r) => r.steps[0]!.ret).reverse(), [
      { body: { order: 7 }, user: null },
      { body: { order: 8 }, user: 'w1' },
    ]);
    // An id that is not all lower-case is taken as it is: only the lower-cased form is folded.
    const upper = await fetch(
      wf.trigger.endpoint_url.replace(/\/e\/(.*)$/, (_m, id: string) => `/e/${id.toUpperCase()}`),
      { method: 'POST' },
    );
    assert.equal(upper.status, 404);
  });

  it('answers every method that is not available offline with a 501 naming it', async () => {
    const unavailable: Array<[string, () => Promise<unknown>, RegExp]> = [
      ['appOverrides.list', () => pd.appOverrides.list({}, once), /GET \/v1\/connect\/…\/app_overrides \(appOverrides\.list\/create\)/],
      ['appOverrides.create', () => pd.appOverrides.create({ app: 'ledgerly', name: 'Ours' }, once), /POST \/v1\/connect\/…\/app_overrides \(appOverrides\.list\/create\)/],
      ['appOverrides.retrieve', () => pd.appOverrides.retrieve('ao_1', once), /GET \/v1\/connect\/…\/app_overrides\/ao_1 \(appOverrides\.retrieve\/update\/delete\)/],
      ['appOverrides.update', () => pd.appOverrides.update('ao_1', {}, once), /PUT \/v1\/connect\/…\/app_overrides\/ao_1/],
      ['appOverrides.delete', () => pd.appOverrides.delete('ao_1', once), /DELETE \/v1\/connect\/…\/app_overrides\/ao_1/],
      ['oauthApps.list', () => pd.oauthApps.list({}, once), /GET \/v1\/connect\/…\/oauth_apps \(oauthApps\.list\/create\)/],
      ['oauthApps.create', () => pd.oauthApps.create({ app: 'ledgerly', clientId: 'id', clientSecret: 'secret' } as never, once), /POST \/v1\/connect\/…\/oauth_apps/],
      ['oauthApps.retrieve', () => pd.oauthApps.retrieve('oa_1', once), /GET \/v1\/connect\/…\/oauth_apps\/oa_1 \(oauthApps\.retrieve\/update\/delete\)/],
      ['oauthApps.update', () => pd.oauthApps.update('oa_1', {} as never, once), /PUT \/v1\/connect\/…\/oauth_apps\/oa_1/],
      ['oauthApps.delete', () => pd.oauthApps.delete('oa_1', once), /DELETE \/v1\/connect\/…\/oauth_apps\/oa_1/],
      ['fileStash.downloadFile', () => pd.fileStash.downloadFile({ s3Key: 'k' }, once), /GET \/v1\/connect\/…\/file_stash\/download \(fileStash\.downloadFile\)/],
      ['projects.updateLogo', () => pd.projects.updateLogo('proj_local', { logo: 'data:image/png;base64,AA==' }, once), /POST \/v1\/connect\/…\/projects\/proj_local\/logo \(projects\.updateLogo\)/],
      ['usage.list', () => pd.usage.list({ startTs: 0, endTs: 1 }, once), /GET \/v1\/connect\/…\/usage \(usage\.list\)/],
      [
        'accounts.create with appOverrideId',
        async () => pd.accounts.create({ externalUserId: 'x1', appSlug: 'ledgerly', cfmapJson: '{"api_key":"k"}', appOverrideId: 'ao_1', connectToken: (await pd.tokens.create({ externalUserId: 'x1' })).token }, once),
        /app_override_id: app overrides \(appOverrides\.\*\) are not available offline/,
      ],
    ];
    for (const [method, call, names] of unavailable) {
      const err = await failure(call());
      assert.equal(err.statusCode, 501, `${method}: ${JSON.stringify(err.body)}`);
      const body = err.body as { title: string; detail: string };
      assert.equal(body.title, 'Not Implemented', method);
      assert.match(body.detail, names, method);
    }
  });
});
