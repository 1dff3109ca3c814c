import assert from "node:assert/strict";
import { test } from "node:test";
import { loadSource, matchSnapshot } from "spout/testing";

// The API's answers come from new-issues.cassette.json, written by hand from its documentation.
const load = () => loadSource("./new-issues.mjs", { now: "2026-01-01T00:00:00Z", accounts: { tracker: { api_token: "trk_test_token" } } });

test("emits new issues oldest first, each once, as its timer fires", async (t) => {
  const src = await load();
  t.after(() => src.close());
  const first = await src.timer();
  assert.equal(first.error, null);
  assert.deepEqual(
    first.events.map((e) => e.metadata.summary),
    ["#1 Login button misaligned", "#2 Export fails on empty lists"],
  );
  assert.equal(src.db.get("since"), "2026-01-01T00:00:00.000Z");

  // 15 minutes later the timer fires once; issue 2 comes again and is deduped.
  const [second] = await src.clock.advance("15m");
  assert.deepEqual(
    second.events.map((e) => e.metadata.id),
    ["is_3"],
  );
  matchSnapshot(t, src.events);
  // The token never shows in a recorded call.
  assert.equal(second.calls[0].request.headers.authorization, "********");
});

test("retries a 429 after its Retry-After, on the test's clock", async (t) => {
  const src = await load();
  t.after(() => src.close());
  src.network.fail("GET https://api.tracker.example/v1/issues*", { status: 429, retryAfter: 30, times: 1 });
  const r = await src.timer();
  assert.equal(r.error, null);
  assert.deepEqual(
    r.calls.map((c) => [c.served_by, c.response.status]),
    [
      ["fault", 429],
      ["cassette", 200],
    ],
  );
  assert.equal(r.events.length, 2);
  // The 30 s wait passed on the component's clock, not the test's real time.
  assert.equal(src.clock.now(), Date.parse("2026-01-01T00:00:30Z"));
});

test("fails the run when the API keeps refusing", async (t) => {
  const src = await load();
  t.after(() => src.close());
  src.network.fail("GET https://api.tracker.example/*", { status: 500 });
  const r = await src.timer();
  assert.match(r.error.message, /500/);
  assert.deepEqual(r.events, []);
});
