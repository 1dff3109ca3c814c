// `spout events --all --filter`, `spout events SRC --filter` and `spout logs SRC --filter`, as the
// real binary: the stream's filter language from the command line.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** Logs and emits the order it is sent. Written for this test. */
const SHOP = (name: string) => `export default {
  name: "${name}",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    console.log("order " + event.body.n + " for " + event.body.amount);
    this.$emit(event.body, { id: String(event.body.n), summary: "${name} order " + event.body.n });
  },
};
`;

describe('spout events and logs --filter', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  let shop: { id: string; endpoint: string };
  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
    shop = await deploySource(spout, SHOP('Shop'), { name: 'shop' });
    const market = await deploySource(spout, SHOP('Market'), { name: 'market' });
    const send = (endpoint: string, body: unknown) => fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await send(shop.endpoint, { n: 1, amount: 20 });
    await send(shop.endpoint, { n: 2, amount: 80 });
    await send(market.endpoint, { n: 3, amount: 95 });
    await waitFor(async () => (await spout.api('GET', '/v1/stream?filter=kind:event')).json.data.length === 3, 10_000, 'three events');
  });
  after(async () => void (await spout.stop()));

  it('lists events of every source matching a filter (spout events --all --filter)', async () => {
    const rows = await cliJson(['events', '--all', '--filter', 'body.amount>50'], env);
    assert.deepEqual(
      rows.map((r: { summary: string; kind: string }) => `${r.kind} ${r.summary}`),
      ['event Market order 3', 'event Shop order 2'],
    );
    const all = await cliJson(['events', '--all'], env);
    assert.equal(all.length, 3);
    assert.ok(all.every((r: { kind: string }) => r.kind === 'event'));
    const text = await cli(['events', '--all', '--filter', 'source:market'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /event\s+market\s+none\s+POST \/ → 200\s+Market order 3/);
    assert.doesNotMatch(text.stdout, /Shop order/);
  });

  it('lists runs and events of everything, filtered (spout stream --filter)', async () => {
    const rows = await cliJson(['stream', '--filter', 'kind:run source:shop'], env);
    assert.deepEqual(
      rows.map((r: { kind: string; target: { name: string }; status: string }) => `${r.kind} ${r.target.name} ${r.status}`),
      ['run shop ok', 'run shop ok'],
    );
    const text = await cli(['stream', '-n', '100'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout.trim().split('\n').length, 6, 'three runs and three events');
    assert.match(text.stdout, /run\s+market\s+ok\s+POST \/ → 200/);
  });

  it("filters one source's events (spout events SRC --filter)", async () => {
    const events = await cliJson(['events', 'shop', '--filter', 'body.amount<50'], env);
    assert.deepEqual(
      events.map((e: { metadata: { summary: string } }) => e.metadata.summary),
      ['Shop order 1'],
    );
  });

  it("filters a source's log lines (spout logs SRC --filter)", async () => {
    const lines = await waitFor(
      async () => {
        const got = await cliJson(['logs', 'shop', '--filter', '"for 80"'], env);
        return got.length === 1 ? got : null;
      },
      10_000,
      'the line of order 2',
    );
    assert.equal(lines[0].message, 'order 2 for 80');
    assert.equal((await cliJson(['logs', 'shop', '--filter', 'body.amount>10'], env)).length, 2, 'other terms match the run that wrote the line');
    assert.equal((await cliJson(['logs', 'shop', '--filter', 'since:2000-01-01 until:2000-01-02'], env)).length, 0);
  });

  it('answers a filter that does not parse with the term and what is allowed', async () => {
    for (const args of [
      ['events', '--all', '--filter', 'body.amount>>5'],
      ['events', 'shop', '--filter', 'body.amount>>5'],
      ['logs', 'shop', '--filter', 'body.amount>>5'],
    ]) {
      const res = await cli(args, env);
      assert.notEqual(res.code, 0, args.join(' '));
      assert.match(res.stderr, /filter term `body.amount>>5`: > compares numbers/, args.join(' '));
    }
    const follow = await cli(['events', 'shop', '-f', '--filter', 'status:ok'], env);
    assert.notEqual(follow.code, 0);
    assert.match(follow.stderr, /-f follows one source without a filter/);
  });
});
