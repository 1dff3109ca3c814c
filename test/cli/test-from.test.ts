// `spout test --from INVOCATION_ID [FILE]`: a source deployed with `spout deploy` takes a request
// (and calls an API on this machine); the test written from that run passes under `spout test`,
// offline, with the API gone. Then a second test of the same run keeps the first, bad usage exits
// 2 and an unknown run 1.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** A webhook source that looks the order up in an API, emits the whole request with what it found, and answers 201. */
const ORDER_HOOK = `export default {
  name: "Order Hook",
  version: "0.1.0",
  props: {
    http: { type: "$.interface.http", customResponse: true },
    api: { type: "string", label: "API" },
  },
  async run(event) {
    const res = await fetch(this.api + "/orders/" + event.body.id);
    const order = await res.json();
    this.$emit({ method: event.method, path: event.path, query: event.query, headers: event.headers, body: event.body, order, day: new Date().toISOString().slice(0, 10) }, { id: event.body.id, summary: "order " + event.body.id + " of " + order.customer });
    this.http.respond({ status: 201, body: { ok: true } });
  },
};
`;

describe('spout test --from', () => {
  let spout: SpoutProcess;
  let api: Receiver;
  let env: Record<string, string | undefined>;
  const dir = tempDir('spout-cli-from-');
  before(async () => {
    spout = await startSpout();
    api = await startReceiver();
    api.respond = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 7, customer: 'Ada' }) });
    env = cliEnv(spout, { CI: undefined });
  });
  after(async () => {
    await spout.stop();
    await api.close();
  });

  it('writes a test of an HTTP run that spout test passes offline, and keeps it when asked again', async () => {
    fs.writeFileSync(path.join(dir, 'order-hook.mjs'), ORDER_HOOK);
    const apiBase = api.url.replace(/\/hook$/, '');
    const source = await cliJson(['deploy', 'order-hook.mjs', '--props', JSON.stringify({ api: apiBase }), '--no-follow'], env, { cwd: dir });
    const endpoint = source.configured_props.http.endpoint_url as string;
    const answer = await fetch(`${endpoint}/orders?src=shop`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-shop': 'eu' }, body: JSON.stringify({ id: 7 }) });
    assert.equal(answer.status, 201);
    const [run] = await waitFor(
      async () => {
        const runs = await cliJson(['invocations', source.id], env);
        return runs.length === 1 ? runs : null;
      },
      10_000,
      'the run',
    );

    const wrote = await cli(['test', '--from', run.id, 'order-hook.mjs'], env, { cwd: dir });
    assert.equal(wrote.code, 0, wrote.stderr);
    assert.match(wrote.stdout, /Wrote order-hook\.test\.mjs/);
    assert.match(wrote.stdout, /Wrote order-hook\.cassette\.json/);
    assert.match(wrote.stdout, /Run it: spout test order-hook\.test\.mjs/);
    const test = fs.readFileSync(path.join(dir, 'order-hook.test.mjs'), 'utf8');
    assert.match(test, /"x-shop": "eu"/);
    assert.doesNotMatch(test, /user-agent|"connection"/, 'hop-by-hop and volatile headers are not replayed');
    assert.match(test, /path: "\/orders\?src=shop"/);
    assert.match(test, /assert\.equal\(r\.status, 201\)/);
    const cassette = JSON.parse(fs.readFileSync(path.join(dir, 'order-hook.cassette.json'), 'utf8'));
    assert.equal(cassette.matching.order, 'sequence');
    assert.deepEqual(
      cassette.entries.map((e: { request: { method: string; url: string } }) => `${e.request.method} ${e.request.url}`),
      [`GET ${apiBase}/orders/7`],
    );

    // Offline: the API is gone, the cassette answers.
    await api.close();
    const passed = await cli(['test', 'order-hook.test.mjs'], env, { cwd: dir, timeoutMs: 60_000 });
    assert.equal(passed.code, 0, `${passed.stdout}\n${passed.stderr}\n${test}`);
    assert.match(passed.stdout, /1 passed, 0 failed/);

    // Again: the test and cassette stay; the new test is named by the run and passes too.
    const again = await cli(['test', '--from', run.id, 'order-hook.mjs'], env, { cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`Wrote order-hook\\.from-${run.id}\\.test\\.mjs`));
    assert.match(again.stdout, /Kept order-hook\.cassette\.json \(0 of the run's 1 calls added\)/);
    assert.equal(fs.readFileSync(path.join(dir, 'order-hook.test.mjs'), 'utf8'), test);
    const both = await cli(['test'], env, { cwd: dir, timeoutMs: 60_000 });
    assert.equal(both.code, 0, `${both.stdout}\n${both.stderr}`);
    assert.match(both.stdout, /2 passed, 0 failed/);
  });

  it('without FILE, writes beside the deployed file, else into a folder named by the source with its code', async () => {
    const [run] = await cliJson(['invocations', 'order-hook'], env);
    const elsewhere = tempDir('spout-cli-from-else-');
    const wrote = await cli(['test', '--from', run.id], env, { cwd: elsewhere });
    assert.equal(wrote.code, 0, wrote.stderr);
    assert.match(wrote.stdout, /Wrote the code source order-hook runs to order-hook\/order-hook\.mjs/);
    assert.match(wrote.stdout, /Run it: spout test order-hook\/order-hook\.test\.mjs/);
    assert.equal(fs.readFileSync(path.join(elsewhere, 'order-hook', 'order-hook.mjs'), 'utf8'), ORDER_HOOK);
    assert.ok(fs.existsSync(path.join(elsewhere, 'order-hook', 'order-hook.cassette.json')));
  });

  it('exits 2 on bad usage and 1 for a run the service does not have', async () => {
    const usage = await cli(['test', '--from', 'nope'], env, { cwd: dir });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--from: "nope" is not an invocation id/);
    const mixed = await cli(['test', '--from', 'inv_x1', '--watch'], env, { cwd: dir });
    assert.equal(mixed.code, 2);
    assert.match(mixed.stderr, /leave out --watch/);
    const missingFile = await cli(['test', '--from', 'inv_x1', 'gone.mjs'], env, { cwd: dir });
    assert.equal(missingFile.code, 2);
    assert.match(missingFile.stderr, /gone\.mjs: no such component file/);
    const unknown = await cli(['test', '--from', 'inv_doesnotexist'], env, { cwd: dir });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no recorded run inv_doesnotexist; list a source's runs with "spout invocations SRC"/);
  });
});
