// The rest of the local Connect API through @pipedream/sdk: the proxy (credentials added, network
// modes and the account's cassette), CORS for pages, Connect Link pages, projects and their webhook,
// users, workflows of a trigger, and `spout connect credentials`.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { PipedreamClient } from '@pipedream/sdk';
import { cli, cliEnv } from '../helpers/cli';
import { CONNECT_REGISTRY, type ConnectClient, connectClient, failure, strictly } from '../helpers/connect';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';
import { verify } from '../helpers/webhooks';

/** An upstream API that records what reached it and answers with JSON. */
async function startUpstream(): Promise<{ url: string; seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>; close: () => Promise<void> }> {
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' }).end(JSON.stringify({ ok: true, got: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const once = { maxRetries: 0 };

describe('the Connect API beyond components', () => {
  let spout: SpoutProcess;
  let c: ConnectClient;
  let pd: PipedreamClient;
  let receiver: Receiver;

  /** Connects an account for a user with the given fields. */
  const account = async (user: string, fields: Record<string, string>) => {
    const { token } = await pd.tokens.create({ externalUserId: user });
    return (await pd.accounts.create({ externalUserId: user, appSlug: 'ledgerly', cfmapJson: JSON.stringify(fields), connectToken: token })).id;
  };

  before(async () => {
    spout = await startSpout({ args: ['--registry', CONNECT_REGISTRY] });
    c = await connectClient(spout);
    pd = c.pd;
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await spout.stop();
  });

  it("proxies a request with the account's credentials, records it to the account's cassette, and replays it", async () => {
    const upstream = await startUpstream();
    // The upstream is on this machine: the project lets the proxy call it (docs/security.md).
    assert.equal((await spout.api('PATCH', '/v1/connect/projects/proj_local', { allow_local_targets: true })).status, 200);
    const id = await account('p1', { api_key: 'sk-proxy-secret-1', owner: 'Pat', books: 'general' });
    const answer = await pd.proxy.post({ url: `${upstream.url}/v2/entries?book=general`, externalUserId: 'p1', accountId: id, body: { amount: 7 }, headers: { 'X-Trace': 't-1' } }, { queryParams: { network_mode: 'record' } });
    assert.deepEqual(answer, { ok: true, got: { amount: 7 } });
    const got = upstream.seen[0]!;
    assert.equal(got.url, '/v2/entries?book=general');
    assert.equal(got.headers.authorization, 'Bearer sk-proxy-secret-1');
    assert.equal(got.headers['x-trace'], 't-1');
    // Recorded with the credential masked.
    const cassette = await spout.api('GET', `/v1/accounts/${id}/cassette`);
    assert.equal(cassette.json.data.entries.length, 1);
    assert.doesNotMatch(JSON.stringify(cassette.json.data), /sk-proxy-secret-1/);
    await upstream.close();
    // Replayed with the upstream gone.
    const replayed = await pd.proxy.post({ url: `${upstream.url}/v2/entries?book=general`, externalUserId: 'p1', accountId: id, body: { amount: 7 } }, { queryParams: { network_mode: 'replay' }, ...once });
    assert.deepEqual(replayed, { ok: true, got: { amount: 7 } });
    const missing = await failure(pd.proxy.get({ url: `${upstream.url}/v2/other`, externalUserId: 'p1', accountId: id }, { queryParams: { network_mode: 'replay' }, ...once }));
    assert.equal(missing.statusCode, 502);
    assert.match(JSON.stringify(missing.body), /no recording of GET/);
    // A Connect token (a page) cannot use the proxy at all; another user cannot send with the account.
    const ctok = (await pd.tokens.create({ externalUserId: 'p1' })).token;
    const asPage = await fetch(`${spout.url}/v1/connect/proxy/${Buffer.from(`${upstream.url}/v2/entries`).toString('base64url')}?account_id=${id}`, { headers: { authorization: `Bearer ${ctok}` } });
    assert.equal(asPage.status, 403);
    assert.equal((await failure(pd.proxy.get({ url: `${upstream.url}/v2/entries`, externalUserId: 'p2', accountId: id }, once))).statusCode, 404);
  });

  it('lets a page of another origin in only with a Connect token that names the origin', async () => {
    const origin = 'http://127.0.0.1:5999';
    const preflight = await fetch(`${spout.url}/v1/connect/actions`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), origin);
    const withKey = await fetch(`${spout.url}/v1/connect/proj_local/actions`, { headers: { origin, authorization: `Bearer ${spout.apiKey}` } });
    assert.equal(withKey.status, 403);
    const other = await pd.tokens.create({ externalUserId: 'w1', allowedOrigins: ['http://localhost:3000'] });
    assert.equal((await fetch(`${spout.url}/v1/connect/actions`, { headers: { origin, authorization: `Bearer ${other.token}` } })).status, 403);
    const allowed = await pd.tokens.create({ externalUserId: 'w1', allowedOrigins: [origin] });
    const ok = await fetch(`${spout.url}/v1/connect/actions?app=ledgerly`, { headers: { origin, authorization: `Bearer ${allowed.token}` } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), origin);
    const validated = await pd.tokens.validate(allowed.token, { appId: 'ledgerly' });
    strictly('ValidateTokenResponse', c.last('/validate'));
    assert.equal(validated.success, true);
    assert.equal(validated.app?.nameSlug, 'ledgerly');
    assert.equal((await pd.tokens.validate('ctok_forged.nope')).success, false);
  });

  it('connects an account on the Connect Link page: redirects, notifies the webhook_uri, and refuses bad links', async () => {
    const notified = await startReceiver();
    try {
      const token = await pd.tokens.create({ externalUserId: 'l1', successRedirectUri: 'http://127.0.0.1:1/done', webhookUri: notified.url });
      const page = await fetch(token.connectLinkUrl);
      assert.match(await page.text(), /Choose the app to connect/);
      const form = { token: token.token, app: 'ledgerly', api_key: 'k', owner: 'Lou' };
      const incomplete = await fetch(new URL('/connect/link', spout.url), { method: 'POST', body: new URLSearchParams(form) });
      assert.equal(incomplete.status, 400);
      assert.match(await incomplete.text(), /Fill in books/);
      const done = await fetch(new URL('/connect/link', spout.url), { method: 'POST', body: new URLSearchParams({ ...form, books: 'home' }), redirect: 'manual' });
      assert.equal(done.status, 303);
      assert.equal(done.headers.get('location'), 'http://127.0.0.1:1/done');
      await waitFor(() => notified.received.length === 1, 10_000, 'the connection webhook');
      const event = JSON.parse(notified.received[0]!.body);
      assert.equal(event.event, 'CONNECTION_SUCCESS');
      assert.equal(event.account.external_id, 'l1');
      assert.equal(JSON.stringify(event).includes('"k"'), false, 'credentials stay out of the notice');
      const forged = await fetch(new URL(`/connect/link?token=ctok_x.y`, spout.url));
      assert.equal(forged.status, 401);
    } finally {
      await notified.close();
    }
  });

  it("points a trigger at new webhook URLs, regenerates a webhook's key, and deletes accounts", async () => {
    const id = await account('h1', { api_key: 'k-h1', owner: 'Hal', books: 'general,travel' });
    const options = await pd.triggers.configureProp({ id: 'ledgerly-new-entry', externalUserId: 'h1', propName: 'book', configuredProps: { ledgerly: { authProvisionId: id } } });
    assert.deepEqual(
      options.options?.map((o) => (o as { value: string }).value),
      ['general', 'travel'],
    );
    const trigger = (await pd.triggers.deploy({ id: 'ledgerly-new-entry', externalUserId: 'h1', configuredProps: { ledgerly: { authProvisionId: id }, book: 'travel' }, webhookUrl: receiver.url, emitOnDeploy: false })).data as { id: string };
    const second = await startReceiver();
    try {
      const hooks = await pd.deployedTriggers.updateWebhooks(trigger.id, { externalUserId: 'h1', webhookUrls: [second.url] });
      assert.deepEqual(hooks.webhookUrls, [second.url]);
      const webhookId = hooks.webhooks![0]!.id;
      const before = (await pd.deployedTriggers.retrieveWebhook(trigger.id, webhookId, { externalUserId: 'h1' })).data.signingKey;
      const after = (await pd.deployedTriggers.regenerateWebhookSigningKey(trigger.id, webhookId, { externalUserId: 'h1' })).data.signingKey;
      assert.notEqual(after, before);
      const endpoint = (await spout.api('GET', `/v1/sources/${trigger.id}`)).json.data.configured_props.http.endpoint_url as string;
      await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'h-1' }) });
      // emit_on_deploy false: the sample stayed out; the entry went to the new URL only, signed with the new key.
      await waitFor(() => second.received.length === 1, 10_000, 'the entry at the new webhook');
      assert.deepEqual(verify(after, second.received[0]!), { id: 'h-1', book: 'travel', owner: 'Hal' });
      // The account is in use: it cannot go until the trigger does.
      assert.equal((await failure(pd.accounts.delete(id, once))).statusCode, 409);
      await pd.deployedTriggers.delete(trigger.id, { externalUserId: 'h1' });
      await pd.accounts.delete(id);
      const other = await account('h1', { api_key: 'k-h1b', owner: 'Hal', books: 'x' });
      const listed = await spout.api('GET', '/v1/accounts?limit=100');
      assert.equal(listed.json.data.find((a: { id: string }) => a.id === other).external_user_id, 'h1');
      await pd.accounts.deleteByApp('ledgerly');
      assert.deepEqual((await pd.accounts.list({ externalUserId: 'h1' })).data, []);
    } finally {
      await second.close();
    }
  });

  it('delivers triggers deployed without a webhook URL to the project environment webhook, and feeds Spout workflows', async () => {
    const set = await pd.projectEnvironment.updateWebhook({ url: receiver.url });
    strictly('SetWebhookResponse', c.last('/webhook'));
    const key = (await pd.projectEnvironment.regenerateWebhookSigningKey()).data.signingKey;
    strictly('GetWebhookResponse', await pd.projectEnvironment.retrieveWebhook().then(() => c.last('/webhook')));
    const id = await account('d1', { api_key: 'k-d1', owner: 'Dee', books: 'general' });
    const deployed = await pd.triggers.deploy({ id: 'ledgerly-new-entry', externalUserId: 'd1', configuredProps: { ledgerly: { authProvisionId: id }, book: 'general' } });
    const trigger = deployed.data as { id: string };
    await waitFor(() => receiver.received.length >= 1, 10_000, 'the sample event at the project webhook');
    assert.deepEqual(verify(key, receiver.received[0]!), { sample: true, book: 'general' });
    assert.equal(set.data.url, receiver.url);

    assert.deepEqual((await pd.deployedTriggers.listWorkflows(trigger.id, { externalUserId: 'd1' })).workflowIds, []);
    strictly('GetTriggerWorkflowsResponse', c.last('/pipelines'));
    const workflow = await spout.api('POST', '/v1/workflows', { name: 'Entries', trigger: { type: 'manual' }, steps: [] });
    assert.equal(workflow.status, 200, JSON.stringify(workflow.json));
    const fed = await pd.deployedTriggers.updateWorkflows(trigger.id, { externalUserId: 'd1', workflowIds: [workflow.json.data.id] });
    assert.deepEqual(fed.workflowIds, [workflow.json.data.id]);
    const subs = await spout.api('GET', '/v1/users/me/subscriptions?limit=100');
    assert.ok(subs.json.data.some((s: { emitter_id: string; listener_id: string }) => s.emitter_id === trigger.id && s.listener_id === workflow.json.data.id));
    assert.equal((await failure(pd.deployedTriggers.updateWorkflows(trigger.id, { externalUserId: 'd1', workflowIds: ['p_nothing'] }, once))).statusCode, 404);
    await pd.projectEnvironment.deleteWebhook();
  });

  it('lists and deletes external users (their triggers and accounts go too), and manages projects', async () => {
    const id = await account('gone', { api_key: 'k-gone', owner: 'Gus', books: 'general' });
    await pd.triggers.deploy({ id: 'ledgerly-new-entry', externalUserId: 'gone', configuredProps: { ledgerly: { authProvisionId: id }, book: 'general' } });
    const users = await pd.users.list({ q: 'gone' });
    strictly('GetUsersResponse', c.last('/users'));
    assert.deepEqual(
      users.data.map((u) => u.externalId),
      ['gone'],
    );
    await pd.users.deleteExternalUser('gone');
    assert.deepEqual((await pd.accounts.list({ externalUserId: 'gone' })).data, []);
    assert.deepEqual((await pd.deployedTriggers.list({ externalUserId: 'gone' })).data, []);
    assert.deepEqual((await pd.users.list({ q: 'gone' })).data, []);

    const info = await pd.projects.retrieveInfo();
    strictly('ProjectInfoResponse', c.last('/projects/info'));
    assert.ok(info.apps.some((a) => a.nameSlug === 'ledgerly'));
    const made = await pd.projects.create({ name: 'Second' });
    assert.match(made.id, /^proj_/);
    assert.equal((await pd.projects.update(made.id, { appName: 'My app' })).appName, 'My app');
    assert.ok((await pd.projects.list()).data.some((p) => p.id === made.id));
    strictly('ListProjectsResponse', c.last('/projects'));
    await pd.projects.delete(made.id);
    assert.equal((await failure(pd.projects.retrieve(made.id, once))).statusCode, 404);
    assert.equal((await failure(pd.projects.updateLogo(made.id, { logo: 'data:image/png;base64,AA==' }, once))).statusCode, 501);
  });

  it('prints the credentials with spout connect credentials, and --rotate voids the old secret', async () => {
    const shown = await cli(['connect', 'credentials', '--json'], cliEnv(spout));
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.json().client_secret, c.credentials.client_secret);
    const text = await cli(['connect', 'credentials'], cliEnv(spout));
    assert.match(text.stdout, new RegExp(`Client id\\s+${c.credentials.client_id}`));
    const rotated = await cli(['connect', 'credentials', '--rotate', '--json'], cliEnv(spout));
    assert.equal(rotated.code, 0, rotated.stderr);
    const token = (secret: string) => fetch(`${spout.url}/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: rotated.json().client_id, client_secret: secret }) });
    assert.equal((await token(c.credentials.client_secret)).status, 401);
    assert.equal((await token(rotated.json().client_secret)).status, 200);
  });
});
