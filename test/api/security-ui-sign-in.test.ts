// Issue 42, point 9: the UI link printed at start (and by `spout ui`) carries a one-time sign-in
// token, not the API key, so captured terminal or CI output does not hand out API access.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv } from '../helpers/cli';
import { type SpoutProcess, startSpout } from '../helpers/service';

/** Opens a sign-in link without following the redirect: the status and the session cookie it set. */
async function open(url: string): Promise<{ status: number; cookie: string }> {
  const res = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
  await res.arrayBuffer();
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] as string };
}

describe('UI sign-in links', () => {
  let spout: SpoutProcess;
  before(async () => {
    spout = await startSpout({ keyInDataDir: true, apiKey: 'spk_test_key_for_sign_in' });
  });
  after(() => spout.stop());

  it('prints a link at start whose token is not the key and signs one browser in, once', async () => {
    assert.ok(!spout.uiUrl.includes(spout.apiKey), spout.uiUrl);
    assert.ok(!spout.output().includes(spout.apiKey), 'the key is nowhere in the output');
    const first = await open(spout.uiUrl);
    assert.equal(first.status, 302);
    assert.match(first.cookie, /^spout_session_\d+=/);
    assert.equal((await fetch(`${spout.url}/v1/settings`, { headers: { cookie: first.cookie } })).status, 200);
    // Spent: a second browser (or whoever read the log) gets the sign-in page.
    const again = await open(spout.uiUrl);
    assert.equal(again.status, 401);
    assert.equal(again.cookie, '');
  });

  it('does not take the API key as a sign-in token', async () => {
    const withKey = await open(`${spout.url}/?token=${encodeURIComponent(spout.apiKey)}`);
    assert.equal(withKey.status, 401);
    assert.equal(withKey.cookie, '');
  });

  it('spout ui prints a new link, asked of the running service with the key', async () => {
    const env = cliEnv(null, { SPOUT_DATA_DIR: spout.dataDir });
    const printed = await cli(['ui'], env);
    assert.equal(printed.code, 0, printed.stderr);
    const link = /^UI: (\S+)$/m.exec(printed.stdout)?.[1] ?? '';
    assert.ok(link.startsWith(`${spout.url}/?token=spt_`), printed.stdout);
    assert.ok(!printed.stdout.includes(spout.apiKey));
    const json = await cli(['ui', '--json'], env);
    assert.equal(json.code, 0, json.stderr);
    const other = json.json<{ url: string; token: string; expires_at: string }>();
    assert.notEqual(other.url, link, 'each call makes a new link');
    assert.equal((await open(link)).status, 302);
    assert.equal((await open(link)).status, 401);
    assert.equal((await open(other.url)).status, 302);
  });

  it('makes links for the API key only, never for a browser session', async () => {
    const { cookie } = await open(await spout.signInUrl());
    const res = await fetch(`${spout.url}/v1/ui/sign-in-links`, { method: 'POST', headers: { cookie, origin: spout.url, 'x-spout-ui': '1' } });
    assert.equal(res.status, 403);
    assert.match(((await res.json()) as { detail: string }).detail, /API key/);
  });

  it('voids unused links when the key is rotated', async () => {
    const unused = await spout.signInUrl();
    const rotated = await spout.api('POST', '/v1/settings/api-key/rotate');
    assert.equal(rotated.status, 200, JSON.stringify(rotated.json));
    assert.equal((await open(unused)).status, 401);
  });
});
