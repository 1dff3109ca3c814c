// JSON-body filters on the stream answer the same rows and counts whether a record's body fields
// are read from its line (the first request) or from the fields remembered across requests (later
// ones), after appends and after the store trims its oldest runs. The expected rows are worked out
// here from the bodies sent, over the rows the stream keeps.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** Emits the body it was sent as one event. Written for this test. */
const ECHO_ORDERS = `export default {
  name: "Orders",
  version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    this.$emit(event.body, { summary: "order " + event.body.n });
    this.http.respond({ status: 200, body: "ok" });
  },
};
`;

const RETENTION = 30;

type Body = { n: number; amount?: number | string; customer?: { tier: string }; tags: string[]; note: string; deep?: { a: { b: number } } };

/** Order n: amounts numbers or numeric text, some missing; nested, list and long text fields. */
function order(n: number): Body {
  const b: Body = { n, tags: n % 5 === 0 ? ['vip', 'x'] : [], note: n % 6 === 0 ? `${'x'.repeat(300)}needle` : 'short' };
  if (n % 7 !== 0) b.amount = n % 4 === 1 ? String((n * 7) % 100) : (n * 7) % 100;
  if (n % 4 !== 0) b.customer = { tier: n % 3 === 0 ? 'gold' : 'silver' };
  if (n % 2 === 0) b.deep = { a: { b: n } };
  return b;
}

const amount = (b: Body) => (b.amount === undefined ? undefined : Number(b.amount));

/** Filters and which bodies (and kinds) they match, written from the filter language in docs/api.md. */
const CASES: Array<[string, (b: Body, kind: string) => boolean]> = [
  ['body.amount>50', (b) => (amount(b) ?? -1) > 50],
  ['body.amount<=20', (b) => amount(b) !== undefined && (amount(b) as number) <= 20],
  ['body.amount=7', (b) => amount(b) === 7],
  ['body.amount:21', (b) => amount(b) === 21],
  ['-body.amount>50', (b) => !((amount(b) ?? -1) > 50)],
  ['body.amount!=21', (b) => amount(b) !== 21],
  ['body.customer.tier:gold', (b) => b.customer?.tier === 'gold'],
  ['body.customer.tier!=gold', (b) => b.customer?.tier !== 'gold'],
  ['-body.customer.tier:GOLD', (b) => b.customer?.tier !== 'gold'],
  ['body.customer:gold', () => false],
  ['body.customer!=gold', () => true],
  ['body.tags:vip', (b) => b.tags.includes('vip')],
  ['body.note:needle', (b) => b.note.includes('needle')],
  ['body.deep.a.b>=10', (b) => (b.deep?.a.b ?? 0) >= 10],
  ['body.missing:1', () => false],
  ['-body.missing:1', () => true],
  ['body.amount>50 body.customer.tier:silver kind:event', (b, kind) => kind === 'event' && (amount(b) ?? -1) > 50 && b.customer?.tier === 'silver'],
  ['body.amount<30 kind:run needle', (b, kind) => kind === 'run' && (amount(b) ?? 100) < 30 && b.note.includes('needle')],
];

describe('stream body-field filters, remembered across requests', () => {
  let spout: SpoutProcess;
  let source: { id: string; endpoint: string };
  let sent = 0;

  const send = async (count: number) => {
    for (let i = 0; i < count; i++) {
      sent++;
      const res = await fetch(`${source.endpoint}/o/${sent}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order(sent)) });
      assert.equal(res.status, 200);
    }
  };
  const page = async (filter: string) => {
    const res = await spout.api('GET', `/v1/stream?limit=100&filter=${encodeURIComponent(filter)}`);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const json = res.json as { data: Array<{ kind: string; path: string | null; summary: string | null }>; page_info: { total_count: number } };
    // Runs name their order by path (/o/N), events by summary (order N).
    const keys = json.data.map((r) => `${r.kind}:${r.kind === 'run' ? (r.path ?? '').split('/').pop() : (r.summary ?? '').split(' ').pop()}`);
    return { keys, total: json.page_info.total_count };
  };
  /** Every filter checked against the rows kept, twice: the second time from remembered fields. */
  const checkAll = async () => {
    // A run is recorded just after it answers: wait for the last one sent.
    await waitFor(async () => (await page('kind:run')).keys[0] === `run:${sent}`, 10_000, `run ${sent} recorded`);
    const kept = await page('');
    assert.equal(kept.total, kept.keys.length);
    for (let pass = 0; pass < 2; pass++) {
      for (const [filter, matches] of CASES) {
        const expected = kept.keys.filter((key) => {
          const [kind, n] = key.split(':') as [string, string];
          return matches(order(Number(n)), kind);
        });
        const got = await page(filter);
        assert.deepEqual(got.keys, expected, `${filter} (pass ${pass + 1})`);
        assert.equal(got.total, expected.length, `${filter} total_count (pass ${pass + 1})`);
      }
    }
    return kept;
  };

  before(async () => {
    spout = await startSpout({ args: ['--invocation-retention', String(RETENTION)] });
    source = await deploySource(spout, ECHO_ORDERS, { name: 'orders' });
  });
  after(async () => {
    await spout.stop();
  });

  it('answers the same rows and counts from remembered fields as from the records', async () => {
    await send(20);
    const kept = await checkAll();
    assert.equal(kept.keys.filter((k) => k.startsWith('run:')).length, 20);
  });

  it('stays the same after appends and after the oldest runs are trimmed', async () => {
    await send(25);
    const kept = await checkAll();
    // 45 runs sent, about RETENTION kept: the oldest were trimmed after their fields were remembered.
    const runs = kept.keys.filter((k) => k.startsWith('run:'));
    assert.ok(runs.length < 45, `${runs.length} runs kept`);
    assert.equal(runs.includes('run:1'), false);
    assert.equal(runs.includes('run:45'), true);
    await send(5);
    await checkAll();
  });
});
