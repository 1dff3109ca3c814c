// The saved actions (GET /v1/users/me/actions, GET /v1/actions/{ref}): one entry per key with its
// versions and last run, keyless actions by id, sources left out, a registry key saved when opened,
// and a 404 that says where to look.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';

/** An action (written for this test) at a version, failing when asked. */
const action = (version: string, key = 'spout_test-echo') => `export default {
  ${key ? `key: "${key}",` : ''} name: "Echo", version: "${version}", type: "action",
  props: { fail: { type: "boolean", optional: true } },
  async run() { if (this.fail) throw new Error("asked"); return "${version}"; },
};`;

describe('API: saved actions', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout();
  });
  after(async () => {
    await spout?.stop();
  });

  it('lists one entry per key with its versions, newest first, and the last run of any version', async () => {
    const save = async (code: string) => (await spout.api('POST', '/v1/components', { component_code: code })).json.data as { id: string };
    const v1 = await save(action('0.0.1'));
    assert.equal((await spout.api('GET', '/v1/users/me/actions')).json.data[0].last_run, null, 'not run yet');
    const v2 = await save(action('0.0.2'));
    const keyless = await save(action('1.0.0', ''));
    await save('export default { name: "A source", version: "0.0.1", props: {}, async run() {} };');
    assert.equal((await spout.api('POST', '/v1/actions/run', { id: v1.id, configured_props: { fail: true } })).status, 200);

    const list = await spout.api('GET', '/v1/users/me/actions');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.json.data.map((a: { ref: string }) => a.ref),
      [keyless.id, 'spout_test-echo'],
      'newest saved first; the source is not an action',
    );
    const echo = list.json.data[1];
    assert.equal(echo.id, v2.id);
    assert.equal(echo.version, '0.0.2');
    assert.deepEqual(
      echo.versions.map((v: { id: string }) => v.id),
      [v2.id, v1.id],
    );
    assert.equal(echo.registry, false);
    assert.equal(echo.last_run.status, 'error');
    assert.equal(echo.last_run.component_id, v1.id);

    assert.equal((await spout.api('GET', '/v1/actions/spout_test-echo')).json.data.id, v2.id);
    assert.equal((await spout.api('GET', `/v1/actions/${v1.id}`)).json.data.ref, 'spout_test-echo', 'an older version finds its action');
    const missing = await spout.api('GET', '/v1/actions/spout_test-nothing');
    assert.equal(missing.status, 404);
    assert.match(missing.json.detail, /no saved or registry action spout_test-nothing/);
  });

  it("saves a registry action when it is opened by key, and lists it as the registry's", async () => {
    const opened = await spout.api('GET', '/v1/actions/formatting-format-text');
    assert.equal(opened.status, 200);
    assert.equal(opened.json.data.registry, true);
    const listed = (await spout.api('GET', '/v1/users/me/actions')).json.data as Array<{ ref: string }>;
    assert.ok(listed.some((a) => a.ref === 'formatting-format-text'));
  });
});
