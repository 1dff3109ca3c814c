// A webhook's queue paused and resumed in Chromium (issue 47, point 4): the Paused badge, held
// messages listed as paused and nothing sent, then every one delivered in order on Resume; a
// delivery links to its event and its run; the subscribe form disarms after subscribing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axe, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';
import { createWebhook } from '../helpers/webhooks';

/** Emits each request's `n`. Written for this test. */
const NUMBERS = `export default {
  name: "Numbered orders", version: "0.1.0", props: { http: { type: "$.interface.http" } },
  async run(event) { this.$emit({ n: event.body.n }, { summary: "order " + event.body.n }); },
};
`;

describe('pausing and resuming a webhook in Chromium', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Receiver;

  before(async () => {
    spout = await startSpout();
    receiver = await startReceiver();
    browser = await launchBrowser();
    ({ context, page } = await signedInPage(browser, await spout.signInUrl()));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await spout?.stop();
    await receiver?.close();
  });

  it('holds deliveries while paused, shows them paused, and delivers them in order on resume', async () => {
    const source = await deploySource(spout, NUMBERS);
    const hook = await createWebhook(spout, receiver.url, { name: 'Held hook' });
    await page.goto(`${spout.url}/webhooks/${hook.id}`);

    // Subscribing disarms the form: the source is cleared, so a second click cannot subscribe again.
    await page.getByLabel('Source', { exact: true }).selectOption(source.id);
    const subscribe = page.getByRole('button', { name: 'Subscribe', exact: true });
    await subscribe.click();
    await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
    await waitFor(async () => (await subscribe.isDisabled()) || null, 10_000, 'the subscribe button disarmed');
    assert.equal(await page.getByLabel('Source', { exact: true }).inputValue(), '');
    const subs = (await spout.api('GET', '/v1/users/me/subscriptions')).json.data.filter((s: { listener_id: string }) => s.listener_id === hook.id);
    assert.equal(subs.length, 1);

    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByTestId('paused-badge').waitFor();
    await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    assert.equal((await spout.api('GET', `/v1/webhooks/${hook.id}`)).json.data.paused, true);

    for (const n of [1, 2, 3]) {
      const res = await fetch(source.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
      assert.equal(res.status, 200);
    }
    const held = page.locator('tr[data-status="paused"]');
    await waitFor(async () => ((await held.count()) === 3 ? true : null), 10_000, 'three held messages');
    assert.equal(receiver.received.length, 0, 'nothing sent while paused');
    await axe(page, 'a paused webhook with held messages');
    await page.screenshot({ path: `${SHOTS}/webhook-paused.png` });

    // Each delivery links to its event (the source's Events tab) and to the run that emitted it.
    const first = held.first();
    const eventHref = (await first.getByRole('link', { name: /order \d/ }).getAttribute('href')) ?? '';
    assert.match(eventHref, new RegExp(`^/sources/${source.id}/events/[^/]+$`));
    const runHref = (await first.getByRole('link', { name: /^run / }).getAttribute('href')) ?? '';
    assert.match(runHref, new RegExp(`^/sources/${source.id}/activity/[^/]+$`));

    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    const delivered = page.locator('tr[data-status="delivered"]');
    await waitFor(async () => ((await delivered.count()) === 3 ? true : null), 15_000, 'three delivered messages');
    await page.getByTestId('paused-badge').waitFor({ state: 'detached' });
    assert.deepEqual(
      receiver.received.map((r) => JSON.parse(r.body).n),
      [1, 2, 3],
      'delivered in the order they were created',
    );

    // The event link opens the event in its source's Events tab.
    await page.goto(`${spout.url}${eventHref}`);
    await page.getByText('order 1').first().waitFor();
  });
});
