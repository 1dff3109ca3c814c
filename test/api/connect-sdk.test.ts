// The real `@pipedream/sdk` against a running Spout (docs/connect.md): the base URL and the
// project's credentials are all an app changes. Every answer is also checked strictly against the
// SDK's own response schemas.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PipedreamClient } from '@pipedream/sdk';
import { CONNECT_REGISTRY, type ConnectClient, connectClient, failure, strictly } from '../helpers/connect';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';
import { sleep, verify } from '../helpers/webhooks';

/** Short-lived access tokens: the SDK must refresh them on its own. */
const TOKEN_TTL_SECONDS = 6;

describe('@pipedream/sdk against Spout', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  let c: ConnectClient;
  let pd: PipedreamClient;
  /** Ada's (u1) and Bea's (u2) accounts. */
  let ada: string;
  let bea: string;

  before(async () => {
    spout = await startSpout({ args: ['--registry', CONNECT_REGISTRY], env: { SPOUT_CONNECT_TOKEN_TTL: String(TOKEN_TTL_SECONDS) } });
    receiver = await startReceiver();
    c = await connectClient(spout);
    pd = c.pd;
  });
  after(async () => {
    await receiver.close();
    await spout.stop();
  });

  it('lists and reads the registry: apps, actions, triggers, with paging to the end', async () => {
    const apps = await pd.apps.list({ q: 'ledger' });
    assert.deepEqual(
      apps.data.map((a) => a.nameSlug),
      ['ledgerly'],
    );
    strictly('ListAppsResponse', c.last('/connect/apps'));
    const app = await pd.apps.retrieve('ledgerly');
    assert.equal(app.data.authType, 'keys');
    assert.deepEqual(
      JSON.parse(app.data.customFieldsJson ?? '[]').map((f: { name: string }) => f.name),
      ['api_key', 'books', 'owner'],
    );
    strictly('GetAppResponse', c.last('/apps/ledgerly'));
    strictly('ListAppCategoriesResponse', await pd.appCategories.list().then(() => c.last('/app_categories')));

    const actions = await pd.actions.list({ app: 'ledgerly' });
    assert.deepEqual(
      actions.data.map((a) => a.key),
      ['ledgerly-record-entry'],
    );
    strictly('GetComponentsResponse', c.last('/actions'));
    const triggers = await pd.triggers.list({ app: 'ledgerly' });
    assert.deepEqual(
      triggers.data.map((t) => t.key),
      ['ledgerly-new-entry'],
    );

    const action = await pd.actions.retrieve('ledgerly-record-entry');
    strictly('GetComponentResponse', c.last('/actions/ledgerly-record-entry'));
    const book = action.data.configurableProps.find((p) => p.name === 'book') as { remoteOptions?: boolean; type: string };
    assert.equal(book.type, 'string');
    assert.equal(book.remoteOptions, true);
    const trigger = await pd.triggers.retrieve('ledgerly-new-entry');
    assert.ok(trigger.data.configurableProps.some((p) => p.type === '$.interface.http'));
    // An action is not read as a trigger.
    assert.equal((await failure(pd.triggers.retrieve('ledgerly-record-entry'))).statusCode, 404);

    // The SDK's pager walks every page and stops at the last (end_cursor null there).
    const keys: string[] = [];
    for await (const component of await pd.components.list({ limit: 2 })) keys.push(component.key);
    assert.ok(keys.includes('ledgerly-new-entry') && keys.includes('http-send-request'), keys.join(','));
    assert.equal(new Set(keys).size, keys.length);
  });

  it('connects accounts for two external users: with a Connect token, and through the Connect Link page', async () => {
    const token = await pd.tokens.create({ externalUserId: 'u1' });
    strictly('CreateTokenResponse', c.last('/tokens'));
    assert.ok(token.expiresAt.getTime() > Date.now());
    const created = await pd.accounts.create({ externalUserId: 'u1', appSlug: 'ledgerly', cfmapJson: JSON.stringify({ api_key: 'key-of-ada-1', owner: 'Ada', books: 'general,travel' }), connectToken: token.token });
    strictly('Account', c.last('/accounts'));
    ada = created.id;
    assert.equal(created.externalId, 'u1');

    // Bea connects hers on the page the Connect Link URL opens: the app's fields, then submit.
    const link = (await pd.tokens.create({ externalUserId: 'u2', appId: 'ledgerly' })).connectLinkUrl;
    const form = await fetch(link);
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await form.text();
    for (const field of ['api_key', 'books', 'owner']) assert.match(html, new RegExp(`name="${field}"`));
    const linkToken = new URL(link).searchParams.get('token') as string;
    const submitted = await fetch(new URL('/connect/link', spout.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: linkToken, app: 'ledgerly', account_name: "Bea's books", api_key: 'key-of-bea-2', owner: 'Bea', books: 'home' }),
    });
    assert.equal(submitted.status, 200, await submitted.clone().text());
    const beas = await pd.accounts.list({ externalUserId: 'u2' });
    strictly('ListAccountsResponse', c.last('/accounts'));
    assert.equal(beas.data.length, 1);
    bea = beas.data[0]!.id;
    assert.equal(beas.data[0]!.name, "Bea's books");
    // Credentials are masked unless asked for; asked for, they come in clear.
    assert.deepEqual(beas.data[0]!.credentials, { api_key: '********', owner: '********', books: '********' });
    const clear = await pd.accounts.retrieve(bea, { includeCredentials: true });
    assert.equal((clear.credentials as Record<string, unknown>).api_key, 'key-of-bea-2');
    assert.deepEqual(
      (await pd.accounts.listByExternalUser('u1')).map((a) => a.id),
      [ada],
    );
  });

  it("configures an async prop's options with the user's account, and reloads props", async () => {
    const options = await pd.actions.configureProp({ id: 'ledgerly-record-entry', externalUserId: 'u1', propName: 'book', configuredProps: { ledgerly: { authProvisionId: ada } } });
    strictly('ConfigurePropResponse', c.last('/actions/configure'));
    assert.deepEqual(options.options, [
      { label: 'general (Ada)', value: 'general' },
      { label: 'travel (Ada)', value: 'travel' },
    ]);
    const reloaded = await pd.actions.reloadProps({ id: 'ledgerly-record-entry', externalUserId: 'u1', configuredProps: { ledgerly: { authProvisionId: ada }, withMemo: true } });
    strictly('ReloadPropsResponse', c.last('/actions/props'));
    assert.ok(reloaded.dynamicProps?.id?.startsWith('dyp_'));
    assert.ok(reloaded.dynamicProps?.configurableProps?.some((p) => p.name === 'memo'));
  });

  it("runs an action for one external user with that user's account, and never with another's", async () => {
    const run = await pd.actions.run({ id: 'ledgerly-record-entry', externalUserId: 'u1', configuredProps: { ledgerly: { authProvisionId: ada }, book: 'travel', amount: 1200, withMemo: true, memo: 'taxi' } });
    strictly('RunActionResponse', c.last('/actions/run'));
    assert.deepEqual(run.ret, { book: 'travel', amount: 1200, memo: 'taxi', owner: 'Ada', key_hint: '-1' });
    assert.deepEqual(run.exports, { $summary: 'Recorded 1200 in travel for Ada', entry_book: 'travel' });
    assert.deepEqual(
      run.os?.map((o) => [o.k, o.msg]),
      [['console.log', 'recording 1200 in travel']],
    );
    // An option chosen with its label, as connect-react sends it (`__lv`), is its value.
    const labelled = await pd.actions.run({ id: 'ledgerly-record-entry', externalUserId: 'u1', configuredProps: { ledgerly: { authProvisionId: ada }, book: { __lv: { label: 'general (Ada)', value: 'general' } }, amount: 3 } });
    assert.equal((labelled.ret as { book: string }).book, 'general');
    // A withLabel prop keeps {label, value}, sent as `__lv` or plain (labelled by its option), as on Pipedream.
    for (const category of [{ __lv: { label: 'Travel costs', value: 'travel' } }, 'travel']) {
      const withLabel = await pd.actions.run({ id: 'ledgerly-record-entry', externalUserId: 'u1', configuredProps: { ledgerly: { authProvisionId: ada }, book: 'general', amount: 3, category } });
      assert.equal(withLabel.exports?.category, 'Travel costs (travel)', JSON.stringify(category));
    }

    // u2 naming Ada's account: refused, as if it did not exist.
    const stolen = await failure(pd.actions.run({ id: 'ledgerly-record-entry', externalUserId: 'u2', configuredProps: { ledgerly: { authProvisionId: ada }, book: 'general', amount: 1 } }));
    assert.equal(stolen.statusCode, 400);
    assert.match((stolen.body as { detail: string }).detail, /external user "u2" has no account apn_/);
    assert.equal((await failure(pd.actions.configureProp({ id: 'ledgerly-record-entry', externalUserId: 'u2', propName: 'book', configuredProps: { ledgerly: { authProvisionId: ada } } }))).statusCode, 400);
    // Named as u2's, Ada's account does not exist.
    const asU2 = await fetch(`${spout.url}/v1/connect/proj_local/accounts/${ada}?external_user_id=u2`, { headers: { authorization: `Bearer ${spout.apiKey}` } });
    assert.equal(asU2.status, 404);
  });

  it('deploys a trigger with a webhook URL: events reach the receiver signed, and listEvents; update and delete it', async () => {
    const deployed = await pd.triggers.deploy({ id: 'ledgerly-new-entry', externalUserId: 'u1', configuredProps: { ledgerly: { authProvisionId: ada }, book: 'general' }, webhookUrl: receiver.url });
    strictly('DeployTriggerResponse', c.last('/triggers/deploy'));
    const trigger = deployed.data as { id: string; ownerId: string; configuredProps: Record<string, { endpoint_url?: string }>; emitOnDeploy?: boolean; active: boolean };
    assert.match(trigger.id, /^dc_/);
    assert.match(trigger.ownerId, /^exu_/);
    assert.equal(trigger.emitOnDeploy, true);
    const endpoint = trigger.configuredProps.http?.endpoint_url as string;
    assert.match(endpoint, /\/e\/en_/);

    // The sample its deploy() hook emitted is delivered (emit_on_deploy), then each entry posted.
    await waitFor(() => receiver.received.length >= 1, 10_000, 'the deploy-time event');
    const posted = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'e-1', amount: 5 }) });
    assert.equal(posted.status, 200);
    await waitFor(() => receiver.received.length >= 2, 10_000, 'the entry event');
    const hooks = await pd.deployedTriggers.listWebhooks(trigger.id, { externalUserId: 'u1' });
    strictly('GetTriggerWebhooksResponse', c.last('/webhooks'));
    assert.deepEqual(hooks.webhookUrls, [receiver.url]);
    const hook = await pd.deployedTriggers.retrieveWebhook(trigger.id, hooks.webhooks![0]!.id, { externalUserId: 'u1' });
    strictly('GetWebhookWithSigningKeyResponse', c.last(`/webhooks/${hooks.webhooks![0]!.id}`));
    const bodies = receiver.received.map((r) => verify(hook.data.signingKey, r));
    assert.deepEqual(bodies, [
      { sample: true, book: 'general' },
      { id: 'e-1', amount: 5, book: 'general', owner: 'Ada' },
    ]);

    const events = await pd.deployedTriggers.listEvents(trigger.id, { externalUserId: 'u1', n: 10 });
    strictly('GetTriggerEventsResponse', c.last('/events'));
    assert.deepEqual(
      events.data.map((e) => [e.id, e.k, e.sum]),
      [
        ['e-1', 'emit', 'Entry e-1'],
        ['sample', 'emit', 'Sample entry'],
      ],
    );

    // It is a Spout source, with its external user.
    const sources = await spout.api('GET', '/v1/users/me/sources?limit=100');
    const source = sources.json.data.find((s: { id: string }) => s.id === trigger.id);
    assert.equal(source.external_user_id, 'u1');

    // Another external user sees none of it.
    assert.deepEqual((await pd.deployedTriggers.list({ externalUserId: 'u2' })).data, []);
    assert.equal((await failure(pd.deployedTriggers.retrieve(trigger.id, { externalUserId: 'u2' }))).statusCode, 404);
    assert.equal((await failure(pd.deployedTriggers.listEvents(trigger.id, { externalUserId: 'u2' }))).statusCode, 404);
    assert.deepEqual(
      (await pd.accounts.list({ externalUserId: 'u2' })).data.map((a) => a.id),
      [bea],
    );
    const mine = await pd.deployedTriggers.list({ externalUserId: 'u1' });
    strictly('GetTriggersResponse', c.last('/deployed-triggers'));
    assert.deepEqual(
      mine.data.map((t) => (t as { id: string }).id),
      [trigger.id],
    );

    const paused = await pd.deployedTriggers.update(trigger.id, { externalUserId: 'u1', active: false, name: 'Ada entries' });
    strictly('GetTriggerResponse', c.last(`/deployed-triggers/${trigger.id}`));
    assert.equal((paused.data as { active: boolean }).active, false);
    assert.equal((paused.data as { name: string }).name, 'Ada entries');
    const retrieved = await pd.deployedTriggers.retrieve(trigger.id, { externalUserId: 'u1' });
    assert.equal((retrieved.data as { active: boolean }).active, false);

    await pd.deployedTriggers.delete(trigger.id, { externalUserId: 'u1' });
    assert.equal((await failure(pd.deployedTriggers.retrieve(trigger.id, { externalUserId: 'u1' }))).statusCode, 404);
    assert.equal((await spout.api('GET', `/v1/sources/${trigger.id}`)).status, 404);
    const webhooks = await spout.api('GET', '/v1/users/me/webhooks?limit=100');
    assert.deepEqual(
      webhooks.json.data.filter((w: { url: string }) => w.url === receiver.url),
      [],
      'its webhook went with it',
    );

    // A trigger deleted as a source (the UI, the CLI) loses its webhook too.
    const again = (await pd.triggers.deploy({ id: 'ledgerly-new-entry', externalUserId: 'u1', configuredProps: { ledgerly: { authProvisionId: ada }, book: 'general' }, webhookUrl: receiver.url, emitOnDeploy: false })).data as { id: string };
    assert.equal((await spout.api('DELETE', `/v1/sources/${again.id}`)).status, 204);
    assert.deepEqual((await pd.deployedTriggers.list({ externalUserId: 'u1' })).data, []);
    const left = await spout.api('GET', '/v1/users/me/webhooks?limit=100');
    assert.deepEqual(
      left.json.data.filter((w: { url: string }) => w.url === receiver.url),
      [],
    );
  });

  it('signs in with the OAuth client credentials flow and refreshes the access token when it expires', async () => {
    const tokenCalls = () => c.exchanges.filter((e) => e.url.endsWith('/v1/oauth/token'));
    strictly('CreateOAuthTokenResponse', tokenCalls()[0]!.json);
    const first = tokenCalls().at(-1)!.json as { access_token: string; expires_in: number };
    assert.equal(first.expires_in, TOKEN_TTL_SECONDS);
    const before = tokenCalls().length;
    await sleep(TOKEN_TTL_SECONDS * 1000 + 200);
    // The old token is refused now; the SDK gets a new one by itself and the call works.
    const stale = await fetch(`${spout.url}/v1/connect/proj_local/actions`, { headers: { authorization: `Bearer ${first.access_token}` } });
    assert.equal(stale.status, 401);
    assert.ok((await pd.actions.list({ app: 'ledgerly' })).data.length === 1);
    assert.ok(tokenCalls().length > before, 'the SDK asked for a new token');

    // Wrong secret: invalid_client; the /v1 API key works for the Connect API too.
    const wrong = await fetch(`${spout.url}/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: c.credentials.client_id, client_secret: 'nope' }) });
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_client');
    const withKey = new PipedreamClient({ baseUrl: spout.url, projectId: 'proj_local', tokenProvider: { getToken: async () => spout.apiKey } } as never);
    assert.deepEqual(
      (await withKey.triggers.list({ app: 'ledgerly' })).data.map((t) => t.key),
      ['ledgerly-new-entry'],
    );
    // A Connect token is one user's: it cannot make tokens or read another user's accounts.
    const ctok = (await pd.tokens.create({ externalUserId: 'u2' })).token;
    const asBea = new PipedreamClient({ baseUrl: spout.url, projectId: 'proj_local', tokenProvider: { getToken: async () => ctok } } as never);
    assert.deepEqual(
      (await asBea.accounts.list({})).data.map((a) => a.id),
      [bea],
    );
    assert.equal((await failure(asBea.accounts.list({ externalUserId: 'u1' }))).statusCode, 403);
    assert.equal((await failure(asBea.tokens.create({ externalUserId: 'u1' }))).statusCode, 403);
  });

  it('answers Connect-only endpoints with a 501 naming them, and unknown ones with a 404', async () => {
    // The SDK retries 5xx answers (501 too) twice unless told not to.
    const once = { maxRetries: 0 };
    const overrides = await failure(pd.appOverrides.list({}, once));
    assert.equal(overrides.statusCode, 501, JSON.stringify(overrides.body));
    assert.match(JSON.stringify(overrides.body), /app_overrides \(appOverrides\.list\/create\) is not available offline/);
    assert.equal((await failure(pd.oauthApps.list({}, once))).statusCode, 501);
    assert.equal((await failure(pd.usage.list({ startTs: 0, endTs: 1 }, once))).statusCode, 501);
    const unknown = await fetch(`${spout.url}/v1/connect/proj_local/nothing-here`, { headers: { authorization: `Bearer ${spout.apiKey}` } });
    assert.equal(unknown.status, 404);
  });
});
