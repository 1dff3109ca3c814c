// The desktop window signs in to a remote instance with a one-time link it asks for with the key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { remoteSignInLink } from '../../main/remote-sign-in';

const answering = (status: number, body: unknown): typeof fetch => (async () => new Response(JSON.stringify(body), { status })) as typeof fetch;

describe('remote sign-in links', () => {
  it('asks the instance with the key and builds the link on the profile URL', async () => {
    let asked: { url: string; auth: string } | null = null;
    const fake = (async (url: string, init: RequestInit) => {
      asked = { url, auth: (init.headers as Record<string, string>).authorization ?? '' };
      return new Response(JSON.stringify({ data: { token: 'spt_abc', url: 'http://internal:7620/?token=spt_abc' } }), { status: 200 });
    }) as unknown as typeof fetch;
    assert.deepEqual(await remoteSignInLink('https://spout.team.example', 'spk_remote', fake), { url: 'https://spout.team.example/?token=spt_abc' });
    assert.deepEqual(asked, { url: 'https://spout.team.example/v1/ui/sign-in-links', auth: 'Bearer spk_remote' });
  });

  it('says why there is no link: a refused key, another answer, no instance', async () => {
    assert.deepEqual(await remoteSignInLink('https://x.example', 'k', answering(401, {})), { problem: 'the API key was refused (401)' });
    assert.match(((await remoteSignInLink('https://x.example', 'k', answering(404, {}))) as { problem: string }).problem, /answered 404/);
    const down = (async () => {
      throw new Error('ECONNREFUSED');
    }) as unknown as typeof fetch;
    assert.match(((await remoteSignInLink('https://x.example', 'k', down)) as { problem: string }).problem, /could not be reached \(ECONNREFUSED\)/);
  });
});
