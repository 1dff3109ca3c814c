// Issue 23 in Chromium: the UI never loses work, replays exactly and starts from the registry.
// An edit survives a tab switch, a source switch and a reload (and is discarded only when asked);
// a replay from the UI is recorded with the very headers of the original; the component gallery
// finds a `--registry` component by search and deploys it; an event whose run was pruned says so;
// a webhook attempt shows the request it sent, signature included; the counts of deliveries and
// events are the API's totals; the editor sits beside Activity and a stack frame opens its line;
// axe finds nothing serious on the new screens.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axe, editorText, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { rawRequest } from '../helpers/raw-request';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';
import { createWebhook, subscribe } from '../helpers/webhooks';

// Page functions run in the browser; this project type-checks without the DOM library.
declare const navigator: any;
declare const document: any;

/** Emits `?n=` events per request (one by default) and throws on `?fail`; written for this test. */
const COUNTER = `export default {
  name: "Counter",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    if (event.query.fail) {
      throw new Error("failed on purpose");
    }
    const n = Number(event.query.n ?? 1);
    for (let i = 0; i < n; i++) this.$emit({ i, body: event.body }, { summary: "count " + i });
  },
};
`;

/** A registry component of an app "acme", laid out as Pipedream's tree; written for this test. */
const ACME_ORDER = `export default {
  key: "acme-new-order",
  name: "New Acme Order",
  version: "0.0.1",
  type: "source",
  description: "Emits each order posted to its endpoint, for the shop configured.",
  props: {
    http: "$.interface.http",
    shop: { type: "string", label: "Shop name", description: "The shop the orders belong to." },
  },
  async run(event) {
    this.$emit({ shop: this.shop, order: event.body }, { summary: "order for " + this.shop });
  },
};
`;

interface Recorded {
  id: string;
  replay_of: string | null;
  request: { headers: Record<string, string | string[]> } | null;
}

describe('UI: drafts, exact replay, the gallery, pruned runs, attempt requests, totals, split view', () => {
  let spout: SpoutProcess;
  let receiver: Receiver;
  let browser: Browser;
  let a: { id: string; endpoint: string };
  let b: { id: string; endpoint: string };
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  before(async () => {
    const registry = tempDir('spout-registry-');
    fs.mkdirSync(path.join(registry, 'acme', 'sources', 'acme-new-order'), { recursive: true });
    fs.writeFileSync(path.join(registry, 'acme', 'sources', 'acme-new-order', 'acme-new-order.mjs'), ACME_ORDER);
    // Runs are pruned at 5 per source, events kept: an old event outlives the run that emitted it.
    spout = await startSpout({ args: ['--registry', registry, '--invocation-retention', '5'] });
    receiver = await startReceiver();
    browser = await launchBrowser();
    a = await deploySource(spout, COUNTER, { name: 'Counter A' });
    b = await deploySource(spout, COUNTER, { name: 'Counter B' });
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1440, height: 900 } }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: spout.url });
  });
  after(async () => {
    await browser?.close();
    await Promise.all([receiver?.close(), spout?.stop()]);
  });

  /** Types `text` at the end of the first line of the editor. */
  const typeInEditor = async (text: string) => {
    await page.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.type(text);
  };

  it('keeps an unsaved edit across a tab switch, another source and a reload, and drops it only when asked', async () => {
    await page.goto(`${spout.url}/sources/${a.id}`);
    await waitFor(async () => (await editorText(page)).includes('name: "Counter"'), 15_000, 'the code in the editor');
    await typeInEditor(' // edited here');
    await page.getByTestId('draft-state').getByText('Unsaved changes').waitFor();
    const edited = () => waitFor(async () => (await editorText(page)).includes('// edited here'), 15_000, 'the edit in the editor');

    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByTestId('stream-state').waitFor();
    await page.getByRole('link', { name: 'Configure', exact: true }).click();
    await edited();

    await page.getByRole('link', { name: /Counter B/ }).click();
    await waitFor(async () => !(await editorText(page)).includes('// edited here') && (await editorText(page)).includes('name: "Counter"'), 15_000, "B's own code");
    // The list marks the source with unsaved changes.
    await page
      .getByRole('link', { name: /Counter A/ })
      .getByTestId('unsaved-mark')
      .waitFor();
    await page.getByRole('link', { name: /Counter A/ }).click();
    await edited();

    await page.reload();
    await edited();
    await page.getByTestId('draft-state').getByText('Unsaved changes').waitFor();
    await axe(page, 'a source with unsaved changes');

    await page.getByRole('button', { name: 'Discard changes…' }).click();
    await page.getByRole('dialog', { name: 'Discard the unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
    await waitFor(async () => !(await editorText(page)).includes('// edited here') && (await editorText(page)).includes('name: "Counter"'), 15_000, 'the deployed code back');
    assert.equal(await page.getByTestId('draft-state').count(), 0);
  });

  it('keeps a new source’s draft too', async () => {
    await page.getByRole('link', { name: 'New source' }).click();
    await waitFor(async () => (await editorText(page)).includes('My webhook source'), 15_000, 'the template');
    await typeInEditor(' // a new one');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.goBack();
    await waitFor(async () => (await editorText(page)).includes('// a new one'), 15_000, 'the new draft');
    await page.getByRole('button', { name: 'Discard changes…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard changes' }).click();
  });

  it('replays from the UI with exactly the recorded headers, in order', async () => {
    // As curl sends it: five headers, no `connection`, none of the ones `fetch` adds.
    const body = '{"exact":true}';
    const curlHeaders: Array<[string, string]> = [
      ['Host', new URL(a.endpoint).host],
      ['User-Agent', 'curl/8.5.0'],
      ['Accept', '*/*'],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(body.length)],
    ];
    assert.equal(await rawRequest(`${a.endpoint}/exact?x=1`, 'POST', curlHeaders, body), 200);
    const original = await waitFor(async () => ((await spout.api('GET', `/v1/sources/${a.id}/invocations?trigger=http`)).json.data as Recorded[]).find((r) => !r.replay_of), 10_000, 'the run');
    await page.goto(`${spout.url}/sources/${a.id}/activity/${original.id}`);
    await page.getByTestId('invocation-detail').getByRole('button', { name: 'Replay', exact: true }).click();
    const replay = await waitFor(async () => ((await spout.api('GET', `/v1/sources/${a.id}/invocations?trigger=http`)).json.data as Recorded[]).find((r) => r.replay_of === original.id), 10_000, 'the replay');
    assert.deepEqual(Object.keys(original.request!.headers), ['host', 'user-agent', 'accept', 'content-type', 'content-length']);
    assert.deepEqual(Object.entries(replay.request!.headers), Object.entries(original.request!.headers), 'the replay sent the recorded headers, no more, no fewer, in order');
  });

  it('finds a --registry component in the gallery, opens its props and read-only code, and deploys it', async () => {
    await page.getByRole('link', { name: 'New source' }).click();
    await page.getByRole('button', { name: 'Start from a component…' }).click();
    await page.getByLabel('Search components').fill('acme order');
    const item = page.getByRole('listitem').filter({ hasText: 'New Acme Order' });
    await item.getByText('acme-new-order').waitFor();
    await axe(page, 'the component gallery');
    await item.getByRole('button', { name: /^Use New Acme Order/ }).click();
    await page.getByText('Registry component').waitFor();
    await page.getByLabel('Component code (read-only)').first().waitFor({ state: 'attached' });
    await page.getByLabel('Shop name').fill('Corner shop');
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.waitForURL((u) => /\/sources\/dc_/.test(u.pathname));
    const id = new URL(page.url()).pathname.split('/')[2]!;
    const deployed = (await spout.api('GET', `/v1/sources/${id}`)).json.data as { component_key: string; configured_props: Record<string, unknown> };
    assert.equal(deployed.component_key, 'acme-new-order');
    assert.equal(deployed.configured_props.shop, 'Corner shop');
  });

  it('shows an event whose run was pruned as pruned, and its cURL says what it cannot reproduce', async () => {
    const first = await fetch(`${b.endpoint}/old?n=1`, { method: 'POST', body: '{"old":true}' });
    assert.equal(first.status, 200);
    const oldEvent = await waitFor(async () => ((await spout.api('GET', `/v1/sources/${b.id}/event_summaries?limit=100`)).json.data as Array<{ id: string }>).at(-1), 10_000, 'the old event');
    // Six more runs: the service keeps five, so the first run goes.
    for (let i = 0; i < 6; i++) await (await fetch(`${b.endpoint}?n=1`, { method: 'POST', body: '{}' })).text();
    await waitFor(async () => ((await spout.api('GET', `/v1/sources/${b.id}/invocations`)).json.page_info.total_count as number) <= 5, 10_000, 'runs pruned');
    await page.goto(`${spout.url}/sources/${b.id}/events/${oldEvent.id}`);
    await page.getByTestId('run-pruned').waitFor();
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.getByRole('button', { name: 'Copy as cURL' }).click();
    const command = await waitFor(async () => (await page.evaluate(() => navigator.clipboard.readText())) as string, 5000, 'the copied command');
    assert.match(command, /no longer kept/);
    assert.match(command, /method, path, query and headers of the original are not known/);
    await axe(page, 'an event whose run was pruned');
  });

  it('shows each webhook attempt’s request with its signature, and delivery and event totals that match the API', async () => {
    const wh = await createWebhook(spout, receiver.url, { name: 'Receiver' });
    await subscribe(spout, a.id, wh.id);
    // 150 events in one run: more than a page of deliveries and of events.
    assert.equal((await fetch(`${a.endpoint}?n=150`, { method: 'POST', body: '{}' })).status, 200);
    await waitFor(() => receiver.received.length >= 150, 30_000, 'the deliveries');
    const apiTotal = (await spout.api('GET', `/v1/webhooks/${wh.id}/messages?limit=1`)).json.page_info.total_count as number;
    assert.equal(apiTotal, 150);
    await page.goto(`${spout.url}/webhooks/${wh.id}`);
    await page.getByTestId('delivery-count').getByText(`100 of ${apiTotal}`).waitFor();
    await page.getByRole('button', { name: /^Load 50 more/ }).click();
    await page.getByTestId('delivery-count').getByText(`150 of ${apiTotal}`).waitFor();
    const row = page.locator('tr[data-message-id]').first();
    await row.getByRole('button', { name: 'Attempts' }).click();
    const attempts = page.locator('.attempts-row').first();
    await attempts.getByText('Request', { exact: true }).click();
    await attempts
      .getByTestId('attempt-headers')
      .first()
      .getByText(/webhook-signature: v1,/)
      .waitFor();
    await attempts
      .getByText(/webhook-timestamp: \d+/)
      .first()
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/40-attempt-request.png`, fullPage: true });
    await axe(page, 'a webhook attempt with its request');

    const eventTotal = (await spout.api('GET', `/v1/sources/${a.id}/event_summaries?limit=1`)).json.page_info.total_count as number;
    assert.ok(eventTotal > 100, `${eventTotal} events stored`);
    await page.goto(`${spout.url}/sources/${a.id}/events`);
    await page.getByTestId('event-count').getByText(`100 of 100 loaded · ${eventTotal} stored`).waitFor();
    await page.getByRole('button', { name: 'Load older events' }).click();
    await page.getByTestId('event-count').getByText(`${eventTotal} of ${eventTotal} loaded · ${eventTotal} stored`).waitFor();
  });

  it('puts the editor beside Activity on a wide screen, and a stack frame opens its line', async () => {
    await fetch(`${b.endpoint}?fail=1`, { method: 'POST', body: '{}' });
    const failed = await waitFor(async () => ((await spout.api('GET', `/v1/sources/${b.id}/invocations?status=error`)).json.data as Recorded[])[0], 10_000, 'the failed run');
    await page.goto(`${spout.url}/sources/${b.id}/activity/${failed.id}`);
    await page.getByRole('button', { name: 'Editor beside' }).click();
    const beside = page.getByRole('region', { name: 'Code beside' });
    await beside.locator('.monaco-editor').waitFor();
    await page.getByTestId('invocation-detail').waitFor();
    const frame = page.getByTestId('error-stack').getByRole('button', { name: /\.mjs:7:\d+/ });
    await frame.click();
    // The line is shown in the editor beside, and the Activity tab stays.
    await waitFor(async () => page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-editor'))), 10_000, 'focus in the editor');
    assert.match(new URL(page.url()).pathname, /\/activity\//);
    await page.screenshot({ path: `${SHOTS}/41-split-view.png` });
    await axe(page, 'the editor beside Activity');
    // Without the split view, the frame opens the Configure tab.
    await page.getByRole('button', { name: 'Editor beside' }).click();
    await page
      .getByTestId('error-stack')
      .getByRole('button', { name: /\.mjs:7:\d+/ })
      .click();
    await page.waitForURL((u) => u.pathname === `/sources/${b.id}`);
    await page.locator('.monaco-editor').waitFor();
    assert.deepEqual(
      problems.filter((p) => !/status of (404|400)/.test(p)),
      [],
    );
  });
});
