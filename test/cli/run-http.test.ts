// `spout run SRC` on a source with an HTTP interface (issue 43, point 6): it sends the last request
// (or POST {} when none came), changed by --body, --method, --path, --header, or a saved payload
// (--payload, --list-payloads); it prints the answer and what the run emitted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { deploySource, type SpoutProcess, startSpout, tempDir } from '../helpers/service';

/** Emits what a request's body says. Written for this test. */
const ORDERS = `export default {
  name: "CLI orders",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    console.log("order", event.body.x);
    this.$emit({ x: event.body.x ?? null, method: event.method, path: event.path, query: event.query, sig: event.headers["x-sig"] ?? null, type: event.headers["content-type"] ?? null }, { summary: "order " + event.body.x });
  },
};
`;

describe('spout run on an HTTP source', () => {
  let spout: SpoutProcess;
  let env: ReturnType<typeof cliEnv>;
  let source: { id: string; endpoint: string };
  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
    source = await deploySource(spout, ORDERS, { name: 'cli orders' });
  });
  after(async () => void (await spout.stop()));

  it('sends the default request, then the last one, changed by options, and prints the answer and the emits', async () => {
    const first = await cli(['run', 'cli-orders'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /HTTP 200 \{"success":true\}/);
    assert.match(first.stdout, /order undefined/);
    assert.match(first.stdout, /1 event emitted/);

    await fetch(`${source.endpoint}/real`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sig': 'abc' }, body: JSON.stringify({ x: 'from curl' }) });
    const last = await cliJson(['run', 'cli-orders'], env);
    assert.equal(last.error, null);
    assert.deepEqual(last.events[0].event, { x: 'from curl', method: 'POST', path: '/real', query: {}, sig: 'abc', type: 'application/json' });
    assert.equal(last.request.path, '/real');
    assert.equal(last.response.status, 200);

    const dir = tempDir('spout-cli-run-');
    fs.writeFileSync(path.join(dir, 'order.json'), JSON.stringify({ x: 'from a file' }));
    const edited = await cliJson(['run', source.id, '--body', '@order.json', '--method', 'put', '--path', '/edited?rush=1', '--header', 'X-Sig: changed'], env, { cwd: dir });
    assert.deepEqual(edited.events[0].event, { x: 'from a file', method: 'PUT', path: '/edited', query: { rush: '1' }, sig: 'changed', type: 'application/json' }, "a --header is set over the last request's headers");
    assert.equal(edited.logs[0].message, 'order from a file');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends a saved payload and lists them; an unknown one is an error naming the fix', async () => {
    const saved = await spout.api('POST', `/v1/sources/${source.id}/payloads`, { name: 'refund', body: JSON.stringify({ x: 'refund' }) });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    const ran = await cli(['run', source.id, '--payload', 'refund'], env);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /order refund/);
    assert.match(ran.stdout, /"x": "refund"/);
    const listed = await cli(['run', source.id, '--list-payloads'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /refund\s+POST \/\s+14 bytes/);
    const unknown = await cli(['run', source.id, '--payload', 'nope'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /has no saved payload named "nope"; GET .*\/payloads lists them/);
    const both = await cli(['run', source.id, '--http', '--timer'], env);
    assert.equal(both.code, 2);
  });
});
