// Issue 45 (8, 7, 6): URLs compared in one canonical form whatever their escaping, hand-written
// entries with a credential in clear matching as masked ones do, and the closest entry of a miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Cassette, CassetteEntry } from '../../../../runtime/contract/network-api';
import { canonicalUrl, closestEntry, Matcher } from '../../../../runtime/engine/network/cassette-match';
import { maskerFor } from '../../../../runtime/engine/network/network-service';
import { emptyCassette } from '../../../../runtime/store/cassette-store';

const body = (text: string) => ({ body: text, body_encoding: 'utf8' as const, body_size: text.length, body_truncated: false });
const entry = (method: string, url: string): CassetteEntry => ({ request: { method, url, headers: {}, ...body('') }, response: { status: 200, headers: {}, ...body('{}') }, recorded_at: null });
const cassette = (entries: CassetteEntry[], ignore: string[] = []): Cassette => ({ ...emptyCassette(), matching: { ignore_query: ignore, body: true, order: 'content' }, entries });

describe('one canonical form of a URL', () => {
  it('matches an entry without an ignored parameter whose query has %20 and %2A, as a client escapes them another way', () => {
    const found = new Matcher().match(cassette([entry('GET', "https://api.example.com/drive/v3/files?q=name%20contains%20'report'%2A")], ['pageToken']), {
      method: 'GET',
      url: 'https://api.example.com/drive/v3/files?q=name+contains+%27report%27*&pageToken=abc',
      body: '',
    });
    assert.equal(found?.index, 0);
  });

  it('compares path segments however they are escaped', () => {
    assert.equal(canonicalUrl('https://api.example.com/v1/a%2Ab/x%7Ey'), canonicalUrl('https://api.example.com/v1/a*b/x~y'));
    const found = new Matcher().match(cassette([entry('GET', 'https://api.example.com/v1/sheets/My%20Sheet!A1')]), { method: 'GET', url: 'https://api.example.com/v1/sheets/My%20Sheet%21A1', body: '' });
    assert.equal(found?.index, 0);
  });
});

describe('hand-written entries with a credential in clear', () => {
  const masker = maskerFor({ api_key: 'real-key-12345' }, []);

  it('match the masked request as the masked form does', () => {
    const request = masker.request({ method: 'GET', url: 'https://api.example.com/items?apiKey=real-key-12345', headers: {}, ...body('') });
    for (const url of ['https://api.example.com/items?apiKey=real-key-12345', 'https://api.example.com/items?apiKey=********']) {
      const found = new Matcher().match(cassette([entry('GET', url)]), request, (r) => masker.request(r));
      assert.equal(found?.index, 0, url);
    }
  });
});

describe('the closest entry of a miss', () => {
  it('is the one of the same method sharing the longest URL start', () => {
    const c = cassette([entry('POST', 'https://api.example.com/v1/orders.json'), entry('GET', 'https://api.example.com/v1/orders.json?status=any'), entry('GET', 'https://api.example.com/v2/shop.json')]);
    assert.equal(closestEntry(c, { method: 'GET', url: 'https://api.example.com/v1/orders.json?status=open' })?.index, 1);
    assert.equal(closestEntry(emptyCassette(), { method: 'GET', url: 'https://x.example.com/' }), null);
  });
});
