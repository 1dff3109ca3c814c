// component_url: raw code fetched with a size limit and a timeout, failures naming the URL.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fetchComponentCode, rawCodeUrl } from '../../../runtime/components/fetch-code';
import { FetchCodeError } from '../../../runtime/lib/error-kinds';

describe('fetchComponentCode', () => {
  let server: http.Server;
  let base: string;
  let closedPort: number;
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/c/source.ts') res.end('export default {}');
      else if (req.url === '/big') res.end('x'.repeat(1000));
      else if (req.url === '/slow') setTimeout(() => res.end('late'), 2000).unref();
      else if (req.url === '/empty') res.end('');
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const spare = http.createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    closedPort = (spare.address() as AddressInfo).port;
    await new Promise((r) => spare.close(r));
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('fetches the text and takes the file name from the URL', async () => {
    assert.deepEqual(await fetchComponentCode(`${base}/c/source.ts`), { code: 'export default {}', filename: 'source.ts', url: `${base}/c/source.ts` });
  });

  it('refuses what cannot be used, naming the URL', async () => {
    const cases: Array<[string, Parameters<typeof fetchComponentCode>[1], RegExp]> = [
      ['ftp://example.com/x.mjs', {}, /only http and https/],
      ['not a url', {}, /is not a URL/],
      [`${base}/missing.mjs`, {}, /missing\.mjs answered 404/],
      [`${base}/big`, { maxBytes: 100 }, /\/big: the module is over/],
      [`${base}/slow`, { timeoutMs: 200 }, /\/slow: no answer within 0\.2 s/],
      [`${base}/empty`, {}, /empty body/],
      [`http://127.0.0.1:${closedPort}/x.mjs`, {}, new RegExp(`127\\.0\\.0\\.1:${closedPort}/x\\.mjs could not be fetched: ECONNREFUSED`)],
    ];
    for (const [url, options, message] of cases) {
      await assert.rejects(fetchComponentCode(url, options), (err: Error) => err instanceof FetchCodeError && message.test(err.message));
    }
  });

  it('reads GitHub page URLs from their raw address', () => {
    assert.equal(rawCodeUrl(new URL('https://github.com/PipedreamHQ/pipedream/blob/master/components/http/sources/x/x.mjs')).href, 'https://raw.githubusercontent.com/PipedreamHQ/pipedream/master/components/http/sources/x/x.mjs');
    assert.equal(rawCodeUrl(new URL('https://example.com/a.mjs')).href, 'https://example.com/a.mjs');
  });
});
