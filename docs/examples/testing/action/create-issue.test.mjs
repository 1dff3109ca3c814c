import assert from "node:assert/strict";
import { test } from "node:test";
import { loadAction } from "spout/testing";

const props = { title: "Dark mode", body: "Please." };
const accounts = { tracker: { api_token: "trk_test_token" } };

test("creates an issue and says so", async (t) => {
  const action = loadAction("./create-issue.mjs", { props, accounts });
  t.after(() => action.close());
  const r = await action.run();
  assert.equal(r.error, null);
  assert.equal(r.summary, "Created issue #3");
  assert.deepEqual(r.returnValue, { id: "is_3", number: 3, title: "Dark mode" });
  assert.equal(r.calls[0].request.headers.authorization, "********");
});

test("reports an expired token", async (t) => {
  const action = loadAction("./create-issue.mjs", { props, accounts });
  t.after(() => action.close());
  action.network.fail("POST https://api.tracker.example/v1/issues", { status: 401, body: { error: "token expired" } });
  const r = await action.run();
  // @pipedream/platform's axios throws the API's answer as the error's message.
  assert.match(r.error.message, /token expired/);
  assert.equal(r.calls[0].response.status, 401);
});
