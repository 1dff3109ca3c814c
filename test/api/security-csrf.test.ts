// Issue 12: the UI's session cookie drives the API only from the UI itself. The cookie is sent by
// the browser from any port of the same host, so a cookie-authenticated write must come from
// exactly the served origin and carry the UI's header; bearer-key clients are unaffected. The
// cookie never reaches component code, and pages components serve cannot act as the UI.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** Raw request (fetch cannot set Origin or Host). */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('browser sessions and CSRF', () => {
  let spout: SpoutProcess;
  let cookie: string;
  let origin: string;
  before(async () => {
    spout = await startSpout();
    origin = spout.url;
    const signIn = await fetch(spout.uiUrl, { redirect: 'manual' });
    cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    assert.match(cookie, /^spout_session_\d+=/);
  });
  after(async () => void (await spout.stop()));

  const webhookCount = async () => (await spout.api('GET', '/v1/users/me/webhooks')).json.page_info.total_count as number;
  const createWebhook = (headers: Record<string, string>) => request(`${spout.url}/v1/webhooks?url=${encodeURIComponent('http://127.0.0.1:9/x')}`, { method: 'POST', headers: { cookie, ...headers } });

  it('refuses Origin: null, with a key or a cookie, read or write', async () => {
    const credentials: Array<Record<string, string>> = [{ authorization: `Bearer ${spout.apiKey}` }, { cookie }];
    for (const headers of credentials) {
      for (const method of ['GET', 'POST']) {
        const res = await request(`${spout.url}/v1/users/me/webhooks`, { method, headers: { ...headers, origin: 'null' } });
        assert.equal(res.status, 403, `${method} ${JSON.stringify(headers)}`);
        assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
        assert.match(JSON.parse(res.body).detail, /Origin: null/);
      }
    }
    const before = await webhookCount();
    assert.equal((await createWebhook({ origin: 'null', 'x-spout-ui': '1' })).status, 403);
    assert.equal(await webhookCount(), before);
  });

  it('refuses a cookie write from another port of the same host, by Origin or by Referer', async () => {
    const other = origin.replace(/:\d+$/, ':1');
    const before = await webhookCount();
    const sources: Array<Record<string, string>> = [{ origin: other }, { referer: `${other}/attack.html` }, { origin: origin.replace('http:', 'https:') }, {}];
    for (const headers of sources) {
      const res = await createWebhook({ ...headers, 'x-spout-ui': '1' });
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
    }
    assert.equal(await webhookCount(), before);
  });

  it("refuses a cookie write from the right origin without the UI's header, and takes it with", async () => {
    const before = await webhookCount();
    const bare = await createWebhook({ origin });
    assert.equal(bare.status, 403);
    assert.match(JSON.parse(bare.body).detail, /x-spout-ui/);
    assert.equal(await webhookCount(), before);
    assert.equal((await createWebhook({ origin, 'x-spout-ui': '1' })).status, 200);
    // Without Origin, a same-origin Referer is the proof.
    assert.equal((await createWebhook({ referer: `${origin}/webhooks`, 'x-spout-ui': '1' })).status, 200);
    assert.equal(await webhookCount(), before + 2);
  });

  it('leaves bearer-key clients alone, and lets cookie reads through without the header', async () => {
    const res = await request(`${spout.url}/v1/webhooks?url=${encodeURIComponent('http://127.0.0.1:9/y')}`, { method: 'POST', headers: { authorization: `Bearer ${spout.apiKey}` } });
    assert.equal(res.status, 200);
    assert.equal((await request(`${spout.url}/v1/users/me/webhooks`, { headers: { cookie } })).status, 200);
  });

  it('grants no other origin a read: no CORS on /v1 or /sse, and isolation headers everywhere', async () => {
    const source = await deploySource(spout);
    const foreign = origin.replace(/:\d+$/, ':1');
    for (const route of ['/v1/users/me/webhooks', `/sse/dc/${source.id}/emits`, '/']) {
      // A cross-origin read (cors mode) carries Origin: refused outright.
      const cross = await request(spout.url + route, { headers: { cookie, origin: foreign } });
      assert.equal(cross.status, 403, route);
      assert.equal(cross.headers['access-control-allow-origin'], undefined, route);
    }
    const preflight = await request(`${spout.url}/v1/webhooks`, { method: 'OPTIONS', headers: { origin: foreign, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-spout-ui' } });
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    // A no-cors read (an <img>, a <script>) sends no Origin: the response forbids embedding elsewhere.
    const read = await request(`${spout.url}/v1/users/me/webhooks`, { headers: { cookie } });
    assert.equal(read.headers['cross-origin-resource-policy'], 'same-origin');
    assert.equal(read.headers['x-content-type-options'], 'nosniff');
    assert.equal(read.headers['access-control-allow-origin'], undefined);
  });

  it('never passes the session cookie to a component, nor lets one set it', async () => {
    const code = `export default { name: "Cookie eater", version: "0.1.0", props: { http: { type: "$.interface.http", customResponse: true } },
      async run(event) {
        this.$emit({ cookie: event.headers.cookie ?? null });
        this.http.respond({ status: 200, headers: { "content-type": "text/html", "set-cookie": "${cookie.split('=')[0]}=stolen; Path=/" }, body: "<script>fetch('/v1/webhooks')</script>" });
      } };`;
    const source = await deploySource(spout, code);
    const res = await request(source.endpoint, { method: 'POST', headers: { cookie: `${cookie}; theme=dark; spout_session_1=other-instance` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['set-cookie'], undefined, 'a component cannot set or clear the UI session');
    assert.match(String(res.headers['content-security-policy']), /^sandbox allow-scripts/, "the page it serves runs in an opaque origin, not the UI's");
    const events = await spout.api('GET', `/v1/sources/${source.id}/event_summaries?expand=event&limit=1`);
    assert.deepEqual(events.json.data[0].event, { cookie: 'theme=dark' });
    // Nor is it kept in the run's record (which a replay sends again).
    const runs = await waitFor(async () => (await spout.api('GET', `/v1/sources/${source.id}/invocations?trigger=http`)).json.data[0], 10_000, 'the recorded run');
    assert.equal(runs.request.headers.cookie, 'theme=dark');
    assert.doesNotMatch(JSON.stringify(runs.response.headers), /spout_session/);
  });
});
