// The test written from a recorded run, for each trigger: what it replays (an HTTP request less its
// volatile headers, a timer, a hook), what it expects (error, status, events, with the request's
// headers and URL as the test sends them), its cassette; the runs it refuses; cassettes merged.
// Timer, hook and HTTP tests (an account, a secret, a cassette) are then run by `spout test`
// against real components.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { InvocationView } from '../../../runtime/contract/invocation-api';
import type { OutgoingCall } from '../../../runtime/contract/network-api';
import { MASK } from '../../../runtime/props/secret/secret-values';
import { emptyCassette } from '../../../runtime/store/cassette-store';
import { mergeCassettes, type RunTestInput, testFromRun, UntestableRun } from '../../../runtime/testing/test-from-run';
import { cli, cliEnv } from '../../helpers/cli';
import { tempDir } from '../../helpers/service';

const STARTED = Date.parse('2026-03-04T05:06:07.089Z');
const ENDPOINT = 'http://127.0.0.1:7620/e/en_abc';

function run(over: Partial<InvocationView>): InvocationView {
  return { id: 'inv_t1', owner_id: 'dc_1', trigger: 'timer', hook: null, started_at: STARTED, duration_ms: 3, status: 'ok', request: null, response: null, event: null, listened_to: null, logs: [], emits: [], error: null, calls: [], result: null, replay_of: null, ...over };
}

function call(url: string, served_by: OutgoingCall['served_by'] = 'live', answered = true): OutgoingCall {
  const body = (text: string) => ({ body: text, body_encoding: 'utf8' as const, body_size: text.length, body_truncated: false });
  return { request: { method: 'GET', url, headers: { authorization: MASK }, ...body('') }, response: answered ? { status: 200, headers: { 'content-type': 'application/json' }, ...body('{"ok":1}') } : null, error: answered ? null : 'ECONNRESET', duration_ms: 1, served_by, entry: null };
}

function input(over: Partial<RunTestInput>): RunTestInput {
  return { run: run({}), events: [], file: 'orders.mjs', configured: {}, accounts: {}, ...over };
}

const HEADERS = { host: '127.0.0.1:7620', 'user-agent': 'curl/8', 'content-type': 'application/json', 'content-length': '8', connection: 'keep-alive', 'accept-encoding': 'gzip', 'x-forwarded-for': '10.0.0.1', 'x-signature': 'abc' };

describe('testFromRun', () => {
  it('replays an HTTP run: its request less the volatile headers, its status and events as the test will see them, its answered calls as the cassette', () => {
    const request = { method: 'POST', path: '/orders', query: 'a=1', headers: HEADERS, endpoint_url: ENDPOINT, body: '{"id":7}', body_encoding: 'utf8' as const, body_size: 8, body_truncated: false };
    const recorded = { headers: HEADERS, url: `${ENDPOINT}/orders?a=1`, other: `${ENDPOINT}x` };
    const generated = testFromRun(
      input({
        run: run({
          trigger: 'http',
          request,
          response: { status: 202, headers: {}, from: 'component', body: '', body_encoding: 'utf8', body_size: 0, body_truncated: false },
          emits: [{ event_id: '1-0', dropped: false, name: null, summary: 'order 7', webhooks: [] }],
          calls: [call('https://api.example.com/orders/7'), call('https://api.example.com/x', 'fault'), call('https://api.example.com/y', 'live', false)],
        }),
        events: [{ event: recorded, summary: 'order 7' }],
        configured: { http: { endpoint_url: ENDPOINT }, region: 'eu', token: MASK, shop: { authProvisionId: 'apn_1' } },
        accounts: { apn_1: { access_token: MASK } },
      }),
    );
    assert.deepEqual(
      generated.files.map((f) => f.name),
      ['orders.test.mjs', 'orders.cassette.json'],
    );
    const test = generated.files[0]!.content;
    assert.match(test, /import \{ loadSource \} from "spout\/testing";/);
    assert.match(test, /loadSource\("\.\/orders\.mjs", \{\n {4}now: "2026-03-04T05:06:07\.089Z",\n {4}props: \{\n {6}region: "eu",\n {6}token: "\*{8}"\n {4}\},\n {4}accounts: \{\n {6}shop: \{\n {8}access_token: "\*{8}"/);
    assert.doesNotMatch(test, /cassette:/, 'the default cassette, NAME.cassette.json beside the component');
    assert.match(test, /src\.http\(\{\n {6}method: "POST",\n {6}path: "\/orders\?a=1",/);
    assert.match(test, /body: "\{\\"id\\":7\}"/);
    const sent = /headers: (\{[^}]*\})/.exec(test)![1]!;
    assert.deepEqual(Object.keys(JSON.parse(sent.replace(/^(\s*)([\w-]+): /gm, '$1"$2": '))), ['content-type', 'x-signature']);
    assert.match(test, /assert\.equal\(r\.error, null, r\.error\?\.stack\);\n {4}assert\.equal\(r\.status, 202\);/);
    const expected = /r\.events\.map\(\(e\) => \(\{ summary: e\.metadata\.summary, event: e\.event \}\)\), (\[[\s\S]*?\n {4}\])\);/.exec(test)![1]!;
    const events = JSON.parse(expected.replace(/^(\s*)([A-Za-z_$][\w$]*): /gm, '$1"$2": '));
    assert.deepEqual(events, [{ summary: 'order 7', event: { headers: { host: 'test.spout.invalid', 'content-type': 'application/json', 'x-signature': 'abc', 'content-length': '8' }, url: 'https://test.spout.invalid/e/orders/http/orders?a=1', other: `${ENDPOINT}x` } }]);
    const cassette = JSON.parse(generated.files[1]!.content);
    assert.equal(cassette.matching.order, 'sequence');
    assert.deepEqual(
      cassette.entries.map((e: { request: { url: string }; recorded_at: number }) => [e.request.url, e.recorded_at]),
      [['https://api.example.com/orders/7', STARTED]],
    );
    assert.match(generated.warnings.join('\n'), /secret props and account credentials are \*{8}/);
  });

  it('replays a timer or run-now run with timer() and a hook by name, expects a thrown error by its message, and uses no cassette when the run made no calls', () => {
    for (const trigger of ['timer', 'run_now'] as const) {
      const test = testFromRun(input({ run: run({ trigger }) })).files[0]!.content;
      assert.match(test, /const r = await src\.timer\(\);/);
      assert.match(test, /cassette: false/);
      assert.doesNotMatch(test, /r\.status/);
    }
    const hook = testFromRun(input({ run: run({ trigger: 'hook', hook: 'deactivate', status: 'error', error: { name: 'Error', message: 'no "webhook" to remove', stack: null, full_stack: null } }) }));
    assert.equal(hook.files.length, 1);
    assert.match(hook.files[0]!.content, /const r = await src\.hook\("deactivate"\);/);
    assert.match(hook.files[0]!.content, /assert\.equal\(r\.error\?\.message, "no \\"webhook\\" to remove"\);/);
    const timedOut = testFromRun(input({ run: run({ status: 'timeout' }) }));
    assert.match(timedOut.files[0]!.content, /assert\.notEqual\(r\.error, null\);/);
    assert.match(timedOut.warnings.join('\n'), /timing out/);
  });

  it('compares only summaries when the store lost an event, and warns of emits dropped by dedupe', () => {
    const emits = [
      { event_id: '1-0', dropped: false, name: null, summary: 'one', webhooks: [] },
      { event_id: null, dropped: true, name: null, summary: 'seen', webhooks: [] },
      { event_id: '1-1', dropped: false, name: null, summary: 'two', webhooks: [] },
    ];
    const generated = testFromRun(input({ run: run({ emits }), events: [{ event: { n: 1 }, summary: 'one' }, null] }));
    assert.match(generated.files[0]!.content, /r\.events\.map\(\(e\) => e\.metadata\.summary\), \[\n {6}"one",\n {6}"two"\n {4}\]\);/);
    assert.match(generated.warnings.join('\n'), /1 emit was dropped by dedupe/);
  });

  it('compares the first events only when the record counted the rest of its emits, and says so', () => {
    const emits = [{ event_id: '1-0', dropped: false, name: null, summary: 'one', webhooks: [] }];
    const generated = testFromRun(input({ run: run({ emits, emits_omitted: { stored: 4, dropped: 1 } }), events: [{ event: { n: 1 }, summary: 'one' }] }));
    assert.match(generated.files[0]!.content, /r\.events\.slice\(0, 1\)\.map\(\(e\) => \(\{ summary: e\.metadata\.summary, event: e\.event \}\)\)/);
    assert.match(generated.warnings.join('\n'), /lists its first 1 emits of 6: the test compares the first events only/);
  });

  it("refuses runs started by another source's event and action runs, saying why", () => {
    assert.throws(
      () => testFromRun(input({ run: run({ trigger: 'event' }) })),
      (err: Error) => err instanceof UntestableRun && /another source's event/.test(err.message),
    );
    assert.throws(
      () => testFromRun(input({ run: run({ trigger: 'action' }) })),
      (err: Error) => err instanceof UntestableRun && /action run/.test(err.message),
    );
  });
});

describe('mergeCassettes', () => {
  it('adds the entries the existing cassette lacks, after its own, keeping its matching', () => {
    const entry = (url: string, body: string) => ({ request: { ...call(url).request }, response: { ...call(url).response!, body }, recorded_at: 1 });
    const existing = { ...emptyCassette(), matching: { ...emptyCassette().matching, order: 'content' as const }, entries: [entry('https://a.example/1', 'x')] };
    const fresh = { ...emptyCassette(), entries: [entry('https://a.example/1', 'x'), entry('https://a.example/1', 'y'), entry('https://a.example/2', 'x')] };
    const { cassette, added } = mergeCassettes(existing, fresh);
    assert.equal(added, 2);
    assert.equal(cassette.matching.order, 'content');
    assert.deepEqual(
      cassette.entries.map((e) => `${e.request.url} ${e.response.body}`),
      ['https://a.example/1 x', 'https://a.example/1 y', 'https://a.example/2 x'],
    );
  });
});

describe('tests written from runs, run', () => {
  const dir = tempDir('spout-from-run-');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('pass under spout test against the components they were written for (an HTTP run with an account and a secret too)', async () => {
    fs.writeFileSync(
      path.join(dir, 'poller.mjs'),
      `export default {
  name: "Poller", version: "0.1.0",
  props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 900 } }, label: { type: "string" } },
  hooks: { async deploy() { this.$emit({ hello: this.label }, { id: "h", summary: "hello" }); } },
  async run(event) { this.$emit({ at: new Date().toISOString(), fired: event.timestamp > 0 }, { id: "t", summary: this.label + " at " + new Date().toISOString() }); },
};
`,
    );
    const configured = { timer: { intervalSeconds: 900 }, label: 'poll' };
    const at = new Date(STARTED).toISOString();
    const timer = testFromRun(input({ file: 'poller.mjs', configured, run: run({ trigger: 'timer', emits: [{ event_id: '1-0', dropped: false, name: null, summary: `poll at ${at}`, webhooks: [] }] }), events: [{ event: { at, fired: true }, summary: `poll at ${at}` }] }));
    fs.writeFileSync(path.join(dir, 'poller.test.mjs'), timer.files[0]!.content);
    const hook = testFromRun(input({ file: 'poller.mjs', configured, run: run({ id: 'inv_t2', trigger: 'hook', hook: 'deploy', emits: [{ event_id: '1-1', dropped: false, name: null, summary: 'hello', webhooks: [] }] }), events: [{ event: { hello: 'poll' }, summary: 'hello' }] }));
    fs.writeFileSync(path.join(dir, 'poller.from-inv_t2.test.mjs'), hook.files[0]!.content);

    // An HTTP run of a source with an app prop and a secret: the test's masked credentials make the calls the cassette holds.
    fs.writeFileSync(
      path.join(dir, 'shop-hook.mjs'),
      `export default {
  name: "Shop Hook", version: "0.1.0",
  props: { shop: { type: "app", app: "shop" }, http: { type: "$.interface.http" }, signing: { type: "string", secret: true } },
  async run(event) {
    const res = await fetch("https://" + this.shop.$auth.subdomain + ".shop.example/orders/" + event.body.id, { headers: { authorization: "Bearer " + this.shop.$auth.api_key, "x-signing": this.signing } });
    this.$emit(await res.json(), { summary: "order " + event.body.id });
  },
};
`,
    );
    const request = { method: 'POST', path: '/', query: '', headers: { 'content-type': 'application/json' }, endpoint_url: ENDPOINT, body: '{"id":3}', body_encoding: 'utf8' as const, body_size: 8, body_truncated: false };
    const shopCall = call('https://eu1.shop.example/orders/3');
    const http = testFromRun(
      input({
        file: 'shop-hook.mjs',
        configured: { shop: { authProvisionId: 'apn_9' }, http: { endpoint_url: ENDPOINT }, signing: MASK },
        accounts: { apn_9: { api_key: MASK, subdomain: 'eu1' } },
        run: run({
          id: 'inv_t3',
          trigger: 'http',
          request,
          response: { status: 200, headers: {}, from: 'service', body: '{"success":true}', body_encoding: 'utf8', body_size: 16, body_truncated: false },
          calls: [{ ...shopCall, request: { ...shopCall.request, headers: { authorization: MASK, 'x-signing': MASK } } }],
          emits: [{ event_id: '1-2', dropped: false, name: null, summary: 'order 3', webhooks: [] }],
        }),
        events: [{ event: { ok: 1 }, summary: 'order 3' }],
      }),
    );
    for (const f of http.files) fs.writeFileSync(path.join(dir, f.name), f.content);
    const r = await cli(['test', dir], cliEnv(null, { CI: undefined }), { timeoutMs: 60_000 });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /3 passed, 0 failed/);
  });
});
