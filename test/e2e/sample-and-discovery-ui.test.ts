// Issue 45 (5, 9) in Chromium: a webhook source's sample event starts Run now's form and is sent by
// "Send sample event"; in discovery mode the run's calls the cassette lacked get "Make a cassette",
// which downloads the cassette with an entry to fill in for each. A deploy whose hook fails keeps no
// source: the editor's problems list shows what its hook run logged.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { deploySource, type SpoutProcess, startSpout } from '../helpers/service';

/** A webhook source in the registry's shape with its sample event, written for this test: it looks each order up in its API. */
const ORDERS = `export default {
  key: "shop-order-paid", name: "Order paid", version: "0.0.1", type: "source",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    const detail = await fetch("https://api.shop-ui.test/orders/" + event.body.x).then((r) => r.json());
    this.$emit({ x: event.body.x, detail }, { summary: "order " + event.body.x });
  },
  sampleEmit: { x: "sample-7" },
};
`;

describe('sample events and discovery in Chromium', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    spout = await startSpout();
    browser = await launchBrowser();
    ({ context, page } = await signedInPage(browser, await spout.signInUrl(), { acceptDownloads: true }));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await spout?.stop();
  });

  it('starts Run now from the sample, sends it, and makes a cassette of the calls discovery listed', async () => {
    const source = await deploySource(spout, ORDERS, { network_mode: 'discover' });
    await page.goto(`${spout.url}/sources/${source.id}`);
    await page.getByRole('button', { name: 'Run now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run now: send a request' });
    await dialog.waitFor();
    const form = dialog.getByRole('form', { name: 'Request to send' });
    await form.getByLabel('Start from').locator('option:checked', { hasText: 'Sample event of the component (POST)' }).waitFor({ state: 'attached' });
    assert.deepEqual(JSON.parse(await form.getByLabel('Body').inputValue()), { x: 'sample-7' });

    await form.getByRole('button', { name: 'Send sample event' }).click();
    await page.locator('.toast').getByText('Ran: 1 event emitted').waitFor();
    const result = dialog.getByTestId('run-request-result');
    await result.getByTestId('invocation-emits').getByText('order sample-7').waitFor();
    await result.getByTestId('invocation-calls').getByText('not in the cassette (discovery answered {})').waitFor();

    const downloading = page.waitForEvent('download');
    await result.getByRole('button', { name: 'Make a cassette (1 call)' }).click();
    const download = await downloading;
    assert.equal(download.suggestedFilename(), `${source.id}.cassette.json`);
    const cassette = JSON.parse(fs.readFileSync((await download.path()) as string, 'utf8')) as { entries: Array<{ request: { method: string; url: string }; response: { status: number; body: string }; recorded_at: null }> };
    assert.deepEqual(
      cassette.entries.map((e) => [e.request.method, e.request.url, e.response.status, e.response.body, e.recorded_at]),
      [['GET', 'https://api.shop-ui.test/orders/sample-7', 200, '', null]],
    );
  });

  it('shows what a failed deploy’s hook logged, as the source it ran for was not kept', async () => {
    await page.goto(`${spout.url}/sources/new`);
    await page.locator('.monaco-editor').waitFor();
    const code =
      'export default {\n  name: "Registers a hook", version: "0.0.1", type: "source",\n  props: { http: { type: "$.interface.http" } },\n  hooks: { async deploy() { console.warn("the shop answered without an id"); throw new Error("Unexpected error (error code: undefined): {}"); } },\n  async run() {},\n};\n';
    await page.getByLabel('Open a component file').setInputFiles({ name: 'component.mjs', mimeType: 'text/javascript', buffer: Buffer.from(code) });
    await page.locator('.monaco-editor .view-line', { hasText: 'export default {' }).first().waitFor();
    await page.getByRole('button', { name: 'Check code & load props' }).click();
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const problems = page.getByRole('alert', { name: 'Problems' });
    await problems.getByText('the shop answered without an id').waitFor();
    assert.match((await problems.textContent()) ?? '', /the deploy\(\) hook failed: Unexpected error/);
  });
});
