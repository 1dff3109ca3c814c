// Versions (issue 43): sources, workflows and webhooks count their changes and say who made them;
// a save based on an older version is refused with a 409 naming both, and replaces it only when
// sent again with the current version. Without base_version, updates behave as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deploySource, ECHO_SOURCE, type SpoutProcess, startSpout } from '../helpers/service';

describe('versions and stale saves', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout();
  });
  after(async () => void (await spout.stop()));

  const cli = { 'x-spout-client': 'cli' };

  it('a source counts its changes, names who made them, and refuses a save based on an older version', async () => {
    const { id } = await deploySource(spout, ECHO_SOURCE, { name: 'orders' });
    const first = (await spout.api('GET', `/v1/sources/${id}`)).json.data;
    assert.equal(first.version, 1);
    assert.equal(first.changed_by, 'api');

    // The CLI deploys new code: version 2, from the CLI.
    const v2 = await spout.api('PUT', `/v1/sources/${id}`, { component_code: ECHO_SOURCE.replace('Request echo', 'Echo v2'), base_version: 1 }, cli);
    assert.equal(v2.status, 200, JSON.stringify(v2.json));
    assert.equal(v2.json.data.version, 2);
    assert.equal(v2.json.data.changed_by, 'cli');

    // The UI still holds version 1: its save is refused, naming both versions and who made the current one.
    const stale = await spout.api('PUT', `/v1/sources/${id}`, { component_code: ECHO_SOURCE.replace('Request echo', 'Echo from the UI'), base_version: 1 }, { 'x-spout-ui': '1' });
    assert.equal(stale.status, 409);
    assert.match(stale.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.match(stale.json.detail, /source `orders` \(dc_\w+\) is at version 2 \(changed from the CLI at \d\d:\d\d:\d\d\); this change was based on version 1/);
    assert.match(stale.json.detail, /base_version 2/);
    assert.deepEqual({ ...stale.json.conflict, changed_at: 0 }, { kind: 'source', id, name: 'orders', current_version: 2, base_version: 1, changed_by: 'cli', changed_at: 0 });
    const kept = (await spout.api('GET', `/v1/sources/${id}`)).json.data;
    assert.match(kept.code, /Echo v2/, "the CLI's code is still deployed");
    assert.equal(kept.version, 2);

    // Sent again on the current version: it replaces it, and says the UI made it.
    const overwrite = await spout.api('PUT', `/v1/sources/${id}`, { component_code: ECHO_SOURCE.replace('Request echo', 'Echo from the UI'), base_version: 2 }, { 'x-spout-ui': '1' });
    assert.equal(overwrite.status, 200);
    assert.equal(overwrite.json.data.version, 3);
    assert.equal(overwrite.json.data.changed_by, 'ui');

    // Without base_version, an update replaces whatever is there, as before; props and active count too.
    const plain = await spout.api('PUT', `/v1/sources/${id}`, { active: false });
    assert.equal(plain.status, 200);
    assert.equal(plain.json.data.version, 4);
    assert.equal(plain.json.data.changed_by, 'api');
    const query = await spout.api('PUT', `/v1/sources/${id}?active=true&base_version=4`);
    assert.equal(query.json.data.version, 5, 'base_version may come in the query string');
    assert.equal((await spout.api('PUT', `/v1/sources/${id}`, { base_version: 'six' })).status, 400);
  });

  it('two saves based on the same version: one is kept, the other refused', async () => {
    const { id } = await deploySource(spout);
    const saves = await Promise.all(['A', 'B'].map((tag) => spout.api('PUT', `/v1/sources/${id}`, { component_code: ECHO_SOURCE.replace('Request echo', `Echo ${tag}`), base_version: 1 })));
    assert.deepEqual(saves.map((s) => s.status).sort(), [200, 409]);
    assert.equal((await spout.api('GET', `/v1/sources/${id}`)).json.data.version, 2);
  });

  it('a workflow refuses a save based on an older version', async () => {
    const created = await spout.api('POST', '/v1/workflows', { name: 'nightly', trigger: { type: 'manual' }, steps: [] }, cli);
    const id = created.json.data.id;
    assert.equal(created.json.data.version, 1);
    assert.equal(created.json.data.changed_by, 'cli');
    const v2 = await spout.api('PUT', `/v1/workflows/${id}`, { name: 'nightly (renamed)', base_version: 1 }, { 'x-spout-client': 'sync' });
    assert.equal(v2.json.data.version, 2);
    assert.equal(v2.json.data.changed_by, 'sync');
    const stale = await spout.api('PUT', `/v1/workflows/${id}`, { active: false, base_version: 1 });
    assert.equal(stale.status, 409);
    assert.match(stale.json.detail, /workflow `nightly \(renamed\)` \(p_\w+\) is at version 2 \(changed from sync at [\d:]+\); this change was based on version 1/);
    assert.equal(stale.json.conflict.current_version, 2);
    assert.equal((await spout.api('GET', `/v1/workflows/${id}`)).json.data.active, true, 'nothing was saved');
    const plain = await spout.api('PUT', `/v1/workflows/${id}`, { active: false });
    assert.equal(plain.json.data.version, 3);
    assert.equal(plain.json.data.active, false);
  });

  it('a webhook refuses a save based on an older version', async () => {
    const created = await spout.api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/a', name: 'hook' });
    const id = created.json.data.id;
    assert.equal(created.json.data.version, 1);
    const v2 = await spout.api('PUT', `/v1/webhooks/${id}`, { url: 'http://127.0.0.1:9/b', base_version: 1 }, { 'x-spout-client': 'dev' });
    assert.equal(v2.json.data.version, 2);
    assert.equal(v2.json.data.changed_by, 'dev');
    const stale = await spout.api('PUT', `/v1/webhooks/${id}`, { url: 'http://127.0.0.1:9/c', base_version: 1 }, { 'x-spout-ui': '1' });
    assert.equal(stale.status, 409);
    assert.match(stale.json.detail, /webhook `hook` \(wh_\w+\) is at version 2 \(changed from spout dev at [\d:]+\); this change was based on version 1/);
    assert.equal((await spout.api('GET', `/v1/webhooks/${id}`)).json.data.url, 'http://127.0.0.1:9/b');
    const overwrite = await spout.api('PUT', `/v1/webhooks/${id}`, { url: 'http://127.0.0.1:9/c', base_version: 2 });
    assert.equal(overwrite.json.data.url, 'http://127.0.0.1:9/c');
    assert.equal(overwrite.json.data.version, 3);
    assert.equal((await spout.api('PUT', `/v1/webhooks/${id}`, { name: 'plain' })).json.data.version, 4);
  });
});
