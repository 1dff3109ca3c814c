// The UI in a real Chromium: signed in by the one-time token link, lists sources, shows events live.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { deploySource, startSpout, type SpoutProcess } from '../helpers/service';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = 'test-results/screenshots';

describe('UI in Chromium', () => {
  let spout: SpoutProcess;
  let browser: Browser;

  before(async () => {
    spout = await startSpout();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await spout?.stop();
  });

  it('refuses a visit without the token link', async () => {
    const page = await browser.newPage();
    const res = await page.goto(spout.url + '/');
    assert.equal(res?.status(), 401);
    assert.match(await page.textContent('body') ?? '', /spout serve/);
    await page.close();
  });

  it('signs in with the token link, lists the source and shows a new event without reloading', async () => {
    const source = await deploySource(spout);
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(spout.uiUrl);
    assert.equal(new URL(page.url()).search, '', 'the token is dropped from the address bar');
    const html = await page.content();
    assert.ok(!html.includes(spout.apiKey), 'the API key is not in the page');

    await page.getByRole('button', { name: /Request echo/ }).waitFor();
    await page.getByText(source.id).waitFor();
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor();

    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    const res = await fetch(source.endpoint + '/from-test', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":"ui"}' });
    assert.equal(res.status, 200);
    await page.locator('.event', { hasText: '"hello": "ui"' }).waitFor({ timeout: 10_000 });
    assert.equal(navigations, 0, 'the event appeared without a reload');
    await page.screenshot({ path: `${SHOTS}/sources-and-events.png`, fullPage: true });
    assert.deepEqual(problems, [], 'no script errors or CSP violations');

    // The session cookie signs in later visits and the UI's own /v1 calls; it is HttpOnly.
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name.startsWith('spout_session_'));
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, 'Strict');
    await context.close();
  });
});
