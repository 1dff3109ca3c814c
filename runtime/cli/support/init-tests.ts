// The first test `spout init` writes beside a source or action (docs/testing.md): it loads the
// component with `spout/testing`, runs it once the way it is triggered, and checks what came out,
// so `spout test` passes from the first minute and each change after has something to answer to.

/** What the starter component has, as `spout init` was asked. */
export interface StarterShape {
  http: boolean;
  timer: boolean;
  db: boolean;
}

const HEAD = `import { test } from "node:test";
import assert from "node:assert/strict";`;

/** A starter source's test: a request to its endpoint and/or a timer run, and the events they emit. */
export function sourceTest(file: string, o: StarterShape): string {
  const cases: string[] = [];
  if (o.http) {
    cases.push(`test("answers a request and emits its body", async (t) => {
  const src = await loadSource("./${file}", { now: NOW });
  t.after(() => src.close());
  const r = await src.http({ method: "POST", path: "/hello", body: { hello: "world" } });
  assert.equal(r.error, null);
  assert.equal(r.status, 200);
  assert.deepEqual(r.events.map((e) => e.event), [{ hello: "world" }]);
  matchSnapshot(t, r.events);
});`);
  }
  if (o.timer) {
    cases.push(`test("emits on its timer", async (t) => {
  const src = await loadSource("./${file}", { now: NOW });
  t.after(() => src.close());
  const runs = await src.clock.advance("15m");
  assert.equal(runs.length, 1);
  assert.equal(runs[0].error, null);
  assert.equal(runs[0].events.length, 1);${o.db ? '\n  assert.equal(src.db.get("count"), 1);' : ''}
  matchSnapshot(t, runs[0].events);
});`);
  }
  return `${HEAD}
import { loadSource, matchSnapshot } from "spout/testing";

// The clock the source sees: events and their timestamps come out the same on every run.
const NOW = "2026-01-01T00:00:00Z";

${cases.join('\n\n')}
`;
}

/** A starter action's test: one run, its summary and return value. */
export function actionTest(file: string, o: Pick<StarterShape, 'http' | 'db'>): string {
  return `${HEAD}
import { loadAction } from "spout/testing";

test("handles its input", async (t) => {
  const action = loadAction("./${file}", { props: { text: "hello" }, now: "2026-01-01T00:00:00Z" });
  t.after(() => action.close());
  const r = await action.run();
  assert.equal(r.error, null);
  assert.equal(r.summary, ${o.db ? '\'Stored "hello" (previously "")\'' : '\'Handled "hello"\''});
  assert.equal(r.returnValue.text, "hello");${o.http ? '\n  // Its request is answered from the cassette beside it (NAME.cassette.json).\n  assert.equal(r.calls[0].response.status, 200);' : ''}
});${
    o.http
      ? `

test("fails clearly when the request fails", async (t) => {
  const action = loadAction("./${file}", { props: { text: "hello" } });
  t.after(() => action.close());
  action.network.fail("GET https://example.com/*", { status: 500 });
  const r = await action.run();
  assert.match(r.error.message, /500/);
});`
      : ''
  }
`;
}

/** The cassette a starter action with an http_request prop replays: its default request answered. */
export function actionCassette(): string {
  return `${JSON.stringify({ entries: [{ request: { method: 'GET', url: 'https://example.com/' }, response: { status: 200, headers: { 'content-type': 'application/json' }, body: { ok: true } } }] }, null, 2)}\n`;
}
