// Issue 45: an action's test run (and a source's run) that logs its account's key and throws an error
// quoting it keeps the key out of its answer, its record, its logs and every file of the data dir.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filesHolding } from '../helpers/files-holding';
import { type SpoutProcess, startSpout } from '../helpers/service';

const KEY = 'keyring-live-KEY-5521';

/** An action in the registry's shape, written for this test: a debugging app that prints its key and fails quoting it. */
const ACTION = `export default {
  key: "keyring-leaky-action", name: "Leaky", version: "0.0.1", type: "action",
  props: { keyring: { type: "app", app: "keyring" } },
  async run({ $ }) {
    console.log("request config", JSON.stringify({ headers: { "x-api-key": this.keyring.$auth.api_key } }));
    throw new Error("401 for key " + this.keyring.$auth.api_key);
  },
};`;

/** A polling source of the same app that does the same in its run. */
const SOURCE = ACTION.replace('keyring-leaky-action', 'keyring-leaky-source').replace('type: "action"', 'type: "source"').replace('props: {', 'props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } },').replace('async run({ $ })', 'async run()');

describe('secrets in runs’ logs and errors are masked', () => {
  let spout: SpoutProcess;
  let account: string;
  before(async () => {
    spout = await startSpout();
    const created = await spout.api('POST', '/v1/accounts', { app: 'keyring', name: 'Keyring', credentials: { api_key: KEY } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    account = created.json.data.id;
  });
  after(async () => {
    await spout.stop();
  });

  it('an action test run', async () => {
    const ran = await spout.api('POST', '/v1/actions/run', { component_code: ACTION, configured_props: { keyring: { authProvisionId: account } } });
    assert.equal(ran.status, 200, JSON.stringify(ran.json));
    const answer = JSON.stringify(ran.json);
    assert.match(ran.json.error.message, /401 for key \*+/);
    assert.ok(
      ran.json.os.some((l: { message: string }) => /x-api-key.*\*\*\*/.test(l.message)),
      answer,
    );
    assert.ok(!answer.includes(KEY), answer);
    const record = await spout.api('GET', `/v1/invocations/${ran.json.invocation_id}`);
    assert.equal(record.status, 200);
    assert.match(record.json.data.error.stack, /401 for key \*+/);
    assert.ok(!JSON.stringify(record.json).includes(KEY), JSON.stringify(record.json));
  });

  it('a source run, its logs and $errors', async () => {
    const deployed = await spout.api('POST', '/v1/sources', { component_code: SOURCE, configured_props: { keyring: { authProvisionId: account } } });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
    const id = deployed.json.data.id;
    const ran = await spout.api('POST', `/v1/sources/${id}/run`, {});
    assert.equal(ran.status, 200, JSON.stringify(ran.json));
    assert.match(ran.json.data.error.message, /401 for key \*+/);
    assert.ok(!JSON.stringify(ran.json).includes(KEY));
    const record = await spout.api('GET', `/v1/invocations/${ran.json.data.invocation_id}`);
    assert.ok(!JSON.stringify(record.json).includes(KEY), JSON.stringify(record.json));
    const logs = await spout.api('GET', `/v1/sources/${id}/logs?limit=100`);
    assert.ok(
      logs.json.data.some((l: { message: string }) => l.message.includes('401 for key')),
      JSON.stringify(logs.json),
    );
    assert.ok(!JSON.stringify(logs.json).includes(KEY), JSON.stringify(logs.json));
  });

  it('leaves the key in no file of the data dir (the account’s credentials are sealed)', async () => {
    // Stored records and log files are written behind the answers; stopping flushes them.
    await spout.stop();
    assert.deepEqual(filesHolding(spout.dataDir, KEY), []);
  });
});
