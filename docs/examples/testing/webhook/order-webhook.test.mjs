import assert from "node:assert/strict";
import { test } from "node:test";
import { loadSource, matchSnapshot } from "spout/testing";

const order = { id: "o_1001", total: 42.5, currency: "EUR", created_at: "2026-01-01T09:30:00Z" };
const load = () => loadSource("./order-webhook.mjs", { props: { secret: "s3cret" }, now: "2026-01-01T10:00:00Z" });

test("emits an order posted with the right secret", async (t) => {
  const src = await load();
  t.after(() => src.close());
  const r = await src.http({ method: "POST", path: "/orders", headers: { "X-Shop-Secret": "s3cret" }, body: order });
  assert.equal(r.status, 202);
  assert.deepEqual(r.body, { received: "o_1001" });
  assert.equal(r.events.length, 1);
  assert.equal(r.events[0].metadata.summary, "Order o_1001: 42.5 EUR");
  matchSnapshot(t, r.events);
});

test("refuses a wrong secret and emits nothing", async (t) => {
  const src = await load();
  t.after(() => src.close());
  const r = await src.http({ method: "POST", headers: { "X-Shop-Secret": "guess" }, body: order });
  assert.equal(r.status, 401);
  assert.deepEqual(r.events, []);
  assert.match(r.logs[0].message, /wrong secret/);
});

test("emits an order posted twice only once", async (t) => {
  const src = await load();
  t.after(() => src.close());
  const headers = { "X-Shop-Secret": "s3cret" };
  await src.http({ method: "POST", headers, body: order });
  const again = await src.http({ method: "POST", headers, body: order });
  assert.equal(again.status, 202);
  assert.deepEqual(again.events, []);
  assert.equal(src.events.length, 1);
});
