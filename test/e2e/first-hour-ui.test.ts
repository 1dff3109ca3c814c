// What a new user and a UI reviewer tripped over in the first hour (issues 16 and 14's "Code"),
// in Chromium at 1400×900 and 1000×800: code from the service in the editor, typing as soon as the
// editor shows, a shell that never scrolls, narrow windows, inline validation in the service's
// words, webhook health, an unreachable service, dialogs, options paging, accounts, the Logs tab
// after 1 000 invocations, one time format, and axe on every main screen.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axe, editorText, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { cliEnv, cliJson } from '../helpers/cli';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

// Page functions run in the browser; this project type-checks without the DOM library.
declare const document: any, window: any, localStorage: any;

const WIDE = { width: 1400, height: 900 };
const NARROW = { width: 1000, height: 800 };

/** A source with many props of several kinds: a long form, rules to break, required fields. */
const LONG_FORM = `export default {
  name: "Long form",
  version: "0.1.0",
  props: {
    http: { type: "$.interface.http" },
    channel: { type: "string", label: "Channel name", description: "Where messages go" },
    batch: { type: "integer", label: "Batch size", min: 1, max: 50 },
    headers: { type: "object", label: "Extra headers", optional: true },
${Array.from({ length: 24 }, (_, i) => `    extra${i}: { type: "string", label: "Extra setting ${i}", optional: true, description: "An optional setting to make the form long." },`).join('\n')}
    last: { type: "string", label: "Last field", optional: true },
  },
  async run(event) { this.$emit(event.body, { summary: "order " + (event.body && event.body.n) }); },
};
`;

/** Async options in pages of two (three in all), and a method that ignores the page. */
const PAGED = `export default {
  name: "Paged options",
  version: "0.1.0",
  props: {
    http: { type: "$.interface.http" },
    region: { type: "string", label: "Region", async options({ page }) { const all = ["eu", "us", "ap"]; return all.slice(page * 2, page * 2 + 2); } },
    flavor: { type: "string", label: "Flavor", async options() { return ["vanilla", "mint"]; } },
    acme: { type: "app", app: "acme" },
  },
  async run() {},
};
`;

/** The create form with `code` opened from a file and its props loaded. */
async function newSourceFrom(page: Page, baseUrl: string, code: string): Promise<void> {
  await page.goto(`${baseUrl}/sources/new`);
  await page.locator('.monaco-editor').waitFor();
  await page.getByLabel('Open a component file').setInputFiles({ name: 'component.mjs', mimeType: 'text/javascript', buffer: Buffer.from(code) });
  await page.getByRole('button', { name: 'Check code & load props' }).click();
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()?.width}.png`) });
}

describe('first-hour polish in Chromium', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let receiver: Receiver;
  let cliDeployed: { id: string };

  before(async () => {
    spout = await startSpout();
    receiver = await startReceiver();
    receiver.respond = () => 500;
    browser = await launchBrowser();
    const dir = tempDir('spout-ui-cli-');
    fs.writeFileSync(path.join(dir, 'from-cli.mjs'), 'export default {\n  name: "From the CLI",\n  version: "0.1.0",\n  props: { http: "$.interface.http" },\n  async run(event) {\n    // deployed-by-the-cli marker\n    this.$emit(event.body);\n  },\n};\n');
    cliDeployed = await cliJson(['deploy', 'from-cli.mjs', '--no-follow'], cliEnv(spout), { cwd: dir });
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await spout?.stop();
  });

  it('opens a source deployed from the CLI with its code, and keys typed as soon as the editor shows stay where they are typed', async () => {
    for (const viewport of [WIDE, NARROW]) {
      const { context, page, problems } = await signedInPage(browser, await spout.signInUrl(), { viewport });
      await page.goto(`${spout.url}/sources/${cliDeployed.id}`);
      await page.locator('.monaco-editor').waitFor();
      // Typed the moment the editor is there: at the end of the file, not at line 1.
      await page.locator('.monaco-editor .view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('// typed at once', { delay: 0 });
      await waitFor(async () => (await editorText(page)).includes('// typed at once'), 5000, 'the typed text');
      const text = await editorText(page);
      assert.match(text, /deployed-by-the-cli marker/);
      assert.ok(text.startsWith('export default {'), `line 1 untouched:\n${text}`);
      assert.match(text, /\};\n?\s*\/\/ typed at once$/);
      // No code of its own: nothing is read from or written to localStorage.
      assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('spout.code')).length), 0);
      await shoot(page, 'cli-source-in-editor');
      assert.deepEqual(problems, []);
      await context.close();
    }
  });

  it('keeps the shell still with a long props form; at 1000 px the navigation folds into a bar and the list away', async () => {
    const long = await deploySource(spout, LONG_FORM, { configured_props: { channel: 'c', batch: 5 } });
    for (const viewport of [WIDE, NARROW]) {
      const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport });
      await page.goto(`${spout.url}/sources/${long.id}`);
      await page.getByLabel('Last field').waitFor();
      await page.locator('.monaco-editor').waitFor();
      await page.getByLabel('Last field').focus();
      await page.getByLabel('Last field').scrollIntoViewIfNeeded();
      const layout = await page.evaluate(() => ({
        scrollY: window.scrollY,
        docScroll: document.scrollingElement?.scrollTop ?? 0,
        docHeight: document.documentElement.scrollHeight,
        nav: document.querySelector('nav.sidebar')?.getBoundingClientRect().toJSON(),
        main: document.querySelector('main')?.getBoundingClientRect().toJSON(),
        list: document.querySelector('.list-pane')?.getBoundingClientRect().toJSON(),
        editor: document.querySelector('.monaco-editor')?.getBoundingClientRect().width ?? 0,
      }));
      assert.equal(layout.scrollY, 0);
      assert.equal(layout.docScroll, 0);
      assert.ok(layout.docHeight <= viewport.height, `document ${layout.docHeight} px in a ${viewport.height} px window`);
      assert.ok(layout.nav && layout.nav.top >= 0 && layout.nav.bottom <= viewport.height, 'navigation in view');
      assert.ok(layout.main && Math.round(layout.main.bottom) === viewport.height, `main ends at the window's bottom (${layout.main?.bottom})`);
      if (viewport === WIDE) {
        // 80 columns of 13 px monospace and the gutter fit.
        assert.ok(layout.editor >= 600, `editor ${layout.editor} px wide`);
      } else {
        assert.ok(layout.nav && layout.nav.height < 80, 'navigation is a bar');
        assert.ok(!layout.list || layout.list.width === 0, 'the source list folds away beside a selected source');
        await page.getByRole('link', { name: '← All sources' }).waitFor();
      }
      await shoot(page, 'long-props-form');
      await context.close();
    }
  });

  it('validates props as they are typed with the service rules, marks required fields, and focuses the first error on deploy', async () => {
    const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport: WIDE });
    await newSourceFrom(page, spout.url, LONG_FORM);
    const batch = page.getByLabel(/Batch size/);
    await batch.waitFor();
    // Required fields are marked, optional ones are not.
    assert.equal(await page.locator('[data-prop="channel"] .required-mark').count(), 1);
    assert.equal(await page.locator('[data-prop="headers"] .required-mark').count(), 0);
    // Out of range: the message shows without deploying, in the form's words.
    await batch.fill('99');
    const batchError = page.locator('[data-prop="batch"] .field-error');
    await waitFor(async () => (await batchError.count()) > 0 && (await batchError.textContent()) === 'Must be at most 50, not 99.', 5000, 'the range message');
    assert.equal(await batch.getAttribute('aria-invalid'), 'true');
    // Wrong JSON says so at once.
    await page.getByLabel('Extra headers').fill('{"a": ');
    await page.locator('[data-prop="headers"] .field-error').first().waitFor();
    await page.getByLabel('Extra headers').fill('');
    // Deploy with an empty required field: no deploy, the first problem's field has focus.
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.locator('[data-prop="channel"] .field-error').waitFor();
    await waitFor(() => page.evaluate(() => document.activeElement?.id === 'prop-channel'), 5000, 'focus on the first field with a problem');
    const body = (await page.locator('main').textContent()) ?? '';
    assert.doesNotMatch(body, /configured_props|POST \/v1/);
    // Each message once: not repeated in a list beside the field.
    assert.equal(body.split('Required: enter a value.').length - 1, 1, body);
    assert.equal(await page.url(), `${spout.url}/sources/new`);
    await shoot(page, 'inline-validation');
    await axe(page, 'the create form with problems');
    // Fixed, it deploys; the notice does not cover the primary button.
    await page.getByLabel(/Channel name/).fill('general');
    await batch.fill('10');
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.waitForURL(/\/sources\/dc_/);
    const toast = await page.locator('.toast').first().boundingBox();
    assert.ok(toast);
    for (const button of [page.locator('.sticky-actions button.primary'), page.getByRole('group', { name: 'Source actions' })]) {
      const free = await button.boundingBox();
      assert.ok(free);
      const overlap: boolean = !(toast.x + toast.width <= free.x || free.x + free.width <= toast.x || toast.y + toast.height <= free.y || free.y + free.height <= toast.y);
      assert.equal(overlap, false, `the toast leaves ${await button.textContent()} free`);
    }
    await context.close();
  });

  it('shows a failing webhook as failing, with the last success, and delivery rows by event summary and source name', async () => {
    const long = (await spout.api('GET', '/v1/users/me/sources')).json.data.find((s: { name: string }) => s.name === 'Long form');
    const wh = (await spout.api('POST', '/v1/webhooks', { url: receiver.url, name: 'Always failing', retry_schedule: [600] })).json.data;
    await spout.api('POST', '/v1/subscriptions', { emitter_id: long.id, listener_id: wh.id });
    await fetch(long.configured_props.http.endpoint_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: 7 }) });
    await waitFor(() => receiver.received.length >= 1, 10_000, 'the failed attempt');
    for (const viewport of [WIDE, NARROW]) {
      const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport });
      await page.goto(`${spout.url}/webhooks/${wh.id}`);
      const row = page.locator(`tr[data-message-id]`).first();
      await row.waitFor();
      await waitFor(async () => /order 7/.test((await row.textContent()) ?? ''), 10_000, 'the event summary in the row');
      assert.match((await row.textContent()) ?? '', /Long form/);
      if (viewport === NARROW) await page.goto(`${spout.url}/webhooks`);
      const item = page.locator('.list-pane li', { hasText: 'Always failing' });
      await waitFor(async () => /failing/.test((await item.textContent()) ?? ''), 10_000, 'failing in the list');
      assert.match((await item.textContent()) ?? '', /failing since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d · no success yet/);
      if (viewport === NARROW) await page.goto(`${spout.url}/webhooks/${wh.id}`);
      // The row's buttons are reachable, not clipped away.
      const resend = page.getByRole('button', { name: 'Resend' }).first();
      await resend.scrollIntoViewIfNeeded();
      const box = await resend.boundingBox();
      assert.ok(box && box.x + box.width <= viewport.width && box.width > 20, `Resend in view: ${JSON.stringify(box)}`);
      const text = (await page.locator('body').textContent()) ?? '';
      assert.doesNotMatch(text, /\b(AM|PM)\b/);
      await shoot(page, 'webhook-health');
      await axe(page, 'the webhook detail');
      await context.close();
    }
  });

  it('pages async options only while there are more, and connects an account in a dialog without losing the form', async () => {
    const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport: WIDE });
    await newSourceFrom(page, spout.url, PAGED);
    const region = page.locator('[data-prop="region"]');
    await region.getByRole('button', { name: 'Load more' }).click();
    await waitFor(async () => (await page.locator('#prop-region option').count()) === 4, 5000, 'three regions');
    await waitFor(async () => (await region.getByRole('button', { name: 'Load more' }).count()) === 0, 5000, 'no Load more after the last page');
    const flavor = page.locator('[data-prop="flavor"]');
    await waitFor(async () => /2 options/.test((await flavor.textContent()) ?? ''), 5000, 'flavors loaded');
    assert.equal(await flavor.getByRole('button', { name: 'Load more' }).count(), 0, 'a method that ignores the page has no more');
    await page.locator('#prop-flavor').selectOption({ label: 'mint' });

    // Connect an account from the form: a dialog, the new account chosen, the form kept.
    const opener = page.locator('[data-prop="acme"]').getByRole('button', { name: 'Connect an account' });
    await opener.click();
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    assert.equal(await dialog.locator('#acct-app').inputValue(), 'acme');
    await dialog.locator('#acct-name').fill('Acme test');
    await dialog.locator('#acct-creds').fill('api_key=k-123');
    await dialog.getByRole('button', { name: 'Connect account' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitFor(async () => (await page.locator('#prop-acme').inputValue()).startsWith('apn_'), 5000, 'the new account chosen');
    assert.equal(await page.locator('#prop-flavor option:checked').textContent(), 'mint');
    assert.equal(page.url(), `${spout.url}/sources/new`);
    await shoot(page, 'paged-options-and-account');
    await context.close();
  });

  it('traps focus in the confirm dialog and gives it back to the button that opened it', async () => {
    const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport: WIDE });
    await page.goto(`${spout.url}/sources/${cliDeployed.id}`);
    const del = page.getByRole('button', { name: 'Delete', exact: true });
    await del.click();
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Delete source');
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog'))), 'focus stays in the dialog');
    }
    await page.keyboard.press('Shift+Tab');
    assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog'))));
    await shoot(page, 'confirm-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Delete');
    // Delete stands apart from the harmless buttons, on the same line.
    const boxes = await page.locator('.head-actions button').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
    assert.ok(
      boxes.every((b) => b.top === boxes[0].top),
      'one line',
    );
    await context.close();
  });

  it('opens the Logs tab after 1 000 invocations with a bounded page', async () => {
    const busy = await deploySource(spout, 'export default { name: "Busy", version: "0.1.0", props: { http: "$.interface.http" }, async run(e) { console.log("hit " + e.path); } };');
    for (let i = 0; i < 1000; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => fetch(`${busy.endpoint}/${i + j}`)));
    const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport: WIDE });
    await page.goto(`${spout.url}/sources/${busy.id}/logs`);
    await page.locator('.log-line').first().waitFor();
    await waitFor(async () => /hit \/999/.test((await page.locator('.log-box').textContent()) ?? ''), 10_000, 'the newest line');
    const rendered = await page.locator('.log-line').count();
    assert.ok(rendered <= 200, `${rendered} log lines in the DOM`);
    await shoot(page, 'logs-after-1000');
    await axe(page, 'the Logs tab');
    await context.close();
  });

  it('passes axe on every main screen', async () => {
    for (const viewport of [WIDE, NARROW]) {
      const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport });
      for (const [screen, url] of [
        ['sources', '/sources'],
        ['new source', '/sources/new'],
        ['source', `/sources/${cliDeployed.id}`],
        ['source events', `/sources/${cliDeployed.id}/events`],
        ['webhooks', '/webhooks'],
        ['new webhook', '/webhooks/new'],
        ['workflows', '/workflows'],
        ['data stores', '/data-stores'],
        ['settings', '/settings'],
      ] as const) {
        await page.goto(spout.url + url);
        await page.locator('main h1').first().waitFor();
        if (screen === 'new source' || screen === 'source') await page.locator('.monaco-editor').waitFor();
        await axe(page, `${screen} at ${viewport.width} px`);
        if (viewport === NARROW || screen === 'sources' || screen === 'settings') await shoot(page, `screen-${screen.replace(/ /g, '-')}`);
      }
      await context.close();
    }
  });

  it('says the service is unreachable, keeps what was loaded, and recovers when it is back', async () => {
    const dataDir = tempDir('spout-ui-down-');
    let own = await startSpout({ dataDir });
    const port = new URL(own.url).port;
    const { context, page } = await signedInPage(browser, await own.signInUrl(), { viewport: WIDE });
    try {
      await own.api('POST', '/v1/webhooks', { url: receiver.url, name: 'Kept while down' });
      await page.goto(`${own.url}/webhooks`);
      await page.getByText('Kept while down').waitFor();
      // Stopped: a banner says so; navigating in the app keeps the list, never "No webhooks yet".
      await own.stop();
      await page.getByRole('link', { name: 'Sources', exact: true }).click();
      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      await page.getByTestId('offline-banner').waitFor({ timeout: 15_000 });
      assert.match((await page.getByTestId('offline-banner').textContent()) ?? '', /not answering/);
      assert.equal(await page.getByText('Kept while down').count(), 1);
      assert.equal(await page.getByText('No webhooks yet').count(), 0);
      assert.equal(await page.getByText('Failed to fetch').count(), 0);
      await shoot(page, 'service-unreachable');
      own = await startSpout({ dataDir, args: ['--port', port] });
      await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 15_000 });
    } finally {
      await context.close();
      await own.stop();
    }
  });
});
