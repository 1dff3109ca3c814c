// Cassettes easy to write by hand (issue 21): only secret `$auth` fields are masked, so hosts stay
// readable, and a hand-written entry without a body matches any body.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Cassette, CassetteEntry } from '../../../../runtime/contract/network-api';
import { Matcher } from '../../../../runtime/engine/network/cassette-match';
import { maskerFor } from '../../../../runtime/engine/network/network-service';
import { emptyCassette } from '../../../../runtime/store/cassette-store';

const body = (text: string) => ({ body: text, body_encoding: 'utf8' as const, body_size: text.length, body_truncated: false });

describe('masking recorded calls', () => {
  it('masks secret $auth fields by name and secret props, and keeps hosts, regions and ids', () => {
    const masker = maskerFor({ subdomain: 'acme-eu', region: 'eu-west', account_id: '123456789', api_key: 'k-123456', oauth_access_token: 'tok-abcdef', nested: { client_secret: 'shh-1234' }, AuthToken: 'twilio-tok' }, ['prop-secret-1']);
    const masked = masker.request({
      method: 'POST',
      url: 'https://acme-eu.example.com/v1/123456789?key=k-123456&region=eu-west',
      headers: { 'x-token': 'tok-abcdef', authorization: 'Basic xyz' },
      ...body('{"secret":"shh-1234","p":"prop-secret-1","t":"twilio-tok"}'),
    });
    assert.equal(masked.url, 'https://acme-eu.example.com/v1/123456789?key=********&region=eu-west');
    assert.deepEqual(masked.headers, { 'x-token': '********', authorization: '********' });
    assert.equal(masked.body, '{"secret":"********","p":"********","t":"********"}');
  });
});

describe('matching hand-written entries', () => {
  const entry = (method: string, url: string, text: string, recorded: boolean): CassetteEntry => ({
    request: { method, url, headers: {}, ...body(text) },
    response: { status: 201, headers: {}, ...body('{}') },
    recorded_at: recorded ? 1 : null,
  });
  const cassette = (entries: CassetteEntry[]): Cassette => ({ ...emptyCassette(), entries });

  it('answers a request with a body from an entry written without one', () => {
    const found = new Matcher().match(cassette([entry('POST', 'https://api.example.com/things', '', false)]), { method: 'POST', url: 'https://api.example.com/things', body: '{"a":1}' });
    assert.equal(found?.index, 0);
  });

  it('still compares bodies of recorded entries and of hand-written ones that give a body', () => {
    const request = { method: 'POST', url: 'https://api.example.com/things', body: '{"a":1}' };
    assert.equal(new Matcher().match(cassette([entry('POST', 'https://api.example.com/things', '', true)]), request), null);
    assert.equal(new Matcher().match(cassette([entry('POST', 'https://api.example.com/things', '{"a":2}', false)]), request), null);
    assert.equal(new Matcher().match(cassette([entry('POST', 'https://api.example.com/things', '{"a":1}', false)]), request)?.index, 0);
  });

  it('matches a query however its characters are escaped', () => {
    const recorded = cassette([entry('GET', 'https://api.example.com/hooks?callback=https%3A%2F%2Fcb.example.com%2Fx&n=1', '', false)]);
    // axios leaves ":" and "/" of a parameter unescaped ("https:%2F%2F…" from its own encoder) and spaces as "+".
    assert.equal(new Matcher().match(recorded, { method: 'GET', url: 'https://api.example.com/hooks?callback=https:%2F%2Fcb.example.com%2Fx&n=1', body: '' })?.index, 0);
    assert.equal(new Matcher().match(cassette([entry('GET', 'https://api.example.com/s?q=a%20b', '', false)]), { method: 'GET', url: 'https://api.example.com/s?q=a+b', body: '' })?.index, 0);
    assert.equal(new Matcher().match(recorded, { method: 'GET', url: 'https://api.example.com/hooks?callback=https:%2F%2Fother.example.com&n=1', body: '' }), null);
  });
});
