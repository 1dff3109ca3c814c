// `@pipedream/connect-react` against Spout in Chromium: an app's page on another origin renders
// the component form of a registry action with a Connect token its server got from Spout, loads a
// prop's async options, submits, and shows the action's result.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { PipedreamClient } from '@pipedream/sdk';
import { launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { CONNECT_REGISTRY, connectCredentials } from '../helpers/connect';
import { startSpout, type SpoutProcess } from '../helpers/service';

const PAGE = path.resolve('test', 'fixtures', 'connect-page', 'page.jsx');

/** The app's own server: its page, its bundle, and the route that gets Connect tokens from Spout. */
async function startApp(pd: PipedreamClient, bundle: string): Promise<{ origin: string; close: () => Promise<void> }> {
  let origin = '';
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    if (url.pathname === '/token') {
      // As an app's backend does: a token for its signed-in user, usable from its own origin only.
      const token = await pd.tokens.create({ externalUserId: url.searchParams.get('user') ?? '', allowedOrigins: [origin] });
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: token.token, expires_at: token.expiresAt.toISOString(), connect_link_url: token.connectLinkUrl }));
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title></head><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('connect-react against Spout', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startApp>>;

  before(async () => {
    spout = await startSpout({ args: ['--registry', CONNECT_REGISTRY] });
    const credentials = await connectCredentials(spout);
    const pd = new PipedreamClient({ baseUrl: spout.url, clientId: credentials.client_id, clientSecret: credentials.client_secret, projectId: credentials.project_id, projectEnvironment: 'development' });
    // The user connected their account before (the Connect Link page, or accounts.create).
    const { token } = await pd.tokens.create({ externalUserId: 'u1' });
    await pd.accounts.create({ externalUserId: 'u1', appSlug: 'ledgerly', name: "Ada's ledger", cfmapJson: JSON.stringify({ api_key: 'key-of-ada-1', owner: 'Ada', books: 'general,travel' }), connectToken: token });
    const bundled = await build({ entryPoints: [PAGE], bundle: true, write: false, format: 'esm', platform: 'browser', jsx: 'automatic', define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'silent' });
    app = await startApp(pd, bundled.outputFiles[0]!.text);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await spout?.stop();
  });

  it('renders the form of a registry action, loads async options, submits, and shows the result', async () => {
    const url = `${app.origin}/?${new URLSearchParams({ spout: spout.url, user: 'u1', component: 'ledgerly-record-entry' })}`;
    const { page, problems, context } = await signedInPage(browser, url);
    // A failed call to Spout says which and why.
    page.on('response', (r) => {
      if (r.status() >= 400) void r.text().then((body) => problems.push(`${r.request().method()} ${r.url()}: ${r.status()} ${body.slice(0, 500)}`), () => undefined);
    });
    try {
      await page.getByText('Connect Ledgerly account').waitFor({ timeout: 20_000 });
      // The app prop lists the user's accounts.
      await page.locator('.react-select__control').first().click();
      await page.getByText("Ada's ledger", { exact: true }).click();
      // The book's options come from the account, through configureProp.
      const book = page.locator('.react-select__control').nth(1);
      await book.click();
      await page.getByText('travel (Ada)', { exact: true }).click();
      await page.locator('input[type="number"]').first().fill('1200');
      await page.screenshot({ path: `${SHOTS}/connect-react-form.png` });
      await page.getByRole('button', { name: /submit/i }).click();
      const result = JSON.parse(await page.locator('#result').textContent({ timeout: 20_000 }) as string);
      assert.deepEqual(result.ret, { book: 'travel', amount: 1200, memo: null, owner: 'Ada', key_hint: '-1' });
      assert.equal(result.exports.$summary, 'Recorded 1200 in travel for Ada');
      // connect-react loaded the form, the accounts and the options without one failed call.
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
