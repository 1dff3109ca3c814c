// The stream's filter language: parsing (every key, negation, quotes, times) with the errors that
// name the term, and matching subjects built here by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamRow } from '../../../../runtime/contract/stream-api';
import { FilterSyntaxError, parseFilter } from '../../../../runtime/engine/stream/stream-filter';
import { compileFilter, type StreamSubject } from '../../../../runtime/engine/stream/stream-match';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const terms = (expr: string) => parseFilter(expr, NOW).clauses;

function subject(over: Partial<StreamRow> = {}, body: unknown = {}, headers: Record<string, unknown> = {}): StreamSubject {
  const row: StreamRow = {
    kind: 'run',
    id: 'inv_1',
    ts: NOW - 60_000,
    target: { type: 'source', id: 'dc_abc', name: 'Shopify orders' },
    status: 'ok',
    trigger: 'http',
    method: 'POST',
    path: '/orders/new',
    response_status: 200,
    size: 10,
    emits: 1,
    delivery: null,
    summary: 'New order',
    run_id: null,
    ...over,
  };
  return {
    kind: row.kind,
    id: row.id,
    ts: row.ts,
    target: row.target,
    status: row.status,
    trigger: row.trigger,
    line: null,
    detail: () => ({ row, headers, body: () => body, text: () => `${row.summary ?? ''} ${row.path ?? ''} ${JSON.stringify(body)}`.toLowerCase() }),
    delivery: row.delivery,
  };
}
const matches = (expr: string, s: StreamSubject) => compileFilter(parseFilter(expr, NOW))(s);

describe('stream filter: parsing', () => {
  it('parses every key', () => {
    assert.deepEqual(terms('kind:run')[0], { negate: false, term: { key: 'kind', value: 'run' } });
    assert.deepEqual(terms('status:ERROR')[0]!.term, { key: 'status', value: 'error' });
    assert.deepEqual(terms('source:Orders')[0]!.term, { key: 'target', type: 'source', value: 'orders' });
    assert.deepEqual(terms('action:greet')[0]!.term, { key: 'target', type: 'action', value: 'greet' });
    assert.deepEqual(terms('workflow:p_1')[0]!.term, { key: 'target', type: 'workflow', value: 'p_1' });
    assert.deepEqual(terms('target:x')[0]!.term, { key: 'target', type: null, value: 'x' });
    assert.deepEqual(terms('trigger:run_now')[0]!.term, { key: 'trigger', value: 'run_now' });
    assert.deepEqual(terms('method:post')[0]!.term, { key: 'method', value: 'POST' });
    assert.deepEqual(terms('code:5xx')[0]!.term, { key: 'code', op: ':', value: 5, cls: true });
    assert.deepEqual(terms('code>=400')[0]!.term, { key: 'code', op: '>=', value: 400, cls: false });
    assert.deepEqual(terms('header:X-Shopify-Topic=orders/create')[0]!.term, { key: 'header', name: 'x-shopify-topic', value: 'orders/create' });
    assert.deepEqual(terms('header:x-id')[0]!.term, { key: 'header', name: 'x-id', value: null });
    assert.deepEqual(terms('body.customer.tier:gold')[0]!.term, { key: 'body', path: ['customer', 'tier'], op: ':', value: 'gold' });
    assert.deepEqual(terms('body.amount>50')[0]!.term, { key: 'body', path: ['amount'], op: '>', value: '50' });
    assert.deepEqual(terms('body.a!=x')[0]!.term, { key: 'body', path: ['a'], op: '!=', value: 'x' });
    assert.deepEqual(terms('delivery:paused')[0]!.term, { key: 'delivery', value: 'paused' });
    assert.deepEqual(terms('since:15m')[0]!.term, { key: 'since', ms: NOW - 15 * 60_000 });
    assert.deepEqual(terms('until:2h')[0]!.term, { key: 'until', ms: NOW - 2 * 3_600_000 });
    assert.deepEqual(terms('since:1764331200000')[0]!.term, { key: 'since', ms: 1764331200000 });
    assert.deepEqual(terms('since:2026-11-28T10:00Z')[0]!.term, { key: 'since', ms: Date.parse('2026-11-28T10:00Z') });
    assert.deepEqual(terms('since:2026-11-28')[0]!.term, { key: 'since', ms: new Date(2026, 10, 28).getTime() });
    assert.deepEqual(terms('Refund')[0]!.term, { key: 'text', value: 'refund' });
    const path = terms('path:/orders/*/items')[0]!.term as { pattern: RegExp };
    assert.ok(path.pattern.test('/orders/42/items/3') && !path.pattern.test('/refunds/42/items'));
  });

  it('takes negation, quotes and several terms', () => {
    const parsed = terms('-status:ok  path:"/a b" "two words" body.note:"say \\"hi\\""');
    assert.deepEqual(
      parsed.map((c) => [c.negate, c.term.key]),
      [
        [true, 'status'],
        [false, 'path'],
        [false, 'text'],
        [false, 'body'],
      ],
    );
    assert.ok((parsed[1]!.term as { pattern: RegExp }).pattern.test('/a b/c'));
    assert.deepEqual(parsed[2]!.term, { key: 'text', value: 'two words' });
    assert.deepEqual(parsed[3]!.term, { key: 'body', path: ['note'], op: ':', value: 'say "hi"' });
    assert.deepEqual(terms('   '), []);
    assert.deepEqual(terms('-')[0]!.term, { key: 'text', value: '-' });
  });

  it('refuses what does not parse, naming the term and what is allowed', () => {
    const refused: Array<[string, RegExp]> = [
      ['body.amount>>5', /^filter term `body.amount>>5`: > compares numbers and `>5` is not one/],
      ['body.amount<abc', /< compares numbers/],
      ['body.amount:', /give a value/],
      ['status:weird', /^filter term `status:weird`: status is one of ok, error, timeout, running$/],
      ['kind:thing', /kind is one of run, event/],
      ['delivery:lost', /delivery is one of none, pending, delivered, failed, paused/],
      ['trigger:cron', /trigger is one of http, timer, run_now, event, hook, action/],
      ['colour:red', /unknown key `colour`; keys are kind, status/],
      ['status=ok', /only code and body.FIELD compare/],
      ['method>GET', /only code and body.FIELD compare/],
      ['code:abc', /code takes an HTTP status/],
      ['code>5xx', /code takes an HTTP status/],
      ['path:orders', /a path starts with \//],
      ['path:"/a', /a quote is not closed/],
      ['path:/a"b"', /quote the whole value/],
      ['since:yesterday', /a time is a duration back from now/],
      ['until:2026-13-45', /a time is/],
      ['method:P0ST', /method is an HTTP method/],
      ['header:=x', /header takes a header name/],
      ['source:', /give a value after source:/],
    ];
    for (const [expr, message] of refused) {
      assert.throws(
        () => parseFilter(expr, NOW),
        (err: Error) => err instanceof FilterSyntaxError && message.test(err.message),
        expr,
      );
    }
    assert.throws(() => parseFilter('x'.repeat(2001)), FilterSyntaxError);
  });
});

describe('stream filter: matching', () => {
  it('matches the cheap keys, negated and combined', () => {
    const s = subject();
    assert.ok(matches('kind:run status:ok source:shopify trigger:http', s));
    assert.ok(matches('source:dc_abc', s));
    assert.ok(!matches('source:DC_AB', s), 'an id matches whole, a name by part');
    assert.ok(!matches('workflow:shopify', s));
    assert.ok(matches('target:orders -status:error', s));
    assert.ok(!matches('kind:event', s));
    assert.ok(matches('since:5m until:30s', s));
    assert.ok(!matches('since:30s', s));
  });

  it('matches the request: method, path, code, headers', () => {
    const s = subject({ response_status: 502 }, {}, { 'x-shopify-topic': 'Orders/Create', 'x-many': ['a', 'b'] });
    assert.ok(matches('method:post path:/orders path:/*/new', s));
    assert.ok(!matches('path:/new', s), 'a path is a prefix');
    assert.ok(matches('code:502 code:5xx code>=500 code!=500 -code:4xx', s));
    assert.ok(!matches('code<500', s));
    assert.ok(matches('header:x-shopify-topic=orders/create header:X-MANY=b header:x-many', s));
    assert.ok(!matches('header:x-other', s));
    assert.ok(!matches('code:200', subject({ response_status: null })));
  });

  it('matches JSON fields: numbers as numbers, text contained, lists by item', () => {
    const s = subject({}, { amount: 55, total: '60.5', customer: { tier: 'Gold', tags: ['vip', 'new'] }, paid: true, note: null });
    assert.ok(matches('body.amount:55 body.amount=55 body.amount=55.0 body.amount>50 body.amount<=55 body.amount!=54', s));
    assert.ok(matches('body.total>60', s), 'a numeric string compares as a number');
    assert.ok(!matches('body.amount>55', s));
    assert.ok(matches('body.customer.tier:gol body.customer.tier=Gold', s));
    assert.ok(!matches('body.customer.tier=gold', s), '= is exact');
    assert.ok(matches('body.customer.tags:vip body.paid:true', s));
    assert.ok(!matches('body.missing:x', s));
    assert.ok(matches('body.missing!=x', s));
    assert.ok(!matches('body.customer>1', s), 'an object is not a number');
    assert.ok(matches('-body.amount>100', s));
  });

  it('matches bare words over the text, and delivery states once known', () => {
    assert.ok(matches('new ORDER', subject()));
    assert.ok(!matches('refund', subject()));
    const event = subject({ kind: 'event', status: null, delivery: { state: 'failed', attempts: 3 } });
    assert.ok(matches('kind:event delivery:failed', event));
    assert.ok(!matches('delivery:delivered', event));
    assert.ok(compileFilter(parseFilter('delivery:delivered', NOW))(event, false), 'delivery is left for later when asked');
    assert.ok(!matches('delivery:failed', subject()), 'runs have no delivery');
  });

  it('passes over a line without the words a term needs, unread', () => {
    let read = 0;
    const s = { ...subject({}, { amount: 99 }), line: () => '{"note":"nothing here"}', detail: () => (read++, subject({}, { amount: 99 }).detail()) };
    assert.ok(!matches('body.amount>50', s));
    assert.equal(read, 0);
  });
});
