// One stream of runs and events across sources, actions and workflows (GET /v1/stream): rows of a
// source's HTTP run and its events, an action run, a workflow run; every filter key; paging; 400s
// for filters that do not parse; saved filters across a restart; the live SSE stream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';
import { readSse } from '../helpers/sse';

/** Emits the order it was sent (its amount the event's), throws on ?fail. Written for this test. */
const ORDERS = `export default {
  name: "Orders",
  version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    if (event.query.fail) throw new Error("bad order");
    this.$emit(event.body, { id: String(event.body.n), summary: "order " + event.body.n });
    this.http.respond({ status: event.body.amount > 100 ? 202 : 200, body: "ok" });
  },
};
`;

const ACTION = `export default { key: "stream_greet", name: "Greet", version: "0.0.1", type: "action", props: {}, async run({ steps }) { return "hi"; } };`;

/** A workflow's step: an action of its own. */
const STEP = ACTION.replace('stream_greet', 'stream_step').replace('Greet', 'Step');

interface Row {
  kind: string;
  id: string;
  ts: number;
  target: { type: string; id: string; name: string };
  status: string | null;
  trigger: string | null;
  method: string | null;
  path: string | null;
  response_status: number | null;
  size: number | null;
  emits: number | null;
  delivery: { state: string; attempts: number } | null;
  summary: string | null;
  run_id: string | null;
}

describe('stream', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  let source: { id: string; endpoint: string };
  let workflowId: string;
  const dataDir = tempDir();
  const stream = async (filter: string, extra = '') => {
    const res = await spout.api('GET', `/v1/stream?limit=100&filter=${encodeURIComponent(filter)}${extra}`);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json as { data: Row[]; page_info: { total_count: number; count: number; start_cursor: string | null; end_cursor: string | null } };
  };
  const ids = async (filter: string) => (await stream(filter)).data.map((r) => `${r.kind}:${r.summary ?? r.path ?? r.target.name}`);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => fetch(`${source.endpoint}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  before(async () => {
    receiver = await startReceiver();
    spout = await startSpout({ dataDir });
    source = await deploySource(spout, ORDERS, { name: 'orders' });
    const webhook = (await spout.api('POST', '/v1/webhooks', { url: receiver.url })).json.data.id;
    assert.equal((await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: webhook })).status < 300, true);
    assert.equal((await post('/orders/new', { n: 1, amount: 40, customer: { tier: 'gold' } }, { 'x-shopify-topic': 'orders/create' })).status, 200);
    assert.equal((await post('/orders/big', { n: 2, amount: 120, customer: { tier: 'silver' } })).status, 202);
    assert.equal((await post('/refunds?fail=1', { n: 3, amount: 70 })).status >= 500, true);
    const action = await spout.api('POST', '/v1/actions/run', { component_code: ACTION, component_filename: 'greet.mjs' });
    assert.equal(action.status, 200, JSON.stringify(action.json));
    workflowId = (await spout.api('POST', '/v1/workflows', { name: 'Nightly report', trigger: { type: 'manual' }, steps: [] })).json.data.id;
    assert.equal((await spout.api('POST', `/v1/workflows/${workflowId}/run`, { event: { amount: 999 } })).status, 200);
    // Both events delivered to the receiver.
    await waitFor(async () => (await stream('delivery:delivered')).data.length === 2, 10_000, 'two delivered events');
  });
  after(async () => {
    await spout.stop();
    await receiver.close();
  });

  it('lists runs and events of sources, actions and workflows together, newest first, with their fields', async () => {
    const { data, page_info } = await stream('');
    assert.equal(page_info.total_count, data.length);
    const sorted = [...data].sort((a, b) => b.ts - a.ts);
    assert.deepEqual(
      data.map((r) => r.ts),
      sorted.map((r) => r.ts),
    );
    const run = data.find((r) => r.kind === 'run' && r.path === '/orders/big')!;
    assert.deepEqual(
      { ...run, id: undefined, ts: undefined },
      {
        kind: 'run',
        id: undefined,
        ts: undefined,
        target: { type: 'source', id: source.id, name: 'orders' },
        status: 'ok',
        trigger: 'http',
        method: 'POST',
        path: '/orders/big',
        response_status: 202,
        size: Buffer.byteLength(JSON.stringify({ n: 2, amount: 120, customer: { tier: 'silver' } })),
        emits: 1,
        delivery: null,
        summary: null,
        run_id: null,
      },
    );
    const event = data.find((r) => r.kind === 'event' && r.summary === 'order 2')!;
    assert.equal(event.run_id, run.id);
    assert.deepEqual({ method: event.method, path: event.path, response_status: event.response_status, delivery: event.delivery?.state, status: event.status }, { method: 'POST', path: '/orders/big', response_status: 202, delivery: 'delivered', status: null });
    const failed = data.find((r) => r.path === '/refunds')!;
    assert.equal(failed.status, 'error');
    assert.match(failed.summary!, /bad order/);
    assert.ok(data.some((r) => r.kind === 'run' && r.target.type === 'action' && r.target.name === 'Greet' && r.trigger === 'action'));
    assert.ok(data.some((r) => r.kind === 'run' && r.target.type === 'workflow' && r.target.id === workflowId && r.target.name === 'Nightly report' && r.trigger === 'run_now'));
  });

  it('filters by every key, negated and combined', async () => {
    assert.deepEqual(await ids('kind:event'), ['event:order 2', 'event:order 1']);
    assert.deepEqual(await ids('kind:run status:error'), ['run:Error: bad order']);
    assert.deepEqual(await ids('source:ord kind:event -summary_word_absent'), ['event:order 2', 'event:order 1']);
    assert.deepEqual(await ids(`source:${source.id} kind:run trigger:http -status:error`), ['run:/orders/big', 'run:/orders/new']);
    assert.deepEqual(await ids('action:greet'), ['run:Greet']);
    assert.deepEqual(await ids('workflow:nightly'), ['run:Nightly report']);
    assert.equal((await stream('target:nightly')).data.length, 1);
    assert.equal((await stream('trigger:action')).data.length, 1);
    assert.deepEqual(await ids('kind:run method:POST path:/orders'), ['run:/orders/big', 'run:/orders/new']);
    assert.deepEqual(await ids('kind:run path:/*/new'), ['run:/orders/new']);
    assert.deepEqual(await ids('kind:run code:202'), ['run:/orders/big']);
    assert.deepEqual(await ids('kind:run code:2xx'), ['run:/orders/big', 'run:/orders/new']);
    assert.deepEqual(await ids('kind:run code>=500'), ['run:Error: bad order']);
    assert.deepEqual(await ids('header:X-Shopify-Topic=orders/create'), ['event:order 1', 'run:/orders/new']);
    assert.deepEqual(await ids('kind:run header:x-shopify-topic'), ['run:/orders/new']);
    assert.deepEqual(await ids('delivery:delivered -summary:"order 1"'.replace('-summary:"order 1"', '-"order 1"')), ['event:order 2']);
    assert.deepEqual(await ids('delivery:failed'), []);
    assert.deepEqual(await ids('GOLD'), ['event:order 1', 'run:/orders/new']);
  });

  it('filters on JSON fields of bodies, numbers as numbers', async () => {
    assert.deepEqual(await ids('kind:event body.amount>50'), ['event:order 2']);
    assert.deepEqual(await ids('body.amount>50 status:error'), ['run:Error: bad order']);
    assert.deepEqual(await ids('kind:event body.customer.tier:GOL'), ['event:order 1']);
    assert.deepEqual(await ids('kind:event body.customer.tier=gold'), ['event:order 1']);
    assert.deepEqual(await ids('kind:event body.amount!=40'), ['event:order 2']);
    assert.deepEqual(await ids('kind:event body.amount<=40'), ['event:order 1']);
    assert.deepEqual(await ids('workflow:nightly body.amount>=999'), ['run:Nightly report']);
  });

  it('filters by a time range', async () => {
    const all = (await stream('')).data;
    const oldest = all[all.length - 1]!;
    const newest = all[0]!;
    assert.equal((await stream('since:1h')).data.length, all.length);
    assert.equal((await stream(`until:${oldest.ts}`)).data.length, 0);
    assert.equal(
      (await stream(`since:${newest.ts}`)).data.every((r) => r.ts >= newest.ts),
      true,
    );
    assert.equal((await stream(`since:${new Date(Date.now() + 3_600_000).toISOString().slice(0, 16)}`)).data.length <= 1, true);
    assert.equal((await stream('since:2000-01-01 until:2000-01-02')).data.length, 0);
  });

  it('pages with cursors, older with before and newer with after', async () => {
    const all = (await stream('')).data.map((r) => r.id);
    const first = (await spout.api('GET', '/v1/stream?limit=3')).json;
    assert.deepEqual(
      first.data.map((r: Row) => r.id),
      all.slice(0, 3),
    );
    const second = (await spout.api('GET', `/v1/stream?limit=3&before=${encodeURIComponent(first.page_info.end_cursor)}`)).json;
    assert.deepEqual(
      second.data.map((r: Row) => r.id),
      all.slice(3, 6),
    );
    const back = (await spout.api('GET', `/v1/stream?limit=2&after=${encodeURIComponent(second.page_info.start_cursor)}`)).json;
    assert.deepEqual(
      back.data.map((r: Row) => r.id),
      all.slice(1, 3),
    );
    assert.equal(second.page_info.total_count, all.length);
  });

  it('answers 400 naming the term for filters that do not parse, on the stream and the lists', async () => {
    for (const [filter, says] of [
      ['body.amount>>5', /filter term `body.amount>>5`: > compares numbers/],
      ['status:weird', /status is one of ok, error, timeout, running/],
      ['colour:red', /unknown key `colour`/],
      ['path:"/a', /quote is not closed/],
      ['since:yesterday', /a time is a duration/],
    ] as const) {
      const res = await spout.api('GET', `/v1/stream?filter=${encodeURIComponent(filter)}`);
      assert.equal(res.status, 400, filter);
      assert.match(res.json.detail ?? res.json.title ?? JSON.stringify(res.json), says);
    }
    for (const list of [`/v1/sources/${source.id}/event_summaries`, `/v1/sources/${source.id}/invocations`, `/v1/sources/${source.id}/logs`]) {
      assert.equal((await spout.api('GET', `${list}?filter=${encodeURIComponent('code>>1')}`)).status, 400, list);
    }
  });

  it('takes the same filter on the lists of a source, a component and logs', async () => {
    const events = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?filter=${encodeURIComponent('body.amount>50')}`)).json;
    assert.deepEqual(
      events.data.map((e: { metadata: { summary: string } }) => e.metadata.summary),
      ['order 2'],
    );
    const runs = (await spout.api('GET', `/v1/sources/${source.id}/invocations?filter=${encodeURIComponent('path:/orders code:2xx')}`)).json;
    assert.deepEqual(runs.data.map((r: { request: { path: string } }) => r.request.path).sort(), ['/orders/big', '/orders/new']);
    const greet = (await stream('action:greet')).data[0]!;
    const byComponent = (await spout.api('GET', `/v1/components/${greet.target.id}/invocations?filter=status:error`)).json;
    assert.equal(byComponent.data.length, 0);
    const logs = (await spout.api('GET', `/v1/sources/${source.id}/logs?filter=${encodeURIComponent('"bad order"')}`)).json;
    assert.ok(logs.data.length >= 1);
    assert.ok(logs.data.every((l: { message: string }) => /bad order/i.test(l.message)));
  });

  it('keeps saved filters, checked, across a restart', async () => {
    assert.deepEqual((await spout.api('GET', '/v1/stream/filters')).json.data, []);
    const bad = await spout.api('PUT', '/v1/stream/filters', { data: [{ name: 'x', filter: 'code>>5' }] });
    assert.equal(bad.status, 400);
    assert.match(bad.json.detail, /saved filter "x": filter term `code>>5`/);
    assert.equal(
      (
        await spout.api('PUT', '/v1/stream/filters', {
          data: [
            { name: 'a', filter: '' },
            { name: 'a', filter: '' },
          ],
        })
      ).status,
      400,
    );
    assert.equal((await spout.api('PUT', '/v1/stream/filters', { data: [{ name: '', filter: '' }] })).status, 400);
    const saved = [
      { name: 'Failed Shopify', filter: 'status:error header:x-shopify-topic=orders/create' },
      { name: 'Big orders', filter: 'body.amount>100' },
    ];
    assert.equal((await spout.api('PUT', '/v1/stream/filters', { data: saved })).status, 200);
    await spout.stop();
    spout = await startSpout({ dataDir });
    assert.deepEqual((await spout.api('GET', '/v1/stream/filters')).json.data, saved);
    source = { ...source, endpoint: `${spout.url}/e/${source.endpoint.split('/e/')[1]}` };

    // One at a time: two windows saving and deleting at once keep each other's changes.
    const name = (n: string) => `/v1/stream/filters/${encodeURIComponent(n)}`;
    const answers = await Promise.all([spout.api('PUT', name('Slow / paths'), { filter: 'path:/slow' }), spout.api('PUT', name('Big orders'), { filter: 'body.amount>500' }), spout.api('DELETE', name('Failed Shopify')), spout.api('PUT', name('Errors'), { filter: 'status:error' })]);
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200],
    );
    const after = [
      { name: 'Big orders', filter: 'body.amount>500' },
      { name: 'Slow / paths', filter: 'path:/slow' },
      { name: 'Errors', filter: 'status:error' },
    ];
    const sorted = (list: Array<{ name: string }>) => [...list].sort((a, b) => a.name.localeCompare(b.name));
    assert.deepEqual(sorted((await spout.api('GET', '/v1/stream/filters')).json.data), sorted(after));
    assert.equal((await spout.api('DELETE', name('Failed Shopify'))).status, 404);
    const badOne = await spout.api('PUT', name('bad'), { filter: 'code>>5' });
    assert.equal(badOne.status, 400);
    assert.match(badOne.json.detail, /saved filter "bad": filter term `code>>5`/);
    assert.equal((await spout.api('PUT', name('   '), { filter: '' })).status, 400);
    assert.equal((await spout.api('PUT', name('x'), { filter: 'a', extra: 1 })).status, 400);
  });

  it('streams new rows matching the filter over SSE, and not the others; an event row as a page lists it', async () => {
    const controller = new AbortController();
    // method: and path: are the run's: an event waits for its run's record, so they match live too.
    const filter = 'kind:event method:POST path:/orders/huge body.amount>500';
    const got = readSse(`${spout.url}/sse/stream?filter=${encodeURIComponent(filter)}`, spout.apiKey, 1, controller.signal);
    // The stream is open once a row sent after it arrives; send until one does.
    let n = 10;
    const sending = (async () => {
      while (!controller.signal.aborted) {
        await post('/orders/small', { n: n++, amount: 5 });
        await post('/orders/huge', { n: n++, amount: 900 });
        await new Promise((r) => setImmediate(r));
      }
    })();
    const [row] = await got;
    controller.abort();
    await sending;
    assert.equal(row!.data.kind, 'event');
    assert.match(row!.data.summary, /^order \d+$/);
    assert.equal(Number(row!.data.summary.slice(6)) % 2, 1, 'only the huge orders (odd n) match');
    assert.equal(row!.id, `${row!.data.ts}:${row!.data.id}`);
    // The live row is the row a page lists, but for its delivery (pending when sent; a page reads it now).
    const paged = (await stream(filter)).data.find((r) => r.id === row!.data.id);
    assert.ok(paged, 'the page lists the event');
    assert.deepEqual({ ...row!.data, delivery: null }, { ...paged, delivery: null });
    assert.deepEqual({ method: paged.method, path: paged.path, response_status: paged.response_status }, { method: 'POST', path: '/orders/huge', response_status: 202 });
  });

  it('counts every matching row (GET /v1/stream/count), as a page does', async () => {
    for (const filter of ['', 'kind:event', 'body.amount>50', 'method:POST -status:error']) {
      // The last test's orders may still be landing (a run is recorded after it answers): compare once they have.
      await waitFor(
        async () => {
          const res = await spout.api('GET', `/v1/stream/count?filter=${encodeURIComponent(filter)}`);
          assert.equal(res.status, 200, JSON.stringify(res.json));
          const page = await stream(filter);
          assert.equal(page.page_info.total_count, page.data.length);
          return (res.json as { total_count: number }).total_count === page.page_info.total_count;
        },
        10_000,
        `the count of "${filter}" and the page's total agree`,
      );
    }
    const bad = await spout.api('GET', `/v1/stream/count?filter=${encodeURIComponent('body.amount>>5')}`);
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.json), /body\.amount>>5/);
  });

  it('shows a workflow run once: its steps are in its row, not rows of their action', async () => {
    const created = await spout.api('POST', '/v1/workflows', { name: 'Greeter', trigger: { type: 'manual' }, steps: [{ name: 'greet', component_code: STEP }] });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const wf = created.json.data as { id: string; steps: Array<{ component_id: string }> };
    const ran = await spout.api('POST', `/v1/workflows/${wf.id}/run`, { event: { amount: 1 } });
    assert.equal(ran.status, 200, JSON.stringify(ran.json));
    const stepRun = (ran.json.data as { id: string; steps: Array<{ invocation_id: string }> }).steps[0]!.invocation_id;
    const action = wf.steps[0]!.component_id;
    // The step's run is recorded under its action, marked as the workflow run's step.
    const listed = await spout.api('GET', `/v1/components/${action}/invocations`);
    const record = (listed.json.data as Array<{ id: string; workflow_step: unknown }>).find((r) => r.id === stepRun);
    assert.deepEqual(record?.workflow_step, { workflow_id: wf.id, run_id: (ran.json.data as { id: string }).id, step: 'greet' });
    const { data, page_info } = await stream('');
    assert.equal(data.filter((r) => r.target.id === wf.id).length, 1, 'one row for the workflow run');
    assert.equal(
      data.find((r) => r.id === stepRun),
      undefined,
      'no row for its step',
    );
    assert.equal(page_info.total_count, data.length);
    assert.equal((await stream(`action:${action}`)).data.length, 0);
    // A step run alone ("Test step") belongs to no workflow run: it is a row of its action.
    const tested = await spout.api('POST', `/v1/workflows/${wf.id}/steps/greet/test`, {});
    assert.equal(tested.status, 200, JSON.stringify(tested.json));
    assert.equal((await stream(`action:${action}`)).data.length, 1);
  });
});
