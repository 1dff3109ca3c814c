// Webhook CRUD and subscription management through /v1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

describe('webhooks and subscriptions', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  before(async () => {
    spout = await startSpout();
    receiver = await startReceiver();
  });
  after(async () => {
    await spout.stop();
    await receiver.close();
  });

  it('creates, lists, reads, updates and deletes webhooks', async () => {
    const created = await spout.api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/a', name: 'first', description: 'd' });
    const id = created.json.data.id;
    assert.equal(created.json.data.active, true);
    const second = await spout.api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/b' });
    assert.equal(second.json.data.name, 'http://127.0.0.1:9/b', 'name defaults to the URL');

    const list = await spout.api('GET', '/v1/users/me/webhooks?limit=1');
    assert.equal(list.json.page_info.count, 1);
    assert.equal(list.json.data[0].id, second.json.data.id, 'newest first');
    const next = await spout.api('GET', `/v1/users/me/webhooks?limit=1&before=${list.json.page_info.end_cursor}`);
    assert.equal(next.json.data[0].id, id);

    const updated = await spout.api('PUT', `/v1/webhooks/${id}?name=renamed&active=false`);
    assert.equal(updated.json.data.name, 'renamed');
    assert.equal(updated.json.data.active, false);
    assert.equal((await spout.api('GET', `/v1/webhooks/${id}`)).json.data.name, 'renamed');
    assert.equal((await spout.api('PUT', `/v1/webhooks/${id}`, { url: 'mailto:x' })).status, 400);

    assert.equal((await spout.api('DELETE', `/v1/webhooks/${id}`)).status, 204);
    assert.equal((await spout.api('GET', `/v1/webhooks/${id}`)).status, 404);
  });

  it('holds deliveries while a webhook is inactive and sends them once it is active again', async () => {
    const source = await deploySource(spout);
    const hook = await spout.api('POST', '/v1/webhooks', { url: receiver.url });
    const id = hook.json.data.id;
    await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: id });
    await spout.api('PUT', `/v1/webhooks/${id}`, { active: false });
    await fetch(source.endpoint, { method: 'POST', body: 'held' });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.received.length, 0);
    const messages = await spout.api('GET', `/v1/webhooks/${id}/messages`);
    assert.equal(messages.json.data[0].status, 'pending');
    await spout.api('PUT', `/v1/webhooks/${id}`, { active: true });
    await waitFor(() => receiver.received.length === 1, 10_000, 'the held delivery');
  });

  it('returns an existing subscription instead of a duplicate, and deletes it', async () => {
    const source = await deploySource(spout);
    const hook = await spout.api('POST', '/v1/webhooks', { url: receiver.url });
    const params = { emitter_id: source.id, listener_id: hook.json.data.id, event_name: 'alerts' };
    const a = await spout.api('POST', '/v1/subscriptions', params);
    const b = await spout.api('POST', '/v1/subscriptions', params);
    assert.equal(a.json.data.id, b.json.data.id);
    assert.equal(a.json.data.event_name, 'alerts');
    assert.equal((await spout.api('DELETE', '/v1/subscriptions', params)).status, 204);
    assert.equal((await spout.api('DELETE', '/v1/subscriptions', params)).status, 404);
    const unknown = await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: 'p_missing' });
    assert.equal(unknown.status, 404, 'a listener must exist');
    assert.match(unknown.json.error, /workflow p_missing was not found/);
  });
});
