// The same source tested with Vitest (`npx vitest run`): spout/testing works under any runner.

import { loadSource } from "spout/testing";
import { afterEach, expect, test } from "vitest";

const loaded = [];
afterEach(async () => {
  await Promise.all(loaded.splice(0).map((src) => src.close()));
});

test("emits an order posted with the right secret", async () => {
  const src = await loadSource("./order-webhook.mjs", { props: { secret: "s3cret" }, now: "2026-01-01T10:00:00Z" });
  loaded.push(src);
  const r = await src.http({ method: "POST", headers: { "X-Shop-Secret": "s3cret" }, body: { id: "o_7", total: 3, currency: "EUR", created_at: "2026-01-01T09:00:00Z" } });
  expect(r.status).toBe(202);
  expect(r.events.map((e) => e.metadata.summary)).toEqual(["Order o_7: 3 EUR"]);
  expect(r.events).toMatchSnapshot();
});
