import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import platformDefault, {
  AxiosError,
  ConfigurationError,
  DEFAULT_POLLING_SOURCE_TIMER_INTERVAL,
  axios,
  getFileStream,
  getFileStreamAndMetadata,
  transformConfigForOauth,
} from '../../../runtime/components/shims/platform';
import { defineAction, defineApp, defineSource } from '../../../runtime/components/shims/types';
import type { JSONValue } from '../../../runtime/components/shims/types';

interface Echo {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Routes of the local test server; anything else echoes the request back as JSON. */
function handle(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/text') {
    res.setHeader('content-type', 'text/plain');
    res.end('plain words, not JSON');
  } else if (path.startsWith('/status/')) {
    res.statusCode = Number(path.slice('/status/'.length));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ error: 'nope', detail: 'x'.repeat(1000) }));
  } else if (path === '/slow') {
    setTimeout(() => res.end('{}'), 500);
  } else if (path === '/redirect') {
    res.writeHead(302, { location: '/echo' }).end();
  } else if (path === '/bytes') {
    res.end(Buffer.from([0, 1, 2, 255]));
  } else if (path === '/report.txt') {
    res.writeHead(200, { 'content-type': 'text/plain', etag: '"v1"' }).end('remote file body');
  } else {
    res.setHeader('content-type', 'application/json');
    res.setHeader('set-cookie', ['a=1', 'b=2']);
    res.end(JSON.stringify({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body } satisfies Echo));
  }
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('platform shim: axios', () => {
  let server: http.Server;
  let base = '';

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => handle(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends GET with query params (arrays repeated, undefined dropped) and headers', async () => {
    const echo: Echo = await axios(
      {},
      {
        url: `${base}/echo?keep=1`,
        params: { q: 'a b', tag: ['x', 'y'], skip: undefined },
        headers: { 'X-Key': 'secret', 'X-None': undefined },
      },
    );
    assert.equal(echo.method, 'GET');
    assert.equal(echo.url, '/echo?keep=1&q=a+b&tag=x&tag=y');
    assert.equal(echo.headers['x-key'], 'secret');
    assert.equal(echo.headers['x-none'], undefined);
  });

  it('joins baseURL and url, and uppercases the method', async () => {
    const echo: Echo = await axios(undefined, { baseURL: `${base}/api/`, url: '/echo', method: 'patch' });
    assert.equal(echo.url, '/api/echo');
    assert.equal(echo.method, 'PATCH');
  });

  it('sends an object as JSON with a JSON content type', async () => {
    const echo: Echo = await axios(null, { url: `${base}/echo`, method: 'POST', data: { name: 'Ada', n: 1 } });
    assert.equal(echo.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(echo.body), { name: 'Ada', n: 1 });
  });

  it('keeps a given content type, and form-encodes an object when it says urlencoded', async () => {
    const echo: Echo = await axios(null, {
      url: `${base}/echo`,
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      data: { grant_type: 'code', scope: ['a', 'b'] },
    });
    assert.equal(echo.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(echo.body, 'grant_type=code&scope=a&scope=b');
  });

  it('sends strings, Buffers and URLSearchParams as they are', async () => {
    const text: Echo = await axios(null, { url: `${base}/echo`, method: 'PUT', data: 'raw <text>', headers: { 'content-type': 'text/xml' } });
    assert.equal(text.body, 'raw <text>');
    assert.equal(text.headers['content-type'], 'text/xml');
    const bytes: Echo = await axios(null, { url: `${base}/echo`, method: 'POST', data: Buffer.from('bytes') });
    assert.equal(bytes.body, 'bytes');
    const form: Echo = await axios(null, { url: `${base}/echo`, method: 'POST', data: new URLSearchParams({ a: '1' }) });
    assert.equal(form.body, 'a=1');
    assert.match(String(form.headers['content-type']), /application\/x-www-form-urlencoded/);
  });

  it('streams a Readable body', async () => {
    const echo: Echo = await axios(null, { url: `${base}/echo`, method: 'PUT', data: Readable.from(['part one, ', 'part two']) });
    assert.equal(echo.body, 'part one, part two');
  });

  it('turns auth into a basic Authorization header', async () => {
    const echo: Echo = await axios(null, { url: `${base}/echo`, auth: { username: 'user', password: 'pa:ss' } });
    assert.equal(echo.headers.authorization, `Basic ${Buffer.from('user:pa:ss').toString('base64')}`);
  });

  it('throws on a non-2xx status with the status and body on err.response', async () => {
    const err = await axios(null, { url: `${base}/status/404` }).catch((e: unknown) => e);
    assert.ok(err instanceof AxiosError);
    assert.equal(err.name, 'AxiosError');
    assert.equal(err.response?.status, 404);
    assert.equal(err.response?.data.error, 'nope');
    assert.match(err.message, /^Request failed with status code 404: \{"error":"nope"/);
    assert.ok(err.message.length < 400, 'the message carries only a short piece of the body');
    assert.equal(err.code, 'ERR_BAD_REQUEST');
  });

  it('resolves to the whole response with returnFullResponse', async () => {
    const res = await axios(null, { url: `${base}/echo`, returnFullResponse: true });
    assert.equal(res.status, 200);
    assert.equal(res.statusText, 'OK');
    assert.equal(res.headers['content-type'], 'application/json');
    assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2']);
    assert.equal(res.data.method, 'GET');
    assert.equal(res.config.returnFullResponse, true);
  });

  it('falls back to text when the body is not JSON, and honours text and arraybuffer', async () => {
    assert.equal(await axios(null, { url: `${base}/text` }), 'plain words, not JSON');
    assert.equal(await axios(null, { url: `${base}/echo`, responseType: 'text' }).then((t: unknown) => typeof t), 'string');
    assert.deepEqual(await axios(null, { url: `${base}/bytes`, responseType: 'arraybuffer' }), Buffer.from([0, 1, 2, 255]));
  });

  it('returns a readable stream with responseType stream', async () => {
    assert.equal(await readAll(await axios(null, { url: `${base}/text`, responseType: 'stream' })), 'plain words, not JSON');
  });

  it('times out after timeout ms', async () => {
    const err = await axios(null, { url: `${base}/slow`, timeout: 50 }).catch((e: unknown) => e);
    assert.ok(err instanceof AxiosError);
    assert.equal(err.code, 'ECONNABORTED');
    assert.equal(err.message, 'timeout of 50ms exceeded');
  });

  it('does not follow a redirect with maxRedirects: 0, and follows it otherwise', async () => {
    const err = await axios(null, { url: `${base}/redirect`, maxRedirects: 0 }).catch((e: unknown) => e);
    assert.ok(err instanceof AxiosError);
    assert.equal(err.response?.status, 302);
    assert.equal(err.response?.headers.location, '/echo');
    const res = await axios(null, { url: `${base}/redirect`, maxRedirects: 0, validateStatus: (s) => s === 302, returnFullResponse: true });
    assert.equal(res.status, 302);
    assert.equal((await axios(null, { url: `${base}/redirect` })).url, '/echo');
  });

  it('uses validateStatus to decide what throws', async () => {
    assert.equal((await axios(null, { url: `${base}/status/404`, validateStatus: () => true })).error, 'nope');
    assert.equal((await axios(null, { url: `${base}/status/500`, validateStatus: null })).error, 'nope');
    const err = await axios(null, { url: `${base}/echo`, validateStatus: (s) => s === 201 }).catch((e: unknown) => e);
    assert.ok(err instanceof AxiosError);
    assert.equal(err.response?.status, 200);
  });

  it('reports a refused connection with its system error code', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await axios(null, { url: `http://127.0.0.1:${port}/` }).catch((e: unknown) => e);
    assert.ok(err instanceof AxiosError);
    assert.equal(err.code, 'ECONNREFUSED');
    assert.equal(err.response, undefined);
  });

  it('accepts axios(config) without a step, and is the default export too', async () => {
    assert.equal(platformDefault, axios);
    assert.equal((await platformDefault({ url: `${base}/echo` })).method, 'GET');
  });

  it('exports debug_config and debug_response through $.export when debug is set', async () => {
    const exported: Record<string, unknown> = {};
    const $ = { export: (key: string, value: unknown) => (exported[key] = value) };
    await axios($, { url: `${base}/text`, debug: true });
    assert.equal((exported.debug_config as { url: string }).url, `${base}/text`);
    assert.equal(exported.debug_response, 'plain words, not JSON');
  });

  it('rejects configuration mistakes with ConfigurationError', async () => {
    const cases = [{}, { url: 'not a url' }, { url: `${base}/echo`, body: { a: 1 } }];
    for (const config of cases) {
      await assert.rejects(axios(null, config), { name: 'ConfigurationError' });
    }
    await assert.rejects(axios(null, { url: `${base}/echo` }, { oauthSignerUri: 'x' }), { name: 'ConfigurationError' });
  });

  it('opens remote and local files with their metadata', async () => {
    const remote = await getFileStreamAndMetadata(`${base}/report.txt`);
    assert.equal(await readAll(remote.stream), 'remote file body');
    assert.deepEqual(
      { ...remote.metadata, lastModified: undefined },
      { size: 16, contentType: 'text/plain', lastModified: undefined, name: 'report.txt', etag: '"v1"' },
    );
    const dir = await mkdtemp(join(tmpdir(), 'spout-shim-'));
    try {
      const path = join(dir, 'notes.json');
      await writeFile(path, '{"a":1}');
      const local = await getFileStreamAndMetadata(path);
      assert.equal(local.metadata.size, 7);
      assert.equal(local.metadata.contentType, 'application/json');
      assert.equal(local.metadata.name, 'notes.json');
      assert.equal(await readAll(await getFileStream(path)), '{"a":1}');
      await readAll(local.stream);
      await assert.rejects(getFileStream(join(dir, 'missing.txt')), /File not found/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('platform shim: transformConfigForOauth', () => {
  it('gives the method, RFC 3986-encoded URL and form fields to sign', () => {
    const config = {
      method: 'post',
      url: 'https://api.example.com/1.1/statuses',
      params: { status: "it's (a) test!" },
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      data: { reply: 'yes' },
    };
    assert.deepEqual(transformConfigForOauth(config), {
      method: 'POST',
      url: 'https://api.example.com/1.1/statuses?status=it%27s%20%28a%29%20test%21',
      data: { reply: 'yes' },
    });
  });

  it('leaves JSON bodies out of the signature', () => {
    const request = transformConfigForOauth({ url: 'https://api.example.com/x', data: { a: 1 } });
    assert.deepEqual(request, { method: 'GET', url: 'https://api.example.com/x' });
  });
});

describe('platform shim: ConfigurationError and constants', () => {
  it('is an Error named ConfigurationError with the message given', () => {
    const err = new ConfigurationError('pick a channel');
    assert.ok(err instanceof ConfigurationError);
    assert.ok(err instanceof Error);
    assert.equal(err.name, 'ConfigurationError');
    assert.equal(err.message, 'pick a channel');
  });

  it('has the documented default polling interval, in seconds', () => {
    assert.equal(DEFAULT_POLLING_SOURCE_TIMER_INTERVAL, 900);
  });
});

describe('types shim', () => {
  it('defineSource, defineAction and defineApp return their argument', () => {
    const source = { key: 'demo-new-item', version: '0.0.1', type: 'source', run: () => undefined };
    assert.equal(defineSource(source), source);
    const action = { key: 'demo-act', version: '0.0.1', type: 'action', run: () => 1 };
    assert.equal(defineAction(action), action);
    const app = { type: 'app', app: 'demo', methods: { auth: () => 'k' } };
    assert.equal(defineApp(app), app);
  });

  it('types `this` loosely inside an inline definition, as registry TypeScript expects', async () => {
    const emitted: JSONValue[] = [];
    const source = defineSource({
      type: 'source',
      methods: {
        label(): string {
          return String(this.db.get('last'));
        },
      },
      async run() {
        this.$emit({ at: this.label() });
      },
    });
    const self = { db: { get: () => 'x' }, $emit: (e: JSONValue) => emitted.push(e), label: source.methods.label };
    await source.run.call(self);
    assert.deepEqual(emitted, [{ at: 'x' }]);
  });
});
