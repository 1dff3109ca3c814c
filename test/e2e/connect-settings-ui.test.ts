// Settings → Connect in Chromium (docs/connect.md): the project's credentials with the secret masked
// until shown, the .env lines copied, rotation after a confirmation (the old secret is refused by
// /v1/oauth/token, the new one works); a trigger deployed through @pipedream/sdk shows its external
// user in the sources list, on its page, in Settings' accounts and the external users table.
// axe on the screen. Screenshots go to test-results/screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PipedreamClient } from '@pipedream/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axe, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { CONNECT_REGISTRY, type ConnectCredentials, connectCredentials } from '../helpers/connect';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

describe('UI: Settings → Connect and Connect triggers', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let trigger: { id: string; name: string };
  let credentials: ConnectCredentials;

  /** What `POST /v1/oauth/token` answers for a client id and secret. */
  const token = (clientId: string, secret: string) => fetch(`${spout.url}/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }) }).then((r) => r.status);

  before(async () => {
    spout = await startSpout({ args: ['--registry', CONNECT_REGISTRY] });
    credentials = await connectCredentials(spout);
    const pd = new PipedreamClient({ baseUrl: spout.url, clientId: credentials.client_id, clientSecret: credentials.client_secret, projectId: credentials.project_id, projectEnvironment: 'development' });
    // An end user of the developer's app connects an account and gets a trigger deployed for them.
    const { token: connectToken } = await pd.tokens.create({ externalUserId: 'ada-42' });
    const account = await pd.accounts.create({ externalUserId: 'ada-42', appSlug: 'ledgerly', name: "Ada's ledger", cfmapJson: JSON.stringify({ api_key: 'key-of-ada-1', owner: 'Ada', books: 'general,travel' }), connectToken });
    const deployed = await pd.triggers.deploy({ id: 'ledgerly-new-entry', externalUserId: 'ada-42', configuredProps: { ledgerly: { authProvisionId: account.id }, book: 'general' } });
    trigger = deployed.data as { id: string; name: string };
    browser = await launchBrowser();
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1400, height: 1000 } }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: spout.url });
    await page.waitForURL((u) => u.pathname === '/sources');
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await spout?.stop();
  });

  it("shows whose trigger a Connect-deployed source is: in the list, on its page, and the account's user in Settings", async () => {
    const listed = page.getByRole('list', { name: 'Sources' }).getByRole('link', { name: new RegExp(trigger.name.replace(/[()]/g, '\\$&')) });
    await listed.getByTestId('source-external-user').filter({ hasText: 'Connect trigger of ada-42' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: `${SHOTS}/connect-trigger-in-list.png` });
    await listed.click();
    await page.getByTestId('header-external-user').filter({ hasText: 'Connect trigger of external user ada-42' }).waitFor();
    await axe(page, "a Connect trigger's source page");
    await page.getByRole('link', { name: 'Settings' }).click();
    const accounts = page.getByRole('region', { name: 'Connected accounts' });
    await accounts.getByText("Ada's ledger").waitFor();
    assert.equal(await accounts.getByTestId('account-external-user').textContent(), 'Connect user ada-42');
    assert.deepEqual(problems, []);
  });

  it('shows the credentials with the secret masked, reveals and copies them, and lists the external users', async () => {
    await page.getByRole('navigation', { name: 'Settings views' }).getByRole('link', { name: 'Connect' }).click();
    await page.waitForURL((u) => u.pathname === '/settings/connect');
    const secret = page.getByTestId('connect-client-secret');
    await secret.waitFor();
    assert.equal(await page.getByTestId('connect-client-id').textContent(), credentials.client_id);
    assert.equal(await page.getByTestId('connect-project-id').textContent(), 'proj_local');
    assert.equal(await page.getByTestId('connect-base-url').textContent(), spout.url);
    assert.equal(await secret.textContent(), `••••••••${credentials.client_secret.slice(-4)}`);
    assert.ok(!(await page.content()).includes(credentials.client_secret), 'the secret is not in the page until shown');
    assert.ok(((await page.getByTestId('connect-env').textContent()) ?? '').split('\n').includes(`PIPEDREAM_CLIENT_SECRET=••••••••${credentials.client_secret.slice(-4)}`), 'the .env lines mask the secret as the field does');

    // The copy has the real values, in the variables the SDK reads.
    await page.evaluate('navigator.clipboard.writeText("")');
    await page.getByRole('button', { name: 'Copy .env lines' }).click();
    const env = await waitFor(() => page.evaluate('navigator.clipboard.readText()') as Promise<string>, 5000, 'the .env lines');
    assert.equal(env, [`PIPEDREAM_BASE_URL=${spout.url}`, 'PIPEDREAM_PROJECT_ID=proj_local', `PIPEDREAM_CLIENT_ID=${credentials.client_id}`, `PIPEDREAM_CLIENT_SECRET=${credentials.client_secret}`, 'PIPEDREAM_PROJECT_ENVIRONMENT=development', 'PIPEDREAM_WORKFLOW_DOMAIN=127.0.0.1'].join('\n'));

    const show = page.getByRole('button', { name: 'Show secret' });
    await show.click();
    assert.equal(await show.getAttribute('aria-pressed'), 'true');
    assert.equal(await secret.textContent(), credentials.client_secret);
    await show.click();
    assert.ok(!(await page.content()).includes(credentials.client_secret), 'hidden again');

    const users = page.getByRole('table', { name: 'External users' });
    const row = users.getByRole('row').filter({ hasText: 'ada-42' });
    await row.getByRole('link', { name: trigger.name }).waitFor();
    await row.getByText("Ada's ledger (ledgerly)").waitFor();
    await page.screenshot({ path: `${SHOTS}/connect-settings.png` });
    await axe(page, 'Settings → Connect');
    await page.setViewportSize({ width: 1000, height: 900 });
    await axe(page, 'Settings → Connect at 1000 px');
    await page.setViewportSize({ width: 1400, height: 1000 });
    assert.deepEqual(problems, []);
  });

  it('rotates the client credentials after a confirmation: the old secret is refused, the new one signs in', async () => {
    assert.equal(await token(credentials.client_id, credentials.client_secret), 200);
    // The session cookie alone cannot rotate (another page could send it): the UI's header is needed.
    const forged = await context.request.post(`${spout.url}/v1/settings/connect/rotate`, { data: {} });
    assert.equal(forged.status(), 403);
    assert.deepEqual(await connectCredentials(spout), credentials);
    const rotate = page.getByRole('button', { name: 'Rotate client secret' });
    await rotate.click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the Connect client secret?' });
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', new RegExp(`ending in ${credentials.client_secret.slice(-4)}`));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await connectCredentials(spout), credentials, 'cancelling changes nothing');

    // The keyboard confirms: the dialog focuses its confirming button.
    await rotate.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('status', { name: 'New client credentials' }).waitFor();
    const now = await connectCredentials(spout);
    assert.notEqual(now.client_secret, credentials.client_secret);
    await page.getByTestId('connect-client-id').filter({ hasText: now.client_id }).waitFor();
    assert.equal(await page.getByTestId('connect-client-secret').textContent(), `••••••••${now.client_secret.slice(-4)}`);
    assert.equal(await token(credentials.client_id, credentials.client_secret), 401);
    assert.equal(await token(now.client_id, now.client_secret), 200);
    await page.screenshot({ path: `${SHOTS}/connect-settings-rotated.png` });
    assert.deepEqual(problems, []);
  });
});
