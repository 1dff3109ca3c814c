// The Settings screen in a real Chromium: how the service runs (GET /v1/settings), rotating an API
// key kept in the data dir (the new key shown once, the CLI and this browser keep working, the old
// key and other browsers are refused), the service's reason when the key comes from --api-key, and
// the desktop app's instance profile form (its preload bridge stood in for by a script).
// Screenshots go to test-results/screenshots.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { cli, cliEnv } from '../helpers/cli';
import { ECHO_SOURCE, type SpoutProcess, startSpout } from '../helpers/service';

describe('UI: settings, API key rotation, instance profile', () => {
  /** Its key lives in DATA_DIR/api-key, as after a first start: it can be rotated. */
  let keyed: SpoutProcess;
  /** Its key is given with --api-key: rotation is refused. */
  let flagged: SpoutProcess;
  let browser: Browser;

  before(async () => {
    [keyed, flagged] = await Promise.all([startSpout({ keyInDataDir: true, apiKey: 'spk_first_key_abcd', args: ['--retry-schedule', '1,60,7200'] }), startSpout()]);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await Promise.all([keyed?.stop(), flagged?.stop()]);
  });

  /** A page signed in to `spout` by a new sign-in link, recording script errors and CSP violations. */
  async function signedIn(spout: SpoutProcess, initScript?: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const signed = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1440, height: 1000 }, initScript });
    await signed.page.waitForURL((u) => u.pathname === '/sources');
    return signed;
  }

  it('shows how the service runs: URL, data dir, key source and hint, retry policy', async () => {
    const { context, page, problems } = await signedIn(keyed);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByTestId('data-dir').filter({ hasText: keyed.dataDir }).waitFor();
    assert.equal(await page.getByTestId('service-url').textContent(), keyed.url);
    assert.equal(await page.getByTestId('api-key-hint').textContent(), '…abcd');
    assert.equal(await page.getByTestId('api-key-source').textContent(), 'kept in DATA_DIR/api-key');
    assert.equal(await page.getByTestId('retry-schedule').textContent(), '1 s, 1 min, 2 h');
    await page.getByText('latest 10,000 events per source').waitFor();
    // In a browser there is no desktop bridge: a note says where remote profiles are set.
    assert.match((await page.getByTestId('profile-browser-note').textContent()) ?? '', /desktop app.*spout login/s);
    assert.ok(!(await page.content()).includes(keyed.apiKey), 'the key is not in the page');
    await page.screenshot({ path: `${SHOTS}/17-settings.png`, fullPage: true });
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });

  it('rotates a key kept in the data dir: shown once, the CLI follows, this browser keeps working, the old key and other sessions end', async () => {
    const oldKey = keyed.apiKey;
    const other = await signedIn(keyed);
    const { context, page, problems } = await signedIn(keyed);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Rotate API key' }).click();

    // A confirmation first; cancelling changes nothing.
    const dialog = page.getByRole('dialog', { name: 'Rotate the API key?' });
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', /ending in abcd/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(fs.readFileSync(path.join(keyed.dataDir, 'api-key'), 'utf8').trim(), oldKey);
    await page.getByRole('button', { name: 'Rotate API key' }).click();
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    const shown = page.getByTestId('new-api-key');
    await shown.waitFor();
    const newKey = (await shown.textContent()) ?? '';
    assert.match(newKey, /^spk_/);
    assert.equal(fs.readFileSync(path.join(keyed.dataDir, 'api-key'), 'utf8').trim(), newKey, 'the data dir holds the new key');
    await page
      .getByRole('status', { name: 'New API key' })
      .getByText(/CLI reads it from the data dir/)
      .waitFor();
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await page
      .getByTestId('api-key-hint')
      .filter({ hasText: `…${newKey.slice(-4)}` })
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/18-settings-key-rotated.png`, fullPage: true });

    // The old key is refused, the new one works, and the CLI finds it in the data dir by itself.
    const call = (key: string) => fetch(`${keyed.url}/v1/users/me/sources`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    assert.equal(await call(oldKey), 401);
    assert.equal(await call(newKey), 200);
    const listed = await cli(['list', 'sources', '--json'], cliEnv(null, { SPOUT_DATA_DIR: keyed.dataDir, SPOUT_API_URL: keyed.url }));
    assert.equal(listed.code, 0, listed.stderr);

    // This browser stays signed in: a source deployed now shows up, and a reload still opens the app.
    const deployed = await fetch(`${keyed.url}/v1/sources`, { method: 'POST', headers: { authorization: `Bearer ${newKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ component_code: ECHO_SOURCE }) });
    assert.equal(deployed.status, 200);
    const source = ((await deployed.json()) as { data: { id: string } }).data;
    await page.getByRole('link', { name: 'Sources', exact: true }).click();
    await page.getByRole('link', { name: /Request echo/ }).waitFor({ timeout: 10_000 });
    await page.reload();
    await page.getByRole('link', { name: /Request echo/ }).click();
    await page.waitForURL((u) => u.pathname.startsWith(`/sources/${source.id}`));
    await page.getByRole('link', { name: 'Settings' }).click();
    await page
      .getByTestId('api-key-hint')
      .filter({ hasText: `…${newKey.slice(-4)}` })
      .waitFor();
    assert.equal(await page.getByTestId('new-api-key').count(), 0, 'the key is shown only once');

    // Another browser signed in with the old key is signed out.
    assert.equal((await other.context.request.get(`${keyed.url}/v1/settings`)).status(), 401);
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await other.context.close();
    await context.close();
  });

  it("shows the service's reason instead of the rotate button when the key comes from --api-key", async () => {
    const { context, page, problems } = await signedIn(flagged);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByTestId('api-key-source').filter({ hasText: 'given with --api-key' }).waitFor();
    const refusal = page.getByTestId('api-key-refusal');
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /comes from --api-key; change it there and restart the service/);
    assert.equal(await page.getByRole('button', { name: 'Rotate API key' }).count(), 0);
    // The same reason the service gives when asked anyway.
    const asked = await flagged.api('POST', '/v1/settings/api-key/rotate');
    assert.equal(asked.status, 409);
    assert.ok(((await refusal.textContent()) ?? '').toLowerCase().includes(String(asked.json.detail).toLowerCase()), `${await refusal.textContent()} vs ${asked.json.detail}`);
    assert.equal((await flagged.api('GET', '/v1/settings')).status, 200, 'the key is unchanged');
    await page.getByRole('heading', { name: 'API key' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/19-settings-key-from-flag.png` });
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });

  it('shows the instance profile form where the desktop bridge exists, and saves a remote profile through it', async () => {
    // Stands in for main/preload.ts: the same named methods, answering as the main process does.
    // (A string: functions from this file would carry the test bundler's helpers into the page.)
    const fakeBridge = `
      const calls = [];
      let view = { mode: 'local' };
      window.__profileCalls = calls;
      window.spoutDesktop = Object.freeze({
        openExternal: async () => undefined,
        version: async () => '0.1.0',
        getProfile: async () => view,
        setProfile: async (p) => {
          calls.push(p);
          view = p.mode === 'remote' ? { mode: 'remote', url: p.url, keyStorage: 'safeStorage' } : { mode: 'local' };
          return view;
        },
      });`;
    const { context, page, problems } = await signedIn(flagged, fakeBridge);
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Instance profile' });
    await form.waitFor();
    assert.equal(await page.getByTestId('profile-browser-note').count(), 0);
    assert.ok(await form.getByLabel("This app's own instance").isChecked());
    await form.getByLabel('A remote instance').check();
    await form.getByLabel('Instance URL').fill('http://192.0.2.7:7620/sources');
    await form.getByText(/travel unencrypted/).waitFor();
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByRole('alert').filter({ hasText: 'Give the instance’s API key.' }).waitFor();
    await form.getByLabel('Instance URL').fill('https://spout.example.com:7620');
    await form.getByLabel('API key').fill('spk_remote_key');
    await form.getByRole('heading', { name: 'Instance profile' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/20-settings-desktop-profile.png` });
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByRole('status').filter({ hasText: 'loading https://spout.example.com:7620' }).waitFor();
    const calls = await page.evaluate('window.__profileCalls');
    assert.deepEqual(calls, [{ mode: 'remote', url: 'https://spout.example.com:7620', apiKey: 'spk_remote_key' }]);
    assert.equal(await form.getByLabel('API key').inputValue(), '', 'the key is not kept in the page');
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });
});
