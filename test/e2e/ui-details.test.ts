// Issue 23's points 8–14 in Chromium, each as a user meets it: the props form follows the code
// without Check; webhook health agrees between the list and the page after a resend; Settings and
// Sync have the padding of the other screens; a refused remote key is said at its field; with the
// service down Save waits for the code, Webhooks does not say "Loading…" and Run now answers; the
// editor says how to leave it and a skip link reaches it; a loopback webhook is not pushed to a team
// instance unasked; badges keep their shape, placeholders show whole, long JSON strings wrap at
// 1024 px, outgoing calls have Request and Response headings, the signing secret's text matches
// Reveal, the recover time is 24-hour; the galleries of New action and of a workflow step; a replay
// with edits changes only what was edited; axe (headings in order too) on every screen at 1440 and
// 1024 px.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeWithHeadings, editorText, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

// Page functions run in the browser; this project type-checks without the DOM library.
declare const document: any, navigator: any;
declare function getComputedStyle(e: unknown): any;

const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 1024, height: 700 };

/** A source with a long name, a prop, and a long unbroken string in its events; written for this test. */
const SHOP = `export default {
  name: "Corner shop orders, with a name long enough to wrap in the list of sources",
  version: "0.1.0",
  props: {
    http: { type: "$.interface.http" },
    shop: { type: "string", label: "Shop name", optional: true },
  },
  async run(event) {
    if (event.query.call) {
      const r = await fetch(event.query.call, { headers: { "x-asked-by": "shop" } });
      await r.text();
    }
    this.$emit({ token: "${'k'.repeat(300)}", body: event.body }, { summary: "order" });
  },
};
`;

/** SHOP with a second prop: the form shows it once the code is read. */
const SHOP_WITH_REGION = SHOP.replace('optional: true },\n  },', 'optional: true },\n    region: { type: "string", label: "Region of the shop" },\n  },');

/** A registry action of an app "acme", laid out as Pipedream's tree; written for this test. */
const ACME_TAG = `export default {
  key: "acme-tag-order",
  name: "Tag Acme Order",
  version: "0.0.1",
  type: "action",
  description: "Tags an order of the shop with a word.",
  props: { tag: { type: "string", label: "Tag word" } },
  async run({ $ }) {
    $.export("$summary", "tagged " + this.tag);
    return { tagged: this.tag };
  },
};
`;

/** Registry actions beside the one above: the gallery lists them a page at a time. */
const BULK = 105;

/** The width `text` takes in the font of `selector`'s element, and the width its content box has. */
async function placeholderFit(page: Page, selector: string): Promise<{ text: number; box: number }> {
  return page.evaluate((sel: string) => {
    const input = document.querySelector(sel);
    const style = getComputedStyle(input);
    const canvas = document.createElement('canvas').getContext('2d');
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const box = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: canvas.measureText(input.placeholder).width, box };
  }, selector);
}

describe('UI details of issue 23 (points 8–14) and axe on every screen', () => {
  let spout: SpoutProcess;
  let team: SpoutProcess;
  let receiver: Receiver;
  let browser: Browser;
  let shop: { id: string; endpoint: string };

  before(async () => {
    const registry = tempDir('spout-registry-');
    fs.mkdirSync(path.join(registry, 'acme', 'actions', 'acme-tag-order'), { recursive: true });
    fs.writeFileSync(path.join(registry, 'acme', 'actions', 'acme-tag-order', 'acme-tag-order.mjs'), ACME_TAG);
    // More than a page of the gallery's listing.
    for (let i = 0; i < BULK; i++) {
      const dir = path.join(registry, 'bulk', 'actions', `bulk-${i}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `bulk-${i}.mjs`), `export default { key: "bulk-${i}", name: "Bulk ${i}", version: "0.0.1", type: "action", props: {}, async run() { return ${i}; } };\n`);
    }
    [spout, team] = await Promise.all([startSpout({ args: ['--registry', registry], env: { XDG_CONFIG_HOME: tempDir('spout-ui-config-') } }), startSpout()]);
    receiver = await startReceiver();
    browser = await launchBrowser();
    shop = await deploySource(spout, SHOP, { configured_props: { shop: 'Corner' } });
  });
  after(async () => {
    await browser?.close();
    await Promise.all([receiver?.close(), spout?.stop(), team?.stop()]);
  });

  /** A signed-in page at `viewport` showing `url`. */
  async function open(url: string, viewport = WIDE): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const signed = await signedInPage(browser, await spout.signInUrl(), { viewport });
    await signed.page.waitForURL((u) => u.pathname === '/sources');
    await signed.page.goto(spout.url + url);
    return signed;
  }

  it('reads the props of pasted code without Check, and marks the problems of broken code', async () => {
    const { context, page } = await open(`/sources/${shop.id}`);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: spout.url });
    await waitFor(async () => (await editorText(page)).includes('Corner shop orders'), 15_000, 'the code');
    await page.getByLabel('Shop name').waitFor();
    const paste = async (code: string) => {
      await page.evaluate((text: string) => navigator.clipboard.writeText(text), code);
      await page.locator('.monaco-editor .view-lines').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Control+V');
    };
    await paste(SHOP_WITH_REGION);
    // The form follows once typing stops: no Check pressed.
    await page.getByLabel(/Region of the shop/).waitFor({ timeout: 15_000 });
    await page.getByLabel('Shop name').waitFor();
    assert.equal(await page.getByTestId('props-stale').count(), 0);
    await paste(SHOP_WITH_REGION.replace('async run(event) {', 'async run(event) {{'));
    const stale = page.getByTestId('props-stale');
    await stale.getByText(/The code has (a problem|\d+ problems) \(marked in the editor\)/).waitFor({ timeout: 15_000 });
    await page.locator('.monaco-editor .squiggly-error').first().waitFor();
    // The form keeps the props last read meanwhile.
    await page.getByLabel(/Region of the shop/).waitFor();
    await page.getByRole('button', { name: 'Discard changes…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard changes' }).click();
    await page.getByLabel(/Region of the shop/).waitFor({ state: 'detached' });
    await context.close();
  });

  it('shows the same health in the webhook list and on its page, before and after a resend', async () => {
    receiver.respond = () => 500;
    const wh = (await spout.api('POST', '/v1/webhooks', { url: receiver.url, name: 'Shop hook', retry_schedule: [600] })).json.data as { id: string };
    await spout.api('POST', '/v1/subscriptions', { emitter_id: shop.id, listener_id: wh.id });
    await fetch(shop.endpoint, { method: 'POST', body: '{"n":1}' });
    await waitFor(() => receiver.received.length >= 1, 10_000, 'the failed attempt');
    const { context, page } = await open(`/webhooks/${wh.id}`);
    /** The badge in the list and the one in the page's heading, read at the same moment. */
    const badges = () =>
      page.evaluate((name: string) => {
        const item = [...document.querySelectorAll('.list-pane li')].find((li: any) => li.textContent.includes(name));
        return [item?.querySelector('.badge')?.textContent ?? null, document.querySelector('main h1 .badge')?.textContent ?? null];
      }, 'Shop hook');
    await waitFor(async () => (await badges())[1] === 'failing', 15_000, 'failing on the page');
    assert.deepEqual(await badges(), ['failing', 'failing']);
    receiver.respond = () => 200;
    await page.locator('tr[data-message-id]').first().getByRole('button', { name: 'Resend' }).click();
    await waitFor(async () => (await badges())[1] === 'active', 15_000, 'active after the resend');
    assert.deepEqual(await badges(), ['active', 'active']);
    await page.locator('tr[data-message-id][data-status="delivered"]').first().waitFor({ timeout: 10_000 });
    assert.deepEqual(await badges(), ['active', 'active']);
    await context.close();
  });

  it('says the signing secret is shown again by Reveal, and Reveal shows it', async () => {
    const { context, page } = await open('/webhooks/new');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Name (optional)').fill('Secret hook');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const banner = page.locator('.secret-once');
    await banner.waitFor();
    const text = (await banner.textContent()) ?? '';
    assert.doesNotMatch(text, /shown once|only once|will not be shown/i);
    assert.match(text, /Reveal secret.*shows it again/);
    const secret = (await page.getByTestId('signing-secret').textContent()) ?? '';
    assert.match(secret, /^whsec_/);
    await banner.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await page.getByRole('region', { name: 'Signing secret' }).getByText(secret).waitFor();
    await context.close();
  });

  it('takes a custom time range as 24-hour text and retries the failed messages in it', async () => {
    const wh = (await spout.api('GET', '/v1/users/me/webhooks')).json.data.find((w: { name: string }) => w.name === 'Shop hook') as { id: string };
    const { context, page } = await open(`/webhooks/${wh.id}`);
    await page.getByLabel('Created').selectOption('custom');
    const since = page.getByLabel('Since', { exact: true });
    await since.waitFor();
    assert.equal(await since.getAttribute('type'), null, 'a text field, not the locale-bound datetime-local');
    assert.match(await since.inputValue(), /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    assert.match((await page.locator('#msg-range-hint').textContent()) ?? '', /24-hour/);
    await since.fill('2020-01-01 1:05');
    await page.getByRole('alert').getByText('"2020-01-01 1:05" is not a time').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Retry failed…' }).isDisabled(), true, 'no retry over a range that cannot be read');
    await since.fill('2020-01-01 13:05');
    await page.getByRole('button', { name: 'Retry failed…' }).click();
    // Whether any failed message is left or not, the dialog says the range as typed.
    await page
      .getByRole('dialog')
      .getByText(/status:failed since 2020-01-01 13:05/)
      .waitFor();
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /\b(AM|PM)\b/);
    await context.close();
  });

  it('gives Settings and Sync the padding of the other screens, at 1440 and 1024 px', async () => {
    for (const viewport of [WIDE, NARROW]) {
      const { context, page } = await open('/settings', viewport);
      for (const url of ['/settings', '/settings/mcp', '/settings/connect', '/sync']) {
        await page.goto(spout.url + url);
        await page.locator('main h1').waitFor();
        await page.locator('main .card').first().waitFor();
        const gaps = await page.evaluate(() => {
          const main = document.querySelector('main').getBoundingClientRect();
          const h1 = document.querySelector('main h1').getBoundingClientRect();
          const cards = [...document.querySelectorAll('main .card')].map((c: any) => c.getBoundingClientRect());
          return { h1Left: h1.left - main.left, h1Top: h1.top - main.top, cardLeft: Math.min(...cards.map((c: any) => c.left - main.left)), cardRight: Math.min(...cards.map((c: any) => main.right - c.right)) };
        });
        assert.ok(gaps.h1Left >= 12 && gaps.h1Top >= 12, `${url} at ${viewport.width}: the title ${JSON.stringify(gaps)} off the edge`);
        assert.ok(gaps.cardLeft >= 12 && gaps.cardRight >= 12, `${url} at ${viewport.width}: the cards ${JSON.stringify(gaps)} off both sides`);
      }
      await context.close();
    }
  });

  it('says a refused remote key at the API key field and keeps it there, not in a notice', async () => {
    const { context, page, problems } = await open('/settings');
    const form = page.getByRole('form', { name: 'Add a remote instance' });
    await form.getByLabel('Name').fill('wrongkey');
    await form.getByLabel('URL').fill(team.url);
    await form.getByLabel('API key').fill('not-the-key');
    await form.getByRole('button', { name: 'Add remote' }).click();
    const error = form.locator('#remote-api_key-error');
    await error.getByText(/refused the API key/).waitFor();
    const key = form.getByLabel('API key');
    assert.equal(await key.getAttribute('aria-invalid'), 'true');
    assert.equal(await key.getAttribute('aria-describedby'), 'remote-api_key-error');
    assert.equal(
      await page
        .locator('.toast')
        .filter({ hasText: /refused/ })
        .count(),
      0,
      'no passing notice',
    );
    assert.equal(await page.getByText(/refused the API key/).count(), 1, 'said once');
    assert.deepEqual(
      problems.filter((p) => !/status of 400/.test(p)),
      [],
    );
    await context.close();
  });

  it('shows how to leave the code editor and reaches it by a skip link', async () => {
    const { context, page } = await open(`/sources/${shop.id}`);
    await page.locator('.monaco-editor').waitFor();
    const hint = page.locator('.editor-hint');
    await hint.waitFor();
    assert.match((await hint.textContent()) ?? '', /Tab indents here; Ctrl\+M makes Tab move focus instead/);
    // From the top of a freshly loaded page: the second Tab is the skip link (it took 15 presses to reach the editor).
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the code editor');
    await page.keyboard.press('Enter');
    const inEditor = () => page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-editor')));
    await waitFor(inEditor, 5000, 'focus in the editor');
    // Ctrl+M: Tab leaves the editor instead of indenting.
    await page.keyboard.press('Control+M');
    await page.keyboard.press('Tab');
    await waitFor(async () => !(await inEditor()), 5000, 'focus out of the editor');
    await context.close();
  });

  it('keeps badges round, placeholders whole, and long JSON strings inside their box at 1024 px', async () => {
    await fetch(`${shop.endpoint}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ note: 'n'.repeat(300) }) });
    const event = await waitFor(async () => ((await spout.api('GET', `/v1/sources/${shop.id}/event_summaries`)).json.data as Array<{ id: string }>)[0], 10_000, 'the event');
    for (const viewport of [NARROW, WIDE]) {
      const { context, page } = await open(`/sources/${shop.id}/events/${event.id}`, viewport);
      await page.getByTestId('event-view').waitFor();
      // The list's and the heading's badges: as high as a line, wider than high, beside a wrapped name.
      for (const badge of [page.locator('.list-pane .source .badge').first(), page.locator('main h1 .badge')]) {
        if (!(await badge.isVisible())) continue;
        const box = (await badge.boundingBox())!;
        assert.ok(box.height <= 24 && box.width > box.height, `badge ${JSON.stringify(box)} at ${viewport.width}`);
      }
      const fit = await placeholderFit(page, 'input[aria-label="Search events"]');
      assert.ok(fit.text <= fit.box, `the search placeholder (${fit.text} px) fits its field (${fit.box} px) at ${viewport.width}`);
      const overflow = await page.evaluate(() => {
        const view = document.querySelector('[data-testid="event-view"]');
        const string = [...view.querySelectorAll('.jstring')].find((s: any) => s.textContent.includes('kkkk'));
        return { scroll: view.scrollWidth - view.clientWidth, right: string.getBoundingClientRect().right - view.getBoundingClientRect().right };
      });
      assert.ok(overflow.scroll <= 1 && overflow.right <= 1, `the long string stays in its box at ${viewport.width}: ${JSON.stringify(overflow)}`);
      if (viewport === WIDE) {
        // Beside the editor the events pane is half as wide: the placeholder still shows whole.
        await page.getByRole('button', { name: 'Editor beside' }).click();
        await page.getByRole('region', { name: 'Code beside' }).locator('.monaco-editor').waitFor();
        const beside = await placeholderFit(page, 'input[aria-label="Search events"]');
        assert.ok(beside.text <= beside.box, `the search placeholder (${beside.text} px) fits beside the editor (${beside.box} px)`);
        await page.getByRole('button', { name: 'Editor beside' }).click();
      } else {
        await page.screenshot({ path: `${SHOTS}/50-event-at-1024.png` });
        // The list's buttons stay in the narrow list pane.
        await page.goto(`${spout.url}/sources`);
        const button = (await page.getByRole('link', { name: 'New source' }).boundingBox())!;
        const pane = (await page.locator('.list-pane').boundingBox())!;
        assert.ok(button.x + button.width <= pane.x + pane.width, 'New source in the list pane');
      }
      await context.close();
    }
  });

  it('heads the request and the response of an outgoing call', async () => {
    receiver.respond = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
    const ran = await fetch(`${shop.endpoint}?call=${encodeURIComponent(receiver.url)}`, { method: 'POST', body: '{}' });
    assert.equal(ran.status, 200);
    const run = await waitFor(async () => ((await spout.api('GET', `/v1/sources/${shop.id}/invocations`)).json.data as Array<{ id: string; request: { query: string } | null }>).find((r) => r.request?.query.startsWith('call=')), 10_000, 'the run');
    const { context, page } = await open(`/sources/${shop.id}/activity/${run.id}`);
    const calls = page.getByTestId('invocation-calls');
    await calls.locator('summary').first().click();
    const call = calls.locator('li').first();
    await call.getByRole('heading', { name: 'Request' }).waitFor();
    await call.getByRole('heading', { name: 'Response' }).waitFor();
    await call.getByRole('table', { name: 'Call 1 request headers' }).getByText('x-asked-by').waitFor();
    await axeWithHeadings(page, 'a run with an outgoing call open');
    await context.close();
  });

  it('replays with edits changing only the header edited, the others as recorded and in order', async () => {
    const original = ((await spout.api('GET', `/v1/sources/${shop.id}/invocations?trigger=http`)).json.data as Array<{ id: string; replay_of: string | null; request: { headers: Record<string, string> } }>).find((r) => !r.replay_of)!;
    const { context, page } = await open(`/sources/${shop.id}/activity/${original.id}`);
    await page.getByTestId('invocation-detail').getByRole('button', { name: 'Replay with edits…' }).click();
    const headers = page.getByLabel('Headers (one per line)');
    const lines = (await headers.inputValue()).split('\n');
    assert.deepEqual(
      lines.map((l) => l.slice(0, l.indexOf(':'))),
      Object.keys(original.request.headers),
      'prefilled with the recorded headers, in order',
    );
    await headers.fill(lines.map((l) => (l.toLowerCase().startsWith('user-agent:') ? 'user-agent: edited/1.0' : l)).join('\n'));
    await axeWithHeadings(page, 'the replay dialog');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Replay/ })
      .click();
    const replay = await waitFor(async () => ((await spout.api('GET', `/v1/sources/${shop.id}/invocations?trigger=http`)).json.data as Array<{ replay_of: string | null; request: { headers: Record<string, string> } }>).find((r) => r.replay_of === original.id), 10_000, 'the replay');
    assert.deepEqual(Object.entries(replay.request.headers), Object.entries({ ...original.request.headers, 'user-agent': 'edited/1.0' }));
    await context.close();
  });

  it('offers registry and saved actions in New action and in a workflow step, pages to the end, and runs one chosen there', async () => {
    await waitFor(async () => (await spout.api('GET', '/v1/components/registry?limit=1')).json.pending === 0, 60_000, 'the registry read');
    const total = (await spout.api('GET', '/v1/components/registry?type=action&limit=1')).json.page_info.total_count as number;
    assert.ok(total > 100, `${total} registry actions`);
    const mine = `export default { key: "my-saved-stamp", name: "My saved stamp", version: "0.0.1", type: "action", props: {}, async run() { return "stamped"; } };\n`;
    assert.equal((await spout.api('POST', '/v1/components', { component_code: mine })).status, 200);
    const { context, page } = await open('/sources');
    await page.getByRole('link', { name: 'New action' }).click();
    await page.getByRole('button', { name: 'Start from a registry action…' }).click();
    const count = page.getByTestId('gallery-count');
    await count.getByText(new RegExp(`^100 of ${total} in the registry, \\d+ saved$`)).waitFor();
    await page.getByRole('button', { name: `Load ${total - 100} more (${total - 100} not shown)` }).click();
    await count.getByText(new RegExp(`^${total} in the registry`)).waitFor();
    await page.getByRole('button', { name: /^Use Bulk 104 / }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Load \d+ more/ }).count(), 0, 'at the end');
    await page.getByLabel('Search components').fill('saved stamp');
    await page.getByRole('listitem').filter({ hasText: 'My saved stamp' }).getByText('saved', { exact: true }).waitFor();
    await page.getByLabel('Search components').fill('tag acme');
    const item = page.getByRole('listitem').filter({ hasText: 'Tag Acme Order' });
    await item.getByText('acme-tag-order').waitFor();
    await axeWithHeadings(page, 'the gallery of New action');
    await item.getByRole('button', { name: /^Use Tag Acme Order/ }).click();
    await page.getByTestId('registry-note').waitFor();
    await page.getByLabel('Tag word').fill('urgent');
    await page.getByRole('button', { name: 'Test run' }).click();
    await page.getByText('tagged urgent').first().waitFor();
    // Its code as a copy to edit.
    await page.getByRole('button', { name: 'Edit a copy' }).click();
    await page.getByLabel('Component code', { exact: true }).waitFor({ state: 'attached' });
    await waitFor(async () => (await editorText(page)).includes('acme-tag-order'), 15_000, 'the copy in the editor');
    await page.getByRole('button', { name: 'Discard changes…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard changes' }).click();

    await page.goto(`${spout.url}/workflows/new`);
    await page.getByRole('button', { name: 'Browse actions…' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Search components').fill('tag');
    await dialog.getByRole('listitem').filter({ hasText: 'Tag Acme Order' }).waitFor();
    await axeWithHeadings(page, 'the gallery of a workflow step');
    await dialog.getByRole('button', { name: /^Use Tag Acme Order/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByLabel('Tag word').waitFor();
    await context.close();
  });

  it('warns before pushing a webhook to a loopback URL to another machine, and applies only when told to', async () => {
    const hook = (await spout.api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/local-only', name: 'Local only hook' })).json.data as { id: string };
    assert.equal((await spout.api('POST', '/v1/remotes', { name: 'team', api_url: team.url, api_key: team.apiKey })).status, 200);
    const { context, page } = await open('/sync');
    // The team instance is on this machine in the test; the plan says it is elsewhere, as a real one is.
    await page.route('**/v1/sync/plan', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { remote: { url: string } } };
      body.data.remote.url = 'https://team.example.com';
      await route.fulfill({ response, json: body });
    });
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const item = page.getByTestId('plan-item').filter({ hasText: 'webhook "Local only hook"' });
    await item.getByTestId('loopback-warning').getByText('http://127.0.0.1:9/local-only').waitFor();
    const apply = page.getByRole('button', { name: /^Apply \d+ changes?$/ });
    assert.equal(await apply.isDisabled(), true, 'not applied before the warning is answered');
    await page
      .getByRole('alert')
      .filter({ hasText: /to a loopback address/ })
      .waitFor();
    await axeWithHeadings(page, 'the sync plan with a loopback warning');
    await page.getByRole('checkbox', { name: /Push (it|them) anyway/ }).check();
    assert.equal(await apply.isDisabled(), false);
    await page.screenshot({ path: `${SHOTS}/51-sync-loopback-warning.png`, fullPage: true });
    await spout.api('DELETE', `/v1/webhooks/${hook.id}`);
    await context.close();
  });

  it('passes axe, headings in order included, on every screen at 1440 and 1024 px', async () => {
    const run = ((await spout.api('GET', `/v1/sources/${shop.id}/invocations`)).json.data as Array<{ id: string }>)[0]!;
    const event = ((await spout.api('GET', `/v1/sources/${shop.id}/event_summaries`)).json.data as Array<{ id: string }>)[0]!;
    const wh = ((await spout.api('GET', '/v1/users/me/webhooks')).json.data as Array<{ id: string; name: string }>).find((w) => w.name === 'Shop hook')!;
    const store = (await spout.api('POST', '/v1/data_stores', { name: 'axe store' })).json.data as { id: string };
    await spout.api('PUT', `/v1/data_stores/${store.id}/records/greeting`, { value: { hello: 'world' } });
    const component = (await spout.api('POST', '/v1/components', { component_code: ACME_TAG.replace('acme-tag-order', 'axe-tag') })).json.data as { id: string };
    const workflow = (await spout.api('POST', '/v1/workflows', { name: 'Axe flow', trigger: { type: 'http' }, steps: [{ name: 'tag', component_id: component.id, configured_props: { tag: 'x' } }] })).json.data as { id: string };
    await spout.api('POST', `/v1/workflows/${workflow.id}/run`, {});
    const screens: Array<[string, string, string?]> = [
      ['sources', '/sources'],
      ['new source', '/sources/new', '.monaco-editor'],
      ['new source with the gallery', '/sources/new?type=source', '.gallery-list'],
      ['new action', '/sources/new?type=action', '.gallery-list'],
      ['a registry component', '/sources/new?key=acme-tag-order', '.prop-form'],
      ['source: Configure', `/sources/${shop.id}`, '.monaco-editor'],
      ['source: Activity', `/sources/${shop.id}/activity/${run.id}`, '[data-testid="invocation-detail"]'],
      ['source: Logs', `/sources/${shop.id}/logs`],
      ['source: Events', `/sources/${shop.id}/events/${event.id}`, '[data-testid="event-view"]'],
      ['source: Network', `/sources/${shop.id}/network`],
      ['webhooks', '/webhooks'],
      ['new webhook', '/webhooks/new'],
      ['a webhook', `/webhooks/${wh.id}`, 'tr[data-message-id]'],
      ['workflows', '/workflows'],
      ['new workflow', '/workflows/new'],
      ['a workflow', `/workflows/${workflow.id}`, 'li.run'],
      ['data stores', '/data-stores'],
      ['a data store', `/data-stores/${store.id}`, 'table'],
      ['settings', '/settings', '[data-testid="remotes"]'],
      ['settings: MCP', '/settings/mcp', '.card'],
      ['settings: Connect', '/settings/connect', '.card'],
      ['sync', '/sync', '#sync-remote'],
      ['not found', '/nowhere'],
    ];
    for (const viewport of [WIDE, NARROW]) {
      const { context, page, problems } = await open('/sources', viewport);
      for (const [screen, url, ready] of screens) {
        await page.goto(spout.url + url);
        await page.locator('main h1').first().waitFor();
        if (ready) await page.locator(ready).first().waitFor();
        await axeWithHeadings(page, `${screen} at ${viewport.width} px`);
      }
      // Split view (wide screens), and the sync plan.
      if (viewport === WIDE) {
        await page.goto(`${spout.url}/sources/${shop.id}/activity/${run.id}`);
        await page.getByRole('button', { name: 'Editor beside' }).click();
        await page.getByRole('region', { name: 'Code beside' }).locator('.monaco-editor').waitFor();
        await axeWithHeadings(page, 'the editor beside Activity');
        await page.getByRole('button', { name: 'Editor beside' }).click();
      }
      await page.goto(`${spout.url}/sync`);
      await page.getByRole('button', { name: 'Plan', exact: true }).click();
      await page.getByTestId('sync-plan').waitFor();
      await axeWithHeadings(page, `the sync plan at ${viewport.width} px`);
      assert.deepEqual(
        problems.filter((p) => !/status of (404|400)/.test(p)),
        [],
      );
      await context.close();
    }
  });

  it('with the service down: Save waits for the code, Webhooks does not say Loading…, Run now says it was not sent', async () => {
    const dataDir = tempDir('spout-ui-down-');
    let own = await startSpout({ dataDir });
    const port = new URL(own.url).port;
    const source = await deploySource(own, SHOP);
    const { context, page } = await signedInPage(browser, await own.signInUrl(), { viewport: WIDE });
    try {
      await page.waitForURL((u) => u.pathname === '/sources');
      await page.getByRole('link', { name: /Corner shop orders/ }).waitFor();
      await own.stop();
      await page.getByRole('link', { name: /Corner shop orders/ }).click();
      await page.getByTestId('offline-banner').waitFor({ timeout: 15_000 });
      await page.getByText(/code cannot load: the service is not answering/).waitFor();
      const save = page.getByRole('button', { name: 'Save & redeploy' });
      assert.equal(await save.isDisabled(), true, 'Save waits for the code');
      await page.getByRole('button', { name: 'Run now' }).click();
      const runNow = page.getByRole('dialog', { name: 'Run now: send a request' });
      await runNow.getByText('Not loaded: the service is not answering.').waitFor();
      await runNow.getByRole('button', { name: 'Send' }).click();
      await page.locator('.toast').getByText('Run now was not sent: the service is not answering.').waitFor();
      await runNow.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByText('Not loaded: the service is not answering.').waitFor();
      assert.equal(await page.getByText('Loading…').count(), 0, 'no "Loading…" beside the first-run prompt');
      assert.equal(await page.getByText('No webhooks yet').count(), 0);
      await page.screenshot({ path: `${SHOTS}/52-webhooks-service-down.png` });
      // Back: the source's code loads by itself and Save can be pressed.
      own = await startSpout({ dataDir, args: ['--port', port] });
      await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 15_000 });
      await page.goBack();
      await waitFor(async () => (await editorText(page)).includes('Corner shop orders'), 15_000, 'the code once the service is back');
      assert.equal(await page.getByRole('button', { name: 'Save & redeploy' }).isDisabled(), false);
      assert.ok(source.id);
    } finally {
      await context.close();
      await own.stop();
    }
  });
});
