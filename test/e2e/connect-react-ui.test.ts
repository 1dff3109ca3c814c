// `@pipedream/connect-react` against Spout in Chromium, through the example app of docs/connect.md
// (docs/examples/connect: its server gets Connect tokens from Spout with @pipedream/sdk, its page
// on another origin renders the component form of a registry action): async options load, the
// form submits, the action's result shows.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PipedreamClient } from '@pipedream/sdk';
import type { Browser } from 'playwright-core';
import { launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { CONNECT_REGISTRY, connectCredentials } from '../helpers/connect';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const EXAMPLE = path.resolve('docs', 'examples', 'connect', 'server.mjs');

/** Runs the example app's server against the Spout, configured as its docs say: PIPEDREAM_* variables only. */
async function startExample(spout: SpoutProcess): Promise<{ origin: string; child: ChildProcess }> {
  const cli = spawn(process.execPath, [path.resolve('dist', 'cli.js'), 'connect', 'credentials', '--env'], { env: { ...process.env, SPOUT_API_URL: spout.url, SPOUT_API_KEY: spout.apiKey } });
  let exports = '';
  cli.stdout.on('data', (c) => (exports += c));
  await new Promise((resolve) => cli.on('exit', resolve));
  const env: Record<string, string> = { ...(process.env as Record<string, string>), PORT: '0' };
  for (const m of exports.matchAll(/^export (PIPEDREAM_\w+)='([^']*)'$/gm)) env[m[1] as string] = m[2] as string;
  assert.equal(env.PIPEDREAM_BASE_URL, spout.url);
  assert.equal(env.PIPEDREAM_WORKFLOW_DOMAIN, '127.0.0.1');
  const child = spawn(process.execPath, [EXAMPLE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const origin = await waitFor(() => /Example app on (http:\/\/[0-9.:]+)/.exec(out)?.[1], 30_000, `the example app to start:\n${out}`);
  return { origin, child };
}

describe('connect-react against Spout', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startExample>>;

  before(async () => {
    spout = await startSpout({ args: ['--registry', CONNECT_REGISTRY] });
    const credentials = await connectCredentials(spout);
    const pd = new PipedreamClient({ baseUrl: spout.url, clientId: credentials.client_id, clientSecret: credentials.client_secret, projectId: credentials.project_id, projectEnvironment: 'development' });
    // The user connected their account before (the Connect Link page, or accounts.create).
    const { token } = await pd.tokens.create({ externalUserId: 'u1' });
    await pd.accounts.create({ externalUserId: 'u1', appSlug: 'ledgerly', name: "Ada's ledger", cfmapJson: JSON.stringify({ api_key: 'key-of-ada-1', owner: 'Ada', books: 'general,travel' }), connectToken: token });
    app = await startExample(spout);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    app?.child.kill('SIGTERM');
    await spout?.stop();
  });

  it('renders the form of a registry action, loads async options, submits, and shows the result', async () => {
    const url = `${app.origin}/?${new URLSearchParams({ user: 'u1', component: 'ledgerly-record-entry' })}`;
    const { page, problems, context } = await signedInPage(browser, url);
    // A failed call to Spout says which and why.
    page.on('response', (r) => {
      if (r.status() >= 400)
        void r.text().then(
          (body) => problems.push(`${r.request().method()} ${r.url()}: ${r.status()} ${body.slice(0, 500)}`),
          () => undefined,
        );
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
      const result = JSON.parse((await page.locator('#result').textContent({ timeout: 20_000 })) as string);
      assert.deepEqual(result.ret, { book: 'travel', amount: 1200, memo: null, owner: 'Ada', key_hint: '-1' });
      assert.equal(result.exports.$summary, 'Recorded 1200 in travel for Ada');
      // connect-react loaded the form, the accounts and the options without one failed call.
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
