// Bulk retry from a webhook's messages view in Chromium (issue 47, point 4): messages from two
// sources fail; the list is filtered to one source; "Retry failed…" asks with the count and the
// filters; once confirmed, only that source's messages are sent again and show as delivered.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { axe, SHOTS } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, waitFor } from '../helpers/service';
import { createWebhook, messages, subscribe, untilMessages } from '../helpers/webhooks';

/** Emits each request's `n`, summarised with the source's word. Written for this test. */
const numbered = (name: string, word: string) => `export default {
  name: "${name}", version: "0.1.0", props: { http: { type: "$.interface.http" } },
  async run(event) { this.$emit({ n: event.body.n, from: "${word}" }, { summary: "${word} " + event.body.n }); },
};
`;

/** Where the lead collects the screenshots. */
const SCREENS = '/work/screens';

describe('retrying failed deliveries in bulk in Chromium', () => {
  const suite = browserSuite();
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
  });

  it('retries only the failed messages the filters take, after asking with their count', async () => {
    const { spout, page } = suite;
    receiver.respond = () => 500;
    const orders = await deploySource(spout, numbered('Orders', 'order'), { name: 'orders' });
    const refunds = await deploySource(spout, numbered('Refunds', 'refund'), { name: 'refunds' });
    // No retries: a message fails on its first failed attempt.
    const hook = await createWebhook(spout, receiver.url, { name: 'Bulk hook', retry_schedule: [] });
    await subscribe(spout, orders.id, hook.id);
    await subscribe(spout, refunds.id, hook.id);
    for (const [source, n] of [
      [orders, 1],
      [refunds, 1],
      [orders, 2],
      [refunds, 2],
      [orders, 3],
    ] as const) {
      const res = await fetch(source.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
      assert.equal(res.status, 200);
    }
    await untilMessages(spout, hook.id, 'failed', 5, 15_000);

    await page.goto(`${spout.url}/webhooks/${hook.id}`);
    await page.getByLabel('Deliveries from').selectOption(orders.id);
    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await page.getByLabel('Created').selectOption('1h');
    const count = page.getByTestId('delivery-count');
    await count.getByText('3 of 3 matching status:failed source:orders since 1h').waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('tr[data-message-id]').count(), 3);
    assert.equal(await page.locator('tr[data-message-id]').filter({ hasText: 'refund' }).count(), 0, 'the other source is filtered out');

    // j/k open the next and previous message's attempts, as in the other lists.
    const rowIds = await page.locator('tr[data-message-id]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-message-id')));
    const opened = () => page.locator('tr[data-message-id].selected').getAttribute('data-message-id');
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('j');
    await page.getByRole('list', { name: `Attempts of ${rowIds[0]}` }).waitFor();
    await page.keyboard.press('j');
    await page.getByRole('list', { name: `Attempts of ${rowIds[1]}` }).waitFor();
    assert.equal(await opened(), rowIds[1]);
    await page.keyboard.press('k');
    await page.getByRole('list', { name: `Attempts of ${rowIds[0]}` }).waitFor();
    assert.equal(await page.locator('tr.attempts-row').count(), 1, 'one message open at a time');
    await page.keyboard.press('k');
    await waitFor(async () => (await opened()) === rowIds[0] || null, 5000, 'k at the top keeps the first open');

    // Axe-clean and on screen at both widths, light and dark; the lead's screenshots in light.
    fs.mkdirSync(SCREENS, { recursive: true });
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      for (const colorScheme of ['dark', 'light'] as const) {
        await page.emulateMedia({ colorScheme });
        await axe(page, `the filtered messages view at ${width} px, ${colorScheme}`);
      }
      const retryButton = await page.getByRole('button', { name: 'Retry failed…' }).boundingBox();
      assert.ok(retryButton && retryButton.x + retryButton.width <= width, `Retry failed… on screen at ${width} px`);
      await page.locator('#msgs-h').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENS}/47-bulk-${width}.png` });
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.getByRole('button', { name: 'Retry failed…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Retry failed messages' });
    await dialog.getByTestId('retry-question').getByText('Retry 3 failed messages matching status:failed source:orders since 1h?').waitFor();
    await axe(page, 'the bulk retry question');
    await page.screenshot({ path: `${SHOTS}/47-bulk-confirm.png` });

    receiver.respond = () => 200;
    await dialog.getByRole('button', { name: 'Retry 3 messages' }).click();
    await dialog
      .getByTestId('retry-result')
      .getByText(/^Queued 3 messages for one more attempt/)
      .waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The list drops its status filter to show the retried messages going out, and they arrive.
    assert.equal(await page.getByLabel('Status', { exact: true }).inputValue(), '');
    const delivered = page.locator('tr[data-status="delivered"]');
    await waitFor(async () => ((await delivered.count()) === 3 ? true : null), 15_000, 'three delivered rows');
    await count.getByText('3 of 3 matching source:orders since 1h').waitFor();

    const bodies = receiver.received.filter((_, i) => i >= 5).map((r) => JSON.parse(r.body) as { from: string; n: number });
    assert.deepEqual(bodies.map((b) => b.from).sort(), ['order', 'order', 'order'], 'only the filtered source was sent again');
    assert.equal((await messages(spout, hook.id, 'delivered')).total, 3);
    const stillFailed = (await messages(spout, hook.id, 'failed')).data;
    assert.deepEqual(
      stillFailed.map((m) => m.emitter_id),
      [refunds.id, refunds.id],
      "the other source's messages stay failed",
    );
  });

  it('says when no failed message matches, and retries nothing', async () => {
    const { spout, page } = suite;
    const hooks = (await spout.api('GET', '/v1/users/me/webhooks')).json.data as Array<{ id: string; name: string }>;
    const hook = hooks.find((h) => h.name === 'Bulk hook');
    assert.ok(hook);
    await page.goto(`${spout.url}/webhooks/${hook.id}`);
    await page.getByLabel('Channel filter').fill('no-such-channel');
    await page.getByTestId('delivery-count').getByText('0 of 0 matching channel:no-such-channel').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Retry failed…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Retry failed messages' });
    await dialog.getByText('No failed messages match status:failed channel:no-such-channel.').waitFor();
    const before = receiver.received.length;
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await messages(spout, hook.id, 'failed')).total, 2, 'nothing was retried');
    assert.equal(receiver.received.length, before);

    // A status that is never retried disables the button, saying why.
    await page.getByLabel('Status', { exact: true }).selectOption('delivered');
    const retry = page.getByRole('button', { name: 'Retry failed…' });
    await waitFor(async () => (await retry.isDisabled()) || null, 5000, 'the retry button disabled');
    assert.match((await retry.getAttribute('title')) ?? '', /Only failed or failing messages are retried/);
  });
});
