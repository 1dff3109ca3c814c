// Run now on an HTTP source in Chromium (issue 43, point 6): it opens the request it will send,
// prefilled with the last request received; the body is edited and sent, and the run's emitted
// event shows the edited value; a request saved as a payload is picked and sent. A source without
// an HTTP interface keeps its one-click Run now.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axe, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** Emits what a request's body says. Written for this test. */
const ORDERS = `export default {
  name: "Orders in the browser", version: "0.1.0", props: { http: { type: "$.interface.http" } },
  async run(event) { this.$emit({ x: event.body.x }, { summary: "order " + event.body.x }); },
};
`;

describe('Run now on an HTTP source in Chromium', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  before(async () => {
    spout = await startSpout();
    browser = await launchBrowser();
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl()));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await spout?.stop();
  });

  const eventData = async (sourceId: string, eventId: string) => (await spout.api('GET', `/v1/sources/${sourceId}/event_summaries/${eventId}`)).json.data.event as { x: string };

  it('shows the last request, sends it edited, saves it as a payload and sends the payload', async () => {
    const source = await deploySource(spout, ORDERS);
    await fetch(`${source.endpoint}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: 'first' }) });
    await page.goto(`${spout.url}/sources/${source.id}`);
    await page.getByRole('button', { name: 'Run now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run now: send a request' });
    await dialog.waitFor();
    const form = dialog.getByRole('form', { name: 'Request to send' });
    const body = form.getByLabel('Body');
    await waitFor(async () => (await body.inputValue()) === '{"x":"first"}', 10_000, 'the last request prefilled');
    assert.equal(await form.getByLabel('Path', { exact: true }).inputValue(), '/orders');
    assert.equal(await form.getByLabel('Method').inputValue(), 'POST');
    assert.match(await form.getByLabel('Headers (one per line)').inputValue(), /content-type: application\/json/);
    assert.equal(await form.getByLabel('Start from').locator('option:checked').textContent(), 'Last request received');
    await axe(page, 'the run-now request dialog');

    await body.fill('{"x":"edited"}');
    await form.getByRole('button', { name: 'Send' }).click();
    await page.locator('.toast').getByText('Ran: 1 event emitted').waitFor();
    const result = dialog.getByTestId('run-request-result');
    await result.getByTestId('invocation-emits').getByText('order edited').waitFor();
    await result.getByTestId('response-status').getByText('200').waitFor();
    await page.screenshot({ path: `${SHOTS}/run-now-request.png` });
    const edited = (await spout.api('GET', `/v1/sources/${source.id}/invocations?limit=1`)).json.data[0];
    assert.equal(edited.trigger, 'http');
    assert.equal(edited.request.body, '{"x":"edited"}');
    assert.equal((await eventData(source.id, edited.emits[0].event_id)).x, 'edited');

    // Save as payload, go back to the last request, then pick the payload and send it.
    await body.fill('{"x":"saved"}');
    await form.getByLabel('Payload name').fill('saved order');
    await form.getByRole('button', { name: 'Save as payload' }).click();
    await page.locator('.toast').getByText('Saved payload "saved order"').waitFor();
    const saved = (await spout.api('GET', `/v1/sources/${source.id}/payloads`)).json.data;
    assert.deepEqual(
      saved.map((p: { name: string; body: string }) => [p.name, p.body]),
      [['saved order', '{"x":"saved"}']],
    );
    await form.getByLabel('Start from').selectOption({ label: 'Last request received' });
    assert.equal(await body.inputValue(), '{"x":"edited"}', 'the last request is now the edited one');
    await form.getByLabel('Start from').selectOption({ label: 'Saved: saved order' });
    assert.equal(await body.inputValue(), '{"x":"saved"}');
    await form.getByRole('button', { name: 'Send' }).click();
    await result.getByTestId('invocation-emits').getByText('order saved').waitFor();
    const fromPayload = (await spout.api('GET', `/v1/sources/${source.id}/invocations?limit=1`)).json.data[0];
    assert.equal((await eventData(source.id, fromPayload.emits[0].event_id)).x, 'saved');

    // Following the emitted event's link leaves the dialog for the Events tab.
    await result.getByTestId('invocation-emits').getByRole('link').click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
  });

  it('keeps one-click Run now for a source without an HTTP interface', async () => {
    const plain = await deploySource(spout, `export default { name: "Plain run", version: "0.1.0", props: {}, async run() { this.$emit({ ok: true }); } };`);
    await page.goto(`${spout.url}/sources/${plain.id}`);
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.locator('.toast').getByText('Ran: 1 event emitted').waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0);
  });
});
