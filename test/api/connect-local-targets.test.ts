// Where the Connect proxy sends an account's credential (issue 42, point 3): never to this Spout,
// nowhere on the developer's machine unless the project allows it (allow_local_targets, set from
// Settings → Connect too), and an account's URL fields, which an end user sets and the proxy
// resolves relative URLs against, are held to the same rule when the account is made.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { PipedreamClient } from '@pipedream/sdk';
import { CONNECT_REGISTRY, connectClient, failure } from '../helpers/connect';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { type SpoutProcess, startSpout } from '../helpers/service';

const once = { maxRetries: 0 };
const ORIGIN = 'http://127.0.0.1:5998';

/** An upstream API on 127.0.0.1: `/redirect?to=URL` answers 302 to it, anything else 200 with what it got. */
async function startUpstream(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to) return void res.writeHead(302, { location: to }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url, auth: req.headers.authorization ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the Connect proxy, accounts and local targets', () => {
  let spout: SpoutProcess;
  let pd: PipedreamClient;
  let receiver: Receiver;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;

  /** A Connect token of `user`, usable from ORIGIN. */
  const tokenOf = async (user: string) => (await pd.tokens.create({ externalUserId: user, allowedOrigins: [ORIGIN] })).token;
  /** Calls the Connect API with a Connect token, as the end user's page does. */
  const asUser = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${spout.url}/v1/connect/proj_local${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, origin: ORIGIN, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    // As SpoutProcess.api answers: the tests read the fields they check.
    return { status: res.status, json: (await res.json().catch(() => null)) as any };
  };
  const allowLocal = async (allow: boolean) => {
    const res = await spout.api('PUT', '/v1/settings/connect', { allow_local_targets: allow });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.json.data.allow_local_targets, allow);
  };

  before(async () => {
    spout = await startSpout({ args: ['--registry', CONNECT_REGISTRY] });
    pd = (await connectClient(spout)).pd;
    receiver = await startReceiver();
    upstream = await startUpstream();
  });
  after(async () => {
    await upstream.close();
    await receiver.close();
    await spout.stop();
  });

  it('keeps allow_local_targets off by default, and sets it from Settings → Connect (PUT /v1/settings/connect) as PATCH on the project does', async () => {
    assert.equal((await spout.api('GET', '/v1/settings/connect')).json.data.allow_local_targets, false);
    await allowLocal(true);
    assert.equal((await spout.api('GET', '/v1/connect/projects/proj_local')).json.allow_local_targets, true, 'the project shows it');
    // What it governs for trigger webhooks (test/api/delivery-targets.test.ts has the rest): an end user's local receiver.
    const allowed = await asUser(await tokenOf('s1'), 'POST', '/triggers/deploy', { id: 'http-new-requests', configured_props: {}, webhook_url: receiver.url });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.json));
    await allowLocal(false);
    assert.equal((await spout.api('PUT', '/v1/settings/connect', { allow_local_targets: 'maybe' })).status, 400);
  });

  it("refuses an account whose URL points at this Spout or, unless allowed, this machine (the proxy's base URL)", async () => {
    const token = await tokenOf('a1');
    const create = (fields: Record<string, string>) => asUser(token, 'POST', '/accounts', { app_slug: 'ledgerly', cfmap_json: JSON.stringify({ api_key: 'k-a1', ...fields }), connect_token: token });
    const own = await create({ base_url: `${spout.url}/v1/` });
    assert.equal(own.status, 400, JSON.stringify(own.json));
    assert.match(own.json.detail, /"base_url" \(http:\/\/127\.0\.0\.1:\d+\/v1\/\) is where the proxy would send this account's credential: .* is this Spout service itself/);
    const local = await create({ base_url: `${upstream.url}/api/` });
    assert.equal(local.status, 403, JSON.stringify(local.json));
    assert.match(local.json.detail, /is on the developer's machine .*"allow_local_targets": true/);
    // The Connect Link page is the end user's too.
    const form = new URLSearchParams({ token, app: 'ledgerly', api_key: 'k', owner: 'Al', books: `${spout.url}/v1/` });
    const page = await fetch(`${spout.url}/connect/link`, { method: 'POST', body: form });
    assert.equal(page.status, 400);
    assert.match(await page.text(), /is this Spout service itself/);
    await allowLocal(true);
    try {
      assert.equal((await create({ base_url: `${upstream.url}/api/` })).status, 200);
      assert.equal((await create({ base_url: `${spout.url}/v1/` })).status, 400);
    } finally {
      await allowLocal(false);
    }
  });

  it('keeps the proxy off this machine unless the project allows it, and off this Spout always, redirects and all', async () => {
    const token = await tokenOf('p1');
    const plain = await asUser(token, 'POST', '/accounts', { app_slug: 'ledgerly', cfmap_json: JSON.stringify({ api_key: 'sk-p0' }), connect_token: token });
    for (const [url, status] of [
      [`${upstream.url}/things`, 403],
      [`${spout.url}/v1/settings/connect`, 400],
    ] as const) {
      const refused = await failure(pd.proxy.get({ url, externalUserId: 'p1', accountId: plain.json.id }, once));
      assert.equal(refused.statusCode, status, `${url}: ${JSON.stringify(refused.body)}`);
    }
    assert.equal(upstream.hits.length, 0, 'nothing reached the upstream');
    await allowLocal(true);
    const made = await asUser(token, 'POST', '/accounts', { app_slug: 'ledgerly', cfmap_json: JSON.stringify({ api_key: 'sk-p1', base_url: `${upstream.url}/api/` }), connect_token: token });
    assert.equal(made.status, 200, JSON.stringify(made.json));
    const accountId = made.json.id as string;
    try {
      assert.deepEqual(await pd.proxy.get({ url: '/things', externalUserId: 'p1', accountId }), { path: '/api/things', auth: 'Bearer sk-p1' });
      const own = await failure(pd.proxy.get({ url: `${spout.url}/v1/settings/connect`, externalUserId: 'p1', accountId }, once));
      assert.equal(own.statusCode, 400, 'this Spout stays refused');
      assert.match(JSON.stringify(own.body), /is this Spout service itself/);
      // An upstream that redirects here is caught where the connection is made.
      const hits = upstream.hits.length;
      const redirected = await failure(pd.proxy.get({ url: `${upstream.url}/redirect?to=${encodeURIComponent(`${spout.url}/v1/settings/connect`)}`, externalUserId: 'p1', accountId }, once));
      assert.equal(redirected.statusCode, 403, JSON.stringify(redirected.body));
      assert.equal(upstream.hits.length, hits + 1, 'the upstream was reached, Spout was not');
    } finally {
      await allowLocal(false);
    }
    const local = await failure(pd.proxy.get({ url: '/things', externalUserId: 'p1', accountId }, once));
    assert.equal(local.statusCode, 403);
    assert.match(JSON.stringify(local.body), /which the proxy does not call for project proj_local.*allow_local_targets/);
  });
});
