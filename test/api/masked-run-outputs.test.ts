// What an action returns, exports and `$.send`s, and what a prop's options() throws, is shown and
// recorded with its account's key masked — in its answer, its record, the outbox, a workflow's runs
// and every file of the data dir — while the sends themselves and a workflow's next step get the key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filesHolding } from '../helpers/files-holding';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const KEY = 'keyring-out-KEY-7731';

/** An action in the registry's shape, written for this test: it hands its key back every way it can. */
const ECHO = `export default {
  key: "keyring-echo", name: "Echo", version: "0.0.1", type: "action",
  props: { keyring: { type: "app", app: "keyring" }, to: { type: "string" } },
  async run({ $ }) {
    const key = this.keyring.$auth.api_key;
    $.export("token", key);
    $.export("request", { headers: { Authorization: "Bearer " + key, "X-Api-Key": key } });
    $.send.http({ method: "POST", url: this.to + "?api_key=" + key, data: { key } });
    $.send.email({ subject: "your key " + key, text: "it is " + key });
    return { config: { url: "https://api.keyring.test/v1/me?api_key=" + key, headers: { authorization: "Bearer " + key } }, data: { key } };
  },
};`;

/** A step with no account of its own that passes on what it is given. */
const FORWARD = `export default {
  key: "keyring-forward", name: "Forward", version: "0.0.1", type: "action",
  props: { value: { type: "string" }, to: { type: "string" } },
  async run({ $ }) {
    console.log("forwarding " + this.value);
    $.send.http({ method: "POST", url: this.to, data: { forwarded: this.value } });
    return this.value;
  },
};`;

/** An action whose prop's options fail quoting the key, as a failed API call's message does. */
const PICKER = `export default {
  key: "keyring-picker", name: "Picker", version: "0.0.1", type: "action",
  props: {
    keyring: { type: "app", app: "keyring" },
    project: { type: "string", label: "Project", async options() { throw new Error("GET https://api.keyring.test/projects?api_key=" + this.keyring.$auth.api_key + " failed: 401"); } },
    team: { type: "string", label: "Team", async options() { return [{ label: "team of " + this.keyring.$auth.api_key, value: "t1" }]; } },
  },
  async run() { return this.project; },
};`;

/** The JSON of an answer, failing the test when it holds the key. */
function clean(what: string, value: unknown): string {
  const text = JSON.stringify(value);
  assert.ok(!text.includes(KEY), `${what} holds the key: ${text}`);
  return text;
}

describe('secrets in actions’ outputs, sends and options are masked', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  let account: string;
  before(async () => {
    [spout, receiver] = await Promise.all([startSpout(), startReceiver()]);
    const created = await spout.api('POST', '/v1/accounts', { app: 'keyring', name: 'Keyring', credentials: { api_key: KEY } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    account = created.json.data.id;
  });
  after(async () => {
    await Promise.all([spout.stop(), receiver.close()]);
  });

  it('an action’s return value, exports and $.send records; the send itself carries the key', async () => {
    const ran = await spout.api('POST', '/v1/actions/run', { component_code: ECHO, configured_props: { keyring: { authProvisionId: account }, to: receiver.url } });
    assert.equal(ran.status, 200, JSON.stringify(ran.json));
    assert.equal(ran.json.error, null, JSON.stringify(ran.json.error));
    clean('the run’s answer', ran.json);
    assert.equal(ran.json.exports.token, '********');
    assert.deepEqual(ran.json.exports.request, { headers: { Authorization: '********', 'X-Api-Key': '********' } });
    assert.deepEqual(ran.json.ret, { config: { url: 'https://api.keyring.test/v1/me?api_key=********', headers: { authorization: '********' } }, data: { key: '********' } });
    const email = ran.json.sends.find((s: { kind: string }) => s.kind === 'email');
    assert.deepEqual(email.config, { subject: 'your key ********', text: 'it is ********' });
    const http = ran.json.sends.find((s: { kind: string }) => s.kind === 'http');
    assert.match(http.config.url, /\?api_key=\*{8}$/);
    assert.deepEqual(http.result, { status: 200 });
    // The send went out as the action wrote it.
    assert.deepEqual(JSON.parse(receiver.received.at(-1)!.body), { key: KEY });

    const record = await spout.api('GET', `/v1/invocations/${ran.json.invocation_id}`);
    assert.equal(record.status, 200);
    assert.equal(clean('the run’s record', record.json).includes('"token":"********"'), true);
    const outbox = await spout.api('GET', '/v1/outbox');
    assert.equal(outbox.status, 200);
    assert.ok(clean('the outbox', outbox.json).includes('your key ********'));
  });

  it('an options() error and options quoting the key', async () => {
    const saved = await spout.api('POST', '/v1/components', { component_code: PICKER });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    const configured_props = { keyring: { authProvisionId: account } };
    const failed = await spout.api('POST', '/v1/components/configure', { id: saved.json.data.id, prop_name: 'project', configured_props });
    assert.equal(failed.status, 200, JSON.stringify(failed.json));
    clean('the failed options', failed.json);
    assert.match(failed.json.errors[0], /projects\?api_key=\*{8} failed: 401/);
    const listed = await spout.api('POST', '/v1/components/configure', { id: saved.json.data.id, prop_name: 'team', configured_props });
    assert.equal(listed.status, 200, JSON.stringify(listed.json));
    clean('the options', listed.json);
    assert.deepEqual(listed.json.options, [{ label: 'team of ********', value: 't1' }]);
  });

  it('a workflow hands the key to its next step, and shows every step masked', async () => {
    const steps = [
      { name: 'echo', component_code: ECHO, configured_props: { keyring: { authProvisionId: account }, to: receiver.url } },
      { name: 'forward', component_code: FORWARD, configured_props: { value: '{{steps.echo.token}}', to: receiver.url } },
    ];
    const created = await spout.api('POST', '/v1/workflows', { name: 'Pass the key', trigger: { type: 'manual' }, steps });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const wf = created.json.data;
    const ran = await spout.api('POST', `/v1/workflows/${wf.id}/run`, { event: { n: 1 } });
    assert.equal(ran.status, 200, JSON.stringify(ran.json));
    assert.equal(ran.json.data.status, 'success', JSON.stringify(ran.json.data));
    clean('the workflow run', ran.json);
    const forward = ran.json.data.steps[1];
    assert.equal(forward.ret, '********');
    assert.deepEqual(forward.logs, [{ level: 'log', message: 'forwarding ********' }]);
    // The second step got the key itself, and sent it.
    await waitFor(() => receiver.received.find((r) => r.body.includes('forwarded')), 10_000, 'the forwarded send');
    assert.deepEqual(JSON.parse(receiver.received.find((r) => r.body.includes('forwarded'))!.body), { forwarded: KEY });

    const runs = await spout.api('GET', `/v1/workflows/${wf.id}/runs`);
    clean('the workflow’s runs', runs.json);
    const record = await spout.api('GET', `/v1/invocations/${forward.invocation_id}`);
    assert.equal(record.status, 200);
    clean('the forward step’s record (its steps input too)', record.json);
  });

  it('leaves the key in no file of the data dir', async () => {
    // Stored records and log files are written behind the answers; stopping flushes them.
    await spout.stop();
    assert.deepEqual(filesHolding(spout.dataDir, KEY), []);
  });
});
