// GET /v1/invocations/{id}/test: the files of a test of a source's run, named by the component's
// file; its props and accounts from the source's configuration with credentials masked (as the
// recorded calls hold them); bad input
// answered 4xx with a message.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const SECRET = 'sk_live_do_not_leak_4242';

/** An HTTP source with a secret prop, a plain prop and an app prop. Written for this test. */
const CONFIGURED = `export default {
  name: "Configured",
  version: "0.1.0",
  props: {
    acme: { type: "app", app: "acme" },
    http: { type: "$.interface.http" },
    token: { type: "string", secret: true },
    region: { type: "string" },
  },
  async run(event) {
    this.$emit({ region: this.region, got: event.body }, { id: String(event.body.n), summary: "n=" + event.body.n });
  },
};
`;

describe('GET /v1/invocations/{id}/test', () => {
  let spout: SpoutProcess;
  let source: { id: string; configured_props: { http: { endpoint_url: string } } };
  before(async () => {
    spout = await startSpout();
    const account = await spout.api('POST', '/v1/accounts', { app: 'acme', credentials: { api_key: SECRET, subdomain: 'shop1' } });
    const res = await spout.api('POST', '/v1/sources', { component_code: CONFIGURED, component_filename: 'configured.mjs', configured_props: { acme: { authProvisionId: account.json.data.id }, token: SECRET, region: 'eu' } });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    source = res.json.data;
  });
  after(async () => void (await spout.stop()));

  const runId = async (): Promise<string> => {
    await fetch(source.configured_props.http.endpoint_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: 1 }) });
    const runs = await waitFor(async () => (await spout.api('GET', `/v1/sources/${source.id}/invocations`)).json.data[0], 10_000, 'the run');
    return runs.id as string;
  };

  it('answers the test files, named by the deployed file or ?file, with props and accounts masked', async () => {
    const id = await runId();
    const res = await spout.api('GET', `/v1/invocations/${id}/test`);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const { files, warnings } = res.json.data as { files: Array<{ name: string; content: string }>; warnings: string[] };
    assert.deepEqual(
      files.map((f) => f.name),
      ['configured.test.mjs'],
      'no cassette: the run made no calls',
    );
    const test = files[0]!.content;
    assert.match(test, /loadSource\("\.\/configured\.mjs"/);
    assert.match(test, /props: \{\n\s+token: "\*{8}",\n\s+region: "eu"\n\s+\}/);
    assert.match(test, /accounts: \{\n\s+acme: \{\n\s+api_key: "\*{8}",\n\s+subdomain: "shop1"/, 'credentials masked as the recorded calls hold them, other fields kept');
    assert.doesNotMatch(test, new RegExp(SECRET));
    assert.doesNotMatch(test, /endpoint_url/);
    assert.match(test, /summary: "n=1",\n\s+event: \{\n\s+region: "eu",\n\s+got: \{\n\s+n: 1/);
    assert.ok(warnings.some((w) => /\*{8}/.test(w)));
    const renamed = await spout.api('GET', `/v1/invocations/${id}/test?file=orders.ts`);
    assert.deepEqual(
      renamed.json.data.files.map((f: { name: string }) => f.name),
      ['orders.test.mjs'],
    );
    assert.match(renamed.json.data.files[0].content, /loadSource\("\.\/orders\.ts"/);
  });

  it("answers 400 for a file that is not a component file name, 404 for an unknown run, 409 for an action's run", async () => {
    const id = await runId();
    const bad = await spout.api('GET', `/v1/invocations/${id}/test?file=../x.mjs`);
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.json), /must be a component file name such as new-order\.mjs/);
    const unknown = await spout.api('GET', '/v1/invocations/inv_nope/test');
    assert.equal(unknown.status, 404);
    const action = await spout.api('POST', '/v1/actions/run', { component_code: 'export default { name: "Act", version: "0.1.0", type: "action", props: {}, async run() { return 1; } };' });
    assert.equal(action.status, 200, JSON.stringify(action.json));
    const refused = await spout.api('GET', `/v1/invocations/${action.json.invocation_id}/test`);
    assert.equal(refused.status, 409);
    assert.match(refused.json.detail, /not of a deployed source; only a source's runs become tests/);
  });
});
