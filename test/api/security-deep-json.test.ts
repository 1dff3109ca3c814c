// Issue 42, point 5: a body nested deeper than the stack can stringify (`[`×5000 `]`×5000) is
// refused with a 400 naming the limit wherever the service takes JSON, never answered 500 (which
// webhook senders retry forever).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectCredentials } from '../helpers/connect';
import { deploySource, type SpoutProcess, startSpout } from '../helpers/service';

const NESTED = '['.repeat(5000) + ']'.repeat(5000);
/** Nested as deep as allowed, and no deeper. */
const AT_LIMIT = '['.repeat(256) + ']'.repeat(256);

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, text: await res.text() };
}

function assertRefused(answer: { status: number; text: string }, where: string): void {
  assert.equal(answer.status, 400, `${where}: ${answer.text}`);
  assert.match(JSON.parse(answer.text).detail, /more than 256 levels deep, Spout's limit/, where);
}

describe('deeply nested JSON bodies', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout();
  });
  after(() => spout.stop());

  it('are refused with a 400 by /e/, and one at the limit still runs', async () => {
    const source = await deploySource(spout);
    assertRefused(await post(source.endpoint, NESTED), '/e/');
    assert.equal((await post(source.endpoint, AT_LIMIT)).status, 200);
    // The refused request reached no component: only the one at the limit was run.
    const runs = await spout.api('GET', `/v1/sources/${source.id}/invocations`);
    assert.equal(runs.json.data.length, 1, JSON.stringify(runs.json));
  });

  it('are refused with a 400 by /v1, the Connect API and /mcp', async () => {
    const bearer = { authorization: `Bearer ${spout.apiKey}` };
    assertRefused(await post(`${spout.url}/v1/sources`, NESTED, bearer), '/v1/sources');
    assertRefused(await post(`${spout.url}/v1/sources`, `{"component_code":"x","configured_props":{"a":${NESTED}}}`, bearer), '/v1/sources props');
    // JSON in a query string is parsed by the route: the same limit (this one answered 500 before).
    const query = await fetch(`${spout.url}/v1/accounts?app=http&name=deep&credentials={"a":${NESTED}}`, { method: 'POST', headers: bearer });
    assertRefused({ status: query.status, text: await query.text() }, '/v1/accounts?credentials=');
    const connect = await connectCredentials(spout);
    assertRefused(await post(`${spout.url}/v1/oauth/token`, NESTED), '/v1/oauth/token');
    const token = await post(`${spout.url}/v1/oauth/token`, JSON.stringify({ client_id: connect.client_id, client_secret: connect.client_secret }));
    assert.equal(token.status, 200, token.text);
    const connectBearer = { authorization: `Bearer ${JSON.parse(token.text).access_token}` };
    assertRefused(await post(`${spout.url}/v1/connect/${connect.project_id}/actions/run`, NESTED, connectBearer), 'Connect actions/run');
    assertRefused(await post(`${spout.url}/mcp`, NESTED, { ...bearer, accept: 'application/json, text/event-stream' }), '/mcp');
  });
});
