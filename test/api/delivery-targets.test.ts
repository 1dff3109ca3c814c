// Where webhooks may deliver (docs/security.md, "Delivery targets"): never to this service's own
// endpoints, under any name of this machine; a Connect end user (a Connect token) nowhere on this
// machine unless the project allows it.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HOPS_HEADER, MAX_DELIVERY_HOPS } from '../../runtime/contract/delivery-protocol';
import { CONNECT_REGISTRY } from '../helpers/connect';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';
import { attempts, createWebhook, messages, subscribe } from '../helpers/webhooks';

/**
 * A relay on 127.0.0.1, as a tunnel is: each request goes on to `target` with its headers and
 * body, and the target's answer comes back. Keeps the hop header of each request it relayed.
 */
async function startRelay(target: () => string): Promise<{ url: string; hops: string[]; close: () => Promise<void> }> {
  const hops: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      hops.push(String(req.headers[HOPS_HEADER]));
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const answer = await fetch(target(), { method: 'POST', headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' }).end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/relay`,
    hops,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A source that emits every event it is given (a listener). */
const PASSER_SOURCE = `
export default {
  name: "Passer",
  version: "0.1.0",
  props: {},
  async run(event) {
    this.$emit(event, { summary: "passed on" });
  },
};
`;

describe('delivery targets', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  let port: string;

  /** A Connect call as `credential` (the API key: server; a `ctok_`: the end user). */
  const connect = async (credential: string, method: string, route: string, body?: unknown) => {
    const res = await fetch(`${spout.url}/v1/connect/proj_local${route}`, {
      method,
      headers: { authorization: `Bearer ${credential}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  const tokenFor = async (user: string) => (await connect(spout.apiKey, 'POST', '/tokens', { external_user_id: user })).json.token as string;
  const accountFor = async (user: string, token: string) => {
    const made = await connect(spout.apiKey, 'POST', '/accounts', { external_user_id: user, app_slug: 'ledgerly', cfmap_json: JSON.stringify({ api_key: 'k-1', owner: user, books: 'general' }), connect_token: token });
    assert.equal(made.status, 200, JSON.stringify(made.json));
    return made.json.id as string;
  };
  const deploy = (credential: string, user: string, account: string, webhookUrl: string) => connect(credential, 'POST', '/triggers/deploy', { id: 'ledgerly-new-entry', external_user_id: user, configured_props: { ledgerly: { authProvisionId: account }, book: 'general' }, webhook_url: webhookUrl });
  const sourceCount = async () => (await spout.api('GET', '/v1/users/me/sources?limit=100')).json.data.length as number;

  before(async () => {
    spout = await startSpout({ args: ['--registry', CONNECT_REGISTRY] });
    receiver = await startReceiver();
    port = new URL(spout.url).port;
  });
  after(async () => {
    await receiver.close();
    await spout.stop();
  });

  it("refuses a webhook to this service's own endpoints under any name, on create and update", async () => {
    const { endpoint } = await deploySource(spout);
    const path = new URL(endpoint).pathname;
    for (const url of [endpoint, `http://localhost:${port}${path}`, `http://[::1]:${port}${path}`, `http://0.0.0.0:${port}${path}`]) {
      // As the reproduction sent it: the URL in the query string.
      const res = await spout.api('POST', `/v1/webhooks?url=${encodeURIComponent(url)}`);
      assert.equal(res.status, 400, url);
      assert.match(res.json.detail, new RegExp(`^url: .*this Spout service's own address \\(port ${port} on this machine\\).*POST /v1/subscriptions`));
    }
    const made = await spout.api('POST', '/v1/webhooks', { url: receiver.url });
    assert.equal(made.status, 200);
    const moved = await spout.api('PUT', `/v1/webhooks/${made.json.data.id}`, { url: endpoint });
    assert.equal(moved.status, 400);
    assert.equal((await spout.api('GET', `/v1/webhooks/${made.json.data.id}`)).json.data.url, receiver.url);
    const other = await spout.api('POST', '/v1/webhooks', { url: `http://127.0.0.1:${Number(port) === 65535 ? 1 : Number(port) + 1}/hook` });
    assert.equal(other.status, 200, 'another port of this machine is a receiver of the owner');
    // The project webhook of Connect is the owner's too.
    assert.equal((await connect(spout.apiKey, 'PUT', '/webhook', { url: endpoint })).status, 400);
  });

  it("keeps a Connect token's triggers off this machine unless the project allows it", async () => {
    const token = await tokenFor('eve');
    const account = await accountFor('eve', token);
    const before = await sourceCount();
    const refused = await deploy(token, 'eve', account, receiver.url);
    assert.equal(refused.status, 403, JSON.stringify(refused.json));
    assert.match(refused.json.detail, /^webhook_url: .*a Connect token may not send deliveries there.*"allow_local_targets": true/);
    assert.equal(await sourceCount(), before, 'nothing deployed');

    // Server credentials are the developer's: a receiver on localhost is the product.
    const server = await deploy(spout.apiKey, 'eve', account, receiver.url);
    assert.equal(server.status, 200, JSON.stringify(server.json));
    const trigger = server.json.data.id as string;
    const moved = await connect(token, 'PUT', `/deployed-triggers/${trigger}/webhooks`, { webhook_urls: [`http://localhost:${receiver.port}/other`] });
    assert.equal(moved.status, 403);
    assert.match(moved.json.detail, /^webhook_urls: /);

    // Allowed by the project (with server credentials only): loopback, but never this service.
    assert.equal((await connect(token, 'PATCH', '/projects/proj_local', { allow_local_targets: true })).status, 403);
    const allowed = await connect(spout.apiKey, 'PATCH', '/projects/proj_local', { allow_local_targets: true });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.json.allow_local_targets, true);
    const user = await deploy(token, 'eve', account, receiver.url);
    assert.equal(user.status, 200, JSON.stringify(user.json));
    const self = await connect(token, 'PUT', `/deployed-triggers/${trigger}/webhooks`, { webhook_urls: [`http://127.0.0.1:${port}/e/en_x`] });
    assert.equal(self.status, 400);
    assert.match(self.json.detail, /this Spout service's own address/);
    assert.equal((await connect(spout.apiKey, 'PATCH', '/projects/proj_local', { allow_local_targets: false })).json.allow_local_targets, false);
  });

  it('ends a loop through a relay: the delivery past the limit is refused with the reason in its attempt log', async () => {
    let endpoint = '';
    const relay = await startRelay(() => endpoint);
    const source = await deploySource(spout);
    endpoint = source.endpoint;
    const webhook = await createWebhook(spout, relay.url, { retry_schedule: [] });
    await subscribe(spout, source.id, webhook.id);
    assert.equal((await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"start":1}' })).status, 200);

    // Each delivery came back as a run that emitted once more, until the refused one.
    const refused = await waitFor(async () => (await messages(spout, webhook.id, 'failed')).data[0], 20_000, 'the refused delivery');
    const [attempt] = await attempts(spout, webhook.id, refused.id);
    assert.equal(attempt!.status_code, 409);
    assert.match(attempt!.response_body ?? '', new RegExp(`delivery loop: this request is Spout webhook delivery number ${MAX_DELIVERY_HOPS + 1} in a row`));
    assert.equal(attempt!.request_headers?.[HOPS_HEADER], String(MAX_DELIVERY_HOPS + 1));
    assert.deepEqual(
      relay.hops,
      Array.from({ length: MAX_DELIVERY_HOPS + 1 }, (_, i) => String(i + 1)),
    );
    const events = await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=100`);
    assert.equal(events.json.data.length, MAX_DELIVERY_HOPS + 1, 'the first request and one run per delivery let in');
    // The delivery before the refused one is marked once its answer, which came after, is back.
    await waitFor(async () => (await messages(spout, webhook.id, 'delivered')).total === MAX_DELIVERY_HOPS, 10_000, 'the deliveries let in');
    assert.equal((await messages(spout, webhook.id)).total, MAX_DELIVERY_HOPS + 1);
    await relay.close();
  });

  it('counts the deliveries of a loop that passes through a listening source', async () => {
    let endpoint = '';
    const relay = await startRelay(() => endpoint);
    const source = await deploySource(spout);
    endpoint = source.endpoint;
    const passer = await spout.api('POST', '/v1/sources', { component_code: PASSER_SOURCE });
    assert.equal(passer.status, 200, JSON.stringify(passer.json));
    const webhook = await createWebhook(spout, relay.url, { retry_schedule: [] });
    await subscribe(spout, source.id, passer.json.data.id);
    await subscribe(spout, passer.json.data.id, webhook.id);
    assert.equal((await fetch(endpoint, { method: 'POST', body: '{}' })).status, 200);
    const refused = await waitFor(async () => (await messages(spout, webhook.id, 'failed')).data[0], 20_000, 'the refused delivery');
    assert.equal((await attempts(spout, webhook.id, refused.id))[0]!.status_code, 409);
    assert.deepEqual(
      relay.hops,
      Array.from({ length: MAX_DELIVERY_HOPS + 1 }, (_, i) => String(i + 1)),
    );
    await relay.close();
  });

  it('answers a hop header that is not a count with 400, and one at the limit as usual', async () => {
    const { endpoint } = await deploySource(spout);
    const send = (hops: string) => fetch(endpoint, { method: 'POST', headers: { [HOPS_HEADER]: hops }, body: '{}' });
    assert.equal((await send(String(MAX_DELIVERY_HOPS))).status, 200);
    const bad = await send('0x1');
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { detail: string }).detail, new RegExp(`^${HOPS_HEADER}: "0x1" is not a count of deliveries`));
    assert.equal((await send(String(MAX_DELIVERY_HOPS + 1))).status, 409);
  });
});
