// The Sync screen and Settings → Remote instances in a real Chromium: add a remote (its key checked,
// a connection test), plan a push (the diff per resource), apply with progress to done, a second
// plan that has nothing to do, and a conflict that cannot be applied. Screenshots go to
// test-results/screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { axe, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

const SOURCE = `
export default {
  name: "Orders",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" }, region: { type: "string", label: "Region" } },
  async run(event) { this.$emit(event.body); },
};
`;

describe('UI: remote instances and the Sync screen', () => {
  let a: SpoutProcess;
  let b: SpoutProcess;
  let browser: Browser;

  before(async () => {
    // A's profiles live in a test folder: the UI writes the same file `spout login` does.
    [a, b] = await Promise.all([startSpout({ apiKey: 'key-a', env: { XDG_CONFIG_HOME: tempDir('spout-ui-config-') } }), startSpout({ apiKey: 'key-b' })]);
    const source = await a.api('POST', '/v1/sources', { component_code: SOURCE, configured_props: { region: 'eu' } });
    assert.equal(source.status, 200, JSON.stringify(source.json));
    const hook = await a.api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook', name: 'orders hook' });
    await a.api('POST', '/v1/subscriptions', { emitter_id: source.json.data.id, listener_id: hook.json.data.id });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('adds a remote in Settings, tests it, then plans, shows the diff, applies with progress and is done', async () => {
    const { context, page, problems } = await signedInPage(browser, await a.signInUrl(), { viewport: { width: 1400, height: 1000 } });
    await page.waitForURL((u) => u.pathname === '/sources');
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Add a remote instance' });
    await form.getByLabel('Name').fill('team');
    await form.getByLabel('URL').fill('http://10.1.2.3:7620');
    // Plain http to another machine is refused before anything is sent.
    await page.getByText('Plain http to another machine is refused').waitFor();
    assert.equal(await form.getByRole('button', { name: 'Add remote' }).isDisabled(), true);
    await form.getByLabel('URL').fill(b.url);
    await form.getByLabel('API key').fill('wrong-key');
    await form.getByRole('button', { name: 'Add remote' }).click();
    await page.getByText(/refused the API key/).waitFor();
    // The browser logs the refused request (400) as a console error: that one was expected.
    problems.splice(0, problems.length, ...problems.filter((p) => !/status of 400/.test(p)));
    await form.getByLabel('API key').fill(b.apiKey);
    await form.getByRole('button', { name: 'Add remote' }).click();
    const row = page.getByTestId('remotes').getByRole('row', { name: /team/ });
    await row.waitFor();
    assert.ok(!(await page.content()).includes(b.apiKey), 'the remote key is not in the page');
    await page.getByRole('button', { name: 'Test connection to team' }).click();
    await page
      .getByTestId('remote-test-team')
      .getByText(/✓ .*accepted the key/)
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/30-remote-instances.png`, fullPage: true });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sync' }).click();
    await page.getByRole('heading', { name: 'Sync', level: 1 }).waitFor();
    assert.equal(await page.getByLabel('Remote', { exact: true }).inputValue(), 'team');
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const plan = page.getByTestId('sync-plan');
    await plan
      .getByTestId('plan-summary')
      .getByText(/to create/)
      .waitFor();
    const items = plan.getByTestId('plan-item');
    assert.ok((await items.count()) >= 3);
    const source = items.filter({ hasText: 'source "Orders"' });
    await source.getByText('create', { exact: true }).waitFor();
    const diff = await source.getByTestId('plan-diff').textContent();
    assert.match(diff ?? '', /\+configured_props\.region: "eu"/);
    assert.match(diff ?? '', /\+ +async run\(event\)/);
    await axe(page, 'the sync plan');
    await page.screenshot({ path: `${SHOTS}/31-sync-plan.png`, fullPage: true });

    await plan.getByRole('button', { name: /^Apply \d+ changes?$/ }).click();
    const progress = page.getByTestId('sync-progress');
    await progress.getByTestId('sync-done').waitFor({ timeout: 30_000 });
    assert.match((await progress.getByRole('status').textContent()) ?? '', /(\d+) of \1 steps applied/);
    assert.equal(await progress.locator('li.step-done').count(), await progress.locator('li').count());
    await page.screenshot({ path: `${SHOTS}/32-sync-applied.png`, fullPage: true });
    const onB = (await b.api('GET', '/v1/users/me/sources')).json.data;
    assert.deepEqual(
      onB.map((s: any) => [s.name, s.configured_props.region]),
      [['Orders', 'eu']],
    );

    // Planning again finds nothing to do.
    await progress.getByRole('button', { name: 'Plan again' }).click();
    await page.getByTestId('in-sync').waitFor();
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });

  it('shows a change made on the remote as a conflict and does not apply it', async () => {
    const [hookOnB] = (await b.api('GET', '/v1/users/me/webhooks')).json.data;
    assert.equal((await b.api('PUT', `/v1/webhooks/${hookOnB.id}`, { description: 'edited on B' })).status, 200);
    const { context, page } = await signedInPage(browser, await a.signInUrl(), { viewport: { width: 1400, height: 1000 } });
    await page.waitForURL((u) => u.pathname === '/sources');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sync' }).click();
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const conflict = page.getByTestId('plan-item').filter({ hasText: 'webhook "orders hook"' });
    await conflict.getByText('conflict', { exact: true }).waitFor();
    await conflict.getByText(/changed on team since the last sync/).waitFor();
    assert.match((await conflict.getByTestId('plan-diff').textContent()) ?? '', /-description: "edited on B"/);
    await page.getByText(/1 conflict: nothing can be applied/).waitFor();
    await page.screenshot({ path: `${SHOTS}/33-sync-conflict.png`, fullPage: true });
    // The pull direction brings it back here.
    await page.getByRole('radio', { name: /Pull/ }).check();
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    await page.getByTestId('plan-item').filter({ hasText: 'webhook "orders hook"' }).getByText('update', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Apply 1 change' }).click();
    await page.getByTestId('sync-done').waitFor({ timeout: 30_000 });
    await waitFor(async () => (await a.api('GET', '/v1/users/me/webhooks')).json.data[0].description === 'edited on B', 5000, 'the pulled description');
    await context.close();
  });
});
