// The UI in a real Chromium: signed in by the one-time token link, then a new user's path — write a
// source in the editor, configure it, deploy, send a test request, see its log line and event,
// deliver it to a webhook, and resend a failed delivery. Screenshots go to test-results/screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** An HTTP source with a select prop whose options come from an async `options` method, two per page. */
const ORDERS_SOURCE = `export default {
  name: "Orders",
  version: "0.1.0",
  props: {
    http: { type: "$.interface.http" },
    region: {
      type: "string",
      label: "Region",
      description: "Where **orders** come from",
      async options({ page }) {
        const all = [["Europe", "eu"], ["America", "us"], ["Asia", "ap"]];
        return all.slice(page * 2, page * 2 + 2).map(([label, value]) => ({ label, value }));
      },
    },
  },
  async run(event) {
    console.log("order received in " + this.region);
    this.$emit({ region: this.region, body: event.body }, { summary: "order for " + this.region });
  },
};
`;

/** A source with one prop of each kind the form renders. */
const KITCHEN_SINK = `export default {
  name: "Kitchen sink",
  version: "0.1.0",
  props: {
    note: { type: "alert", alertType: "warning", content: "Read the docs at [the site](https://example.com) **first**." },
    token: { type: "string", label: "API token", secret: true },
    batch: { type: "integer", label: "Batch size", min: 1, max: 50, default: 10, optional: true },
    verbose: { type: "boolean", label: "Verbose", optional: true },
    tags: { type: "string[]", label: "Tags", optional: true },
    ids: { type: "integer[]", label: "Ids", optional: true },
    color: { type: "string", label: "Color", options: [{ label: "Red", value: "red" }, { label: "Green", value: "green" }] },
    extra: { type: "object", label: "Headers", optional: true },
    anything: { type: "any", label: "Anything", optional: true },
    timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } },
    db: "$.service.db",
    store: { type: "data_store", label: "Store", optional: true },
    mode: { type: "string", label: "Mode", options: ["simple", "advanced"], reloadProps: true, optional: true, default: "simple" },
  },
  async additionalProps() {
    return this.mode === "advanced" ? { extraSetting: { type: "string", label: "Extra setting", optional: true } } : {};
  },
  async run() {},
};
`;

/** Loads code into the editor with its "Open file…" button, as a user opening a file on disk does. */
async function setEditorText(page: Page, text: string): Promise<void> {
  await page.locator('.monaco-editor').waitFor();
  await page.getByLabel('Open a component file').setInputFiles({ name: 'component.mjs', mimeType: 'text/javascript', buffer: Buffer.from(text) });
  const firstLine = text.split('\n')[0] as string;
  await page.locator('.monaco-editor .view-line', { hasText: firstLine.trim() }).first().waitFor();
}

describe('UI in Chromium', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let receiver: Receiver;

  before(async () => {
    spout = await startSpout();
    receiver = await startReceiver();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await spout?.stop();
  });

  /** A signed-in page that records script errors and CSP violations. */
  async function signedIn(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    return signedInPage(browser, await spout.signInUrl());
  }

  it('refuses a visit without the token link', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${spout.url}/`);
    assert.equal(res?.status(), 401);
    assert.match((await page.textContent('body')) ?? '', /spout serve/);
    await page.close();
  });

  it('walks a new user from an empty app to a delivered and a resent webhook message', async () => {
    const { context, page, problems } = await signedIn();
    await page.getByRole('link', { name: 'Create your first source' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/01-empty-sources.png` });

    // Write the source in the editor and load its props.
    await page.getByRole('link', { name: 'Create your first source' }).click();
    await setEditorText(page, ORDERS_SOURCE);
    await page.getByRole('button', { name: 'Check code & load props' }).click();
    const region = page.getByLabel('Region', { exact: true });
    await region.locator('option', { hasText: 'America' }).waitFor({ state: 'attached' });
    assert.equal(await region.locator('option', { hasText: 'Asia' }).count(), 0, 'the second page is not loaded yet');
    await page.getByRole('button', { name: 'Load more' }).click();
    await region.locator('option', { hasText: 'Asia' }).waitFor({ state: 'attached' });
    await region.selectOption({ label: 'America' });
    assert.ok(await page.locator('.prop-desc strong', { hasText: 'orders' }).count(), 'the description is rendered Markdown');
    await page.getByLabel('Source name').fill('Orders');
    await page.screenshot({ path: `${SHOTS}/02-create-source.png` });

    // Deploy: the source opens with its endpoint and the test-request form.
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.waitForURL(/\/sources\/dc_/);
    const sourceId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] as string);
    const endpoint = (await page.getByTestId('endpoint-url').textContent()) ?? '';
    assert.match(endpoint, /\/e\//);
    await page
      .getByRole('link', { name: /Orders/ })
      .first()
      .waitFor();

    await page.getByLabel('Body').fill('{"item": 42}');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByTestId('test-response').getByText('200').waitFor();
    await page.screenshot({ path: `${SHOTS}/03-source-configure.png` });

    // The log line and the event.
    await page.getByRole('link', { name: 'Logs', exact: true }).click();
    await page.locator('.log-line', { hasText: 'order received in us' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: `${SHOTS}/04-logs.png` });
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.locator('.event-row', { hasText: 'order for us' }).click({ timeout: 10_000 });
    await page.getByTestId('event-view').getByText('"us"').waitFor();
    await page.getByRole('tab', { name: 'Raw' }).click();
    await page.getByTestId('event-view').getByText('"item": 42').waitFor();
    await page.screenshot({ path: `${SHOTS}/05-events.png` });

    // Save-to-redeploy: the editor keeps the deployed code; new code goes out with PUT, same source.
    await page.getByRole('link', { name: 'Configure', exact: true }).click();
    await page.locator('.monaco-editor .view-line', { hasText: 'order received in' }).first().waitFor();
    await setEditorText(page, ORDERS_SOURCE.replace('"order for "', '"v2 order for "'));
    await page.getByRole('button', { name: 'Save & redeploy' }).click();
    await page.getByText('Saved and redeployed').waitFor();
    // Run now on an HTTP source sends it a request (the last one it received), shown first.
    await page.getByRole('button', { name: 'Run now' }).click();
    const runNow = page.getByRole('dialog', { name: 'Run now: send a request' });
    await runNow.getByRole('button', { name: 'Send' }).click();
    await page.getByText(/Ran: 1 event emitted/).waitFor();
    await runNow.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.locator('.event-row', { hasText: 'v2 order for us' }).waitFor({ timeout: 10_000 });

    // A webhook to a local receiver, with a long retry delay so a failure waits for the resend.
    receiver.respond = () => 200;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'New webhook' }).click();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Name (optional)').fill('Local receiver');
    await page.getByLabel(/Retry schedule/).fill('600');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await page.getByTestId('signing-secret').textContent()) ?? '';
    assert.match(secret, /^whsec_/);
    await page.getByLabel('Source', { exact: true }).selectOption(sourceId);
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();

    // An event is delivered…
    await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"item": 1}' });
    await page.locator('tr[data-status="delivered"]').waitFor({ timeout: 10_000 });
    assert.equal(receiver.received.length, 1);

    // …the next one fails, and is resent once the receiver is back.
    receiver.respond = () => 500;
    await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"item": 2}' });
    const failing = page.locator('tr[data-status="failing"], tr[data-status="failed"]');
    await failing.waitFor({ timeout: 10_000 });
    await failing.getByRole('button', { name: 'Attempts' }).click();
    await page.locator('.attempts .badge', { hasText: '500' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/06-webhook-failing.png` });
    receiver.respond = () => 200;
    await failing.getByRole('button', { name: 'Resend' }).click();
    await waitFor(
      () =>
        page
          .locator('tr[data-status="delivered"]')
          .count()
          .then((n) => n === 2),
      10_000,
      'the resent message to be delivered',
    );
    await waitFor(() => receiver.received.length === 3, 5000, 'the resend to reach the receiver');
    assert.equal(receiver.received[2]?.headers['webhook-id'], receiver.received[1]?.headers['webhook-id'], 'the resend keeps the webhook-id');
    await page.screenshot({ path: `${SHOTS}/07-webhook-delivered.png` });

    // The other screens.
    await page.getByRole('link', { name: 'Data stores' }).click();
    await page.getByLabel('New store name').fill('cache');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'cache' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/08-data-stores.png` });
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Retry policy' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/09-settings.png` });

    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });

  it('signs in with the token link, lists a source and shows a new event without reloading', async () => {
    const source = await deploySource(spout);
    const { context, page, problems } = await signedIn();
    assert.equal(new URL(page.url()).search, '', 'the token is dropped from the address bar');
    await page.waitForURL((u) => u.pathname === '/sources');
    assert.ok(!(await page.content()).includes(spout.apiKey), 'the API key is not in the page');

    await page.getByRole('link', { name: /Request echo/ }).click();
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor();
    // Selecting an event puts it in the address (history.replaceState): only a page load counts.
    let loads = 0;
    page.on('load', () => loads++);
    const res = await fetch(`${source.endpoint}/from-test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":"ui"}' });
    assert.equal(res.status, 200);
    await page.locator('.event-row', { hasText: 'POST /from-test' }).click({ timeout: 10_000 });
    await page.getByTestId('event-view').getByText('"ui"').waitFor();
    assert.equal(loads, 0, 'the event appeared without a reload');
    assert.deepEqual(problems, [], 'no script errors or CSP violations');

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name.startsWith('spout_session_'));
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, 'Strict');
    await spout.api('DELETE', `/v1/sources/${source.id}`);
    await context.close();
  });

  it("shows the service's validation problems in the editor and in a list", async () => {
    const { context, page } = await signedIn();
    await page.getByRole('link', { name: 'New source' }).click();
    await setEditorText(page, 'export default {\n  name: "Broken",\n  version: "0.1.0",\n  async run() {\n    this.$emit({ a: 1 \n  },\n};\n');
    await page.getByRole('button', { name: 'Check code & load props' }).click();
    const problems = page.getByRole('alert', { name: 'Problems' });
    await problems.waitFor();
    assert.match((await problems.textContent()) ?? '', /:\d+:\d+/, 'the problem names its line and column');
    await page.locator('.monaco-editor .squiggly-error').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-problems.png` });
    await context.close();
  });

  it('shows warnings (rules Pipedream tolerates) as warning markers and a list, and still loads the props', async () => {
    const { context, page } = await signedIn();
    await page.getByRole('link', { name: 'New source' }).click();
    await setEditorText(page, 'export default {\n  name: "Warned",\n  version: "0.1.0",\n  props: {\n    http: "$.interface.http",\n    lang: { type: "string", label: "Language", default: "en" },\n  },\n  async run() {},\n};\n');
    await page.getByRole('button', { name: 'Check code & load props' }).click();
    const warnings = page.getByRole('status', { name: 'Warnings' });
    await warnings.waitFor();
    assert.match((await warnings.textContent()) ?? '', /props\.lang\.default.*default is allowed only on optional props/);
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor();
    assert.equal(await page.getByRole('alert', { name: 'Problems' }).count(), 0);
    await page
      .getByLabel(/Language/)
      .first()
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-warnings.png` });
    await context.close();
  });

  it('opens the create form from a registry link, and says so when the key is unknown', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${spout.url}/sources?action=create&key=no-such-component`);
    await page.getByRole('heading', { name: 'New source' }).waitFor();
    await page
      .getByText(/no-such-component/)
      .first()
      .waitFor();
    await page.locator('.monaco-editor').waitFor();
    await context.close();
  });

  it('keeps the event inspector windowed and responsive with 10 000 events', async () => {
    const bulk = await deploySource(spout, `export default { name: "Bulk", version: "0.1.0", props: {}, async run() { for (let i = 0; i < 10000; i++) this.$emit({ i }, { summary: "event " + i }); } };`);
    const { context, page, problems } = await signedIn();
    await page.goto(`${spout.url}/sources/${bulk.id}/events`);
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor();
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByTestId('event-count').filter({ hasText: '10000 of 10000' }).waitFor({ timeout: 30_000 });
    const rows = await page.locator('.vrow').count();
    assert.ok(rows < 100, `only the rows in view are rendered (${rows})`);
    // Jumping to the end and searching stay quick.
    const list = page.getByRole('listbox', { name: 'Event list' });
    await list.focus();
    const started = Date.now();
    await page.keyboard.press('End');
    await page.locator('.vrow.selected', { hasText: 'event 0' }).waitFor();
    await page.getByLabel('Search events').fill('event 9999');
    // The search runs on the service, over every stored event.
    await page
      .getByTestId('event-count')
      .filter({ hasText: /^1 matching on the service$/ })
      .waitFor();
    assert.ok(Date.now() - started < 3000, `end + search took ${Date.now() - started} ms`);
    await page.screenshot({ path: `${SHOTS}/10-ten-thousand-events.png` });
    assert.deepEqual(problems, []);
    await spout.api('DELETE', `/v1/sources/${bulk.id}`);
    await context.close();
  });

  it('generates a form for every prop type, and reloads dynamic props', async () => {
    const { context, page, problems } = await signedIn();
    await page.getByRole('link', { name: 'New source' }).click();
    await setEditorText(page, KITCHEN_SINK);
    await page.getByRole('button', { name: 'Check code & load props' }).click();
    await page.getByLabel('API token').waitFor();
    assert.equal(await page.getByLabel('API token').getAttribute('type'), 'password', 'a secret is masked');
    assert.equal(await page.getByLabel(/^Batch size/).getAttribute('max'), '50');
    assert.equal(await page.getByLabel(/^Batch size/).inputValue(), '10', 'the default is filled in');
    await page.getByTestId('alert-note').getByText('Read the docs').waitFor();
    await page.getByTestId('timer-timer').getByText('every 60 s').waitFor();
    await page.getByRole('button', { name: 'Add item' }).first().click();
    await page.getByRole('textbox', { name: 'Tags item 1' }).fill('a');
    await page.getByLabel('Color', { exact: true }).selectOption({ label: 'Green' });
    assert.equal(await page.getByLabel(/^Extra setting/).count(), 0);
    await page.getByLabel(/^Mode/).selectOption({ label: 'advanced' });
    await page.getByLabel(/^Extra setting/).waitFor();
    await page.screenshot({ path: `${SHOTS}/prop-form.png`, fullPage: true });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
