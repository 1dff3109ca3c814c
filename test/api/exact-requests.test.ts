// Issue 23's service side: a replay sends exactly the recorded request (the headers in order, no
// more, a length for an edited body, a bad header refused with 400); a webhook attempt records the
// request it sent (the signature as sent) and the payload, also after a restart; the UI's files are
// hashed, compressed and kept by the browser; a remote's refused key is said at the API key.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../helpers/raw-request';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, ECHO_SOURCE, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';
import { attempts, createWebhook, messages, subscribe } from '../helpers/webhooks';

interface Recorded {
  id: string;
  replay_of: string | null;
  request: { headers: Record<string, string | string[]>; body: string } | null;
}

describe('exact requests: replays, webhook attempts, UI files', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  let source: { id: string; endpoint: string };
  const dataDir = tempDir();
  // Remote profiles (read and written by /v1/remotes) stay in a folder of this test.
  const env = { XDG_CONFIG_HOME: tempDir('spout-config-') };

  before(async () => {
    spout = await startSpout({ dataDir, env });
    receiver = await startReceiver();
    source = await deploySource(spout, ECHO_SOURCE);
  });
  after(async () => {
    await spout.stop();
    await receiver.close();
  });

  const runs = async () => (await spout.api('GET', `/v1/sources/${source.id}/invocations?trigger=http`)).json.data as Recorded[];

  it('replays with the recorded headers in their order and no others, whoever asks', async () => {
    const host = new URL(source.endpoint).host;
    const body = '{"a":1}';
    const sent: Array<[string, string]> = [
      ['Host', host],
      ['X-Zeta', 'last-first'],
      ['User-Agent', 'curl/8.5.0'],
      ['Accept', '*/*'],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(body.length)],
      ['X-Alpha', 'a'],
    ];
    assert.equal(await rawRequest(`${source.endpoint}/exact`, 'POST', sent, body), 200);
    const original = await waitFor(async () => (await runs()).find((r) => !r.replay_of), 10_000, 'the run');
    assert.deepEqual(
      Object.keys(original.request!.headers),
      sent.map(([n]) => n.toLowerCase()),
    );
    const replay = await spout.api('POST', `/v1/invocations/${original.id}/replay`);
    assert.equal(replay.status, 200, JSON.stringify(replay.json));
    assert.deepEqual(Object.entries((replay.json.data as Recorded).request!.headers), Object.entries(original.request!.headers));
  });

  it('sends the length of an edited body, and refuses a header value node:http cannot send', async () => {
    const original = (await runs()).find((r) => !r.replay_of)!;
    const edited = await spout.api('POST', `/v1/invocations/${original.id}/replay`, { body: '{"a":12345}' });
    assert.equal(edited.status, 200, JSON.stringify(edited.json));
    const request = (edited.json.data as Recorded).request!;
    assert.equal(request.body, '{"a":12345}');
    assert.equal(request.headers['content-length'], '11');
    const bad = await spout.api('POST', `/v1/invocations/${original.id}/replay`, { headers: { 'x-bad': 'line\nbreak' } });
    assert.equal(bad.status, 400, JSON.stringify(bad.json));
    assert.match(bad.json.detail, /headers\.x-bad/);
  });

  it('records each attempt’s request headers as sent, signature included, and its payload; a restart keeps them', async () => {
    const wh = await createWebhook(spout, receiver.url);
    await subscribe(spout, source.id, wh.id);
    await fetch(source.endpoint, { method: 'POST', body: '{"hello":"attempt"}', headers: { 'content-type': 'application/json' } });
    await waitFor(() => receiver.received.length >= 1, 10_000, 'the delivery');
    const got = receiver.received[0]!;
    const [message] = (await messages(spout, wh.id)).data;
    const check = async () => {
      const [attempt] = await attempts(spout, wh.id, message!.id);
      assert.ok(attempt?.request_headers, 'the request headers are recorded');
      assert.equal(attempt.request_headers['webhook-signature'], got.headers['webhook-signature']);
      assert.equal(attempt.request_headers['webhook-id'], got.headers['webhook-id']);
      assert.equal(attempt.request_headers['webhook-timestamp'], got.headers['webhook-timestamp']);
      assert.deepEqual(Object.keys(attempt.request_headers).slice(0, 5), ['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature']);
      assert.equal(attempt.request_body, got.body);
    };
    await check();
    await spout.stop();
    spout = await startSpout({ dataDir, env });
    await check();
  });

  it('serves the UI’s files by hashed names, compressed, kept for good; index.html is never kept', async () => {
    const page = await fetch(`${spout.url}/sources`, { headers: { authorization: `Bearer ${spout.apiKey}` } });
    assert.equal(page.headers.get('cache-control'), 'no-store');
    const html = await page.text();
    const app = /src="(\/assets\/app-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
    assert.ok(app, 'index.html names the hashed app bundle');
    const editor = JSON.parse(/<script type="application\/json" id="spout-assets">(.*?)<\/script>/.exec(html)?.[1] ?? '{}') as { editor?: string };
    assert.match(editor.editor ?? '', /^\/assets\/editor-[A-Z0-9]{8}\.js$/);
    const gz = await fetch(`${spout.url}${editor.editor}`, { headers: { authorization: `Bearer ${spout.apiKey}`, 'accept-encoding': 'gzip' } });
    assert.equal(gz.status, 200);
    assert.equal(gz.headers.get('content-encoding'), 'gzip');
    assert.equal(gz.headers.get('cache-control'), 'private, max-age=31536000, immutable');
    assert.match(gz.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(gz.headers.get('vary') ?? '', /accept-encoding/i);
    const plain = await new Promise<{ encoding: string | undefined; length: number }>((resolve, reject) => {
      http
        .get(`${spout.url}${app}`, { headers: { authorization: `Bearer ${spout.apiKey}` } }, (res) => {
          let length = 0;
          res.on('data', (c: Buffer) => (length += c.length));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], length }));
        })
        .on('error', reject);
    });
    assert.equal(plain.encoding, undefined, 'a client that takes no encoding gets the file as it is');
    assert.ok(plain.length > 10_000);
    const unknown = await fetch(`${spout.url}/assets/app-AAAAAAAA.js`, { headers: { authorization: `Bearer ${spout.apiKey}` } });
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type') ?? '', /problem\+json/);
  });

  it('says a remote’s refused key at the API key, once', async () => {
    const other = await startSpout();
    try {
      const res = await spout.api('POST', '/v1/remotes', { name: 'team', api_url: other.url, api_key: 'wrong-key' });
      assert.equal(res.status, 400, JSON.stringify(res.json));
      assert.deepEqual(
        res.json.errors.map((e: { path: string }) => e.path),
        ['api_key'],
      );
      assert.match(res.json.errors[0].message, /refused the API key/);
    } finally {
      await other.stop();
    }
  });
});
