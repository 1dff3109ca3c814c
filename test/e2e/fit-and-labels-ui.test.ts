// Issue 43's points 2, 7 and 8 in Chromium, measured rather than looked at: with the editor beside
// Activity the props panel never covers the code and Save and Discard stay on screen (1440 and
// 1024 px, light and dark); a deploy's error box goes once the code changes or a later save
// succeeds; a run's heading shows its path as sent (only headings of sections are upper-cased); the
// event inspector names the dedupe id only when it is not the event's id; the source header labels
// its component and keeps its buttons on the title's row beside a long name cut with an ellipsis.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axe, editorText, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

// Page functions run in the browser; this project type-checks without the DOM library.
declare const document: any, window: any;
declare function getComputedStyle(e: unknown): any;

/** 60 characters: long enough to crowd the header's buttons at 1024 px. */
const LONG_NAME = 'Orders from the corner shop, every channel and every region!';

/** An HTTP source with a few props (a tall form) that emits with `?dedupe=` as its dedupe id; written for this test. */
const ORDERS = `export default {
  name: "Orders",
  version: "0.1.0",
  props: {
    http: { type: "$.interface.http" },
    shop: { type: "string", label: "Shop name", description: "The shop the orders belong to.", optional: true },
    region: { type: "string", label: "Region", description: "Where the shop is.", optional: true },
    currency: { type: "string", label: "Currency", description: "Prices are in this currency.", optional: true },
    note: { type: "string", label: "Note", description: "Anything else worth knowing.", optional: true },
  },
  async run(event) {
    this.$emit({ path: event.path }, { summary: "order", ...(event.query.dedupe ? { id: event.query.dedupe } : {}) });
  },
};
`;

type Rect = { top: number; bottom: number; left: number; right: number; width: number; height: number };

/** The element's box, or null when it is not in the page. */
const rectOf = (page: Page, selector: string): Promise<Rect | null> =>
  page.evaluate((sel) => {
    const r = document.querySelector(sel)?.getBoundingClientRect();
    return r ? { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height } : null;
  }, selector);

const intersect = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The button is inside the viewport, its label whole and not cut by a box that clips its content, and is what a click at its middle reaches (nothing covers it). */
async function assertReachable(page: Page, name: string, where: string): Promise<void> {
  const button = page.getByRole('button', { name, exact: true });
  await button.waitFor();
  const box = await button.evaluate((b: any) => {
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    // A button shrunk narrower than its label cuts the label (the label overflows it).
    let clippedBy: string | null = b.scrollWidth > b.clientWidth + 1 ? 'its own box' : null;
    for (let a = b.parentElement; a && !clippedBy; a = a.parentElement) {
      if (getComputedStyle(a).overflow === 'visible') continue;
      const c = a.getBoundingClientRect();
      if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5) clippedBy = a.className;
    }
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, vw: window.innerWidth, vh: window.innerHeight, hit: Boolean(hit && b.contains(hit)), clippedBy };
  });
  assert.ok(box.left >= 0 && box.top >= 0 && box.right <= box.vw && box.bottom <= box.vh, `${name} is inside the viewport ${where}: ${JSON.stringify(box)}`);
  assert.equal(box.clippedBy, null, `${name} is not cut off by its container ${where}: ${JSON.stringify(box)}`);
  assert.ok(box.hit, `${name} is not covered ${where}`);
}

/** Within `scope`: the props panel does not cover the code, and the editor's hint sits under the code, not over or beside it. */
async function assertApart(page: Page, scope: string, where: string): Promise<void> {
  const [code, props, host, hint] = await Promise.all(['.code-editor', '.config-pane', '.monaco-host', '.editor-hint'].map((s) => rectOf(page, scope + s)));
  assert.ok(code && props && host && hint, `the code, its hint and the props are shown ${where}`);
  assert.ok(!intersect(code, props), `the props panel ${JSON.stringify(props)} does not cover the code ${JSON.stringify(code)} ${where}`);
  assert.ok(hint.top >= host.bottom - 1 && host.width >= code.width - 4, `the hint ${JSON.stringify(hint)} is under the code ${JSON.stringify(host)} ${where}`);
}

describe('UI: the editor beside fits, errors go when stale, paths and ids as they are', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let source: { id: string; endpoint: string };

  before(async () => {
    spout = await startSpout();
    browser = await launchBrowser();
    source = await deploySource(spout, ORDERS, { name: LONG_NAME });
  });
  after(async () => {
    await browser?.close();
    await spout?.stop();
  });

  /** Types `text` at the end of the editor's first line. */
  const typeInEditor = async (page: Page, text: string) => {
    // Near the top left: a click at the middle of the lines would scroll the code sideways first.
    await page
      .locator('.monaco-editor .view-lines')
      .first()
      .click({ position: { x: 20, y: 5 } });
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.type(text);
  };

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`keeps the props panel off the code and Save and Discard on screen with the editor beside, 1440 px, ${colorScheme}`, async () => {
      const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1440, height: 900 } });
      try {
        await page.emulateMedia({ colorScheme });
        await fetch(`${source.endpoint}/orders?src=split`, { method: 'POST', body: '{}' });
        await page.goto(`${spout.url}/sources/${source.id}/activity`);
        await page.getByRole('button', { name: 'Editor beside' }).click();
        const beside = page.getByRole('region', { name: 'Code beside' });
        await beside.locator('.monaco-editor').waitFor();
        await waitFor(async () => (await editorText(page)).includes('name: "Orders"'), 15_000, 'the code beside');
        await typeInEditor(page, ' // unsaved');
        await beside.getByTestId('draft-state').waitFor();
        await page.screenshot({ path: `${SHOTS}/43-split-view-unsaved-1440-${colorScheme}.png` });
        await assertApart(page, '.beside-editor ', `beside Activity (${colorScheme})`);
        await assertReachable(page, 'Discard changes…', `beside Activity (${colorScheme})`);
        await assertReachable(page, 'Save & redeploy', `beside Activity (${colorScheme})`);
        await axe(page, `the editor beside Activity with unsaved changes (${colorScheme})`);
        await beside.getByRole('button', { name: 'Discard changes…' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Discard changes' }).click();
        await waitFor(async () => (await beside.getByTestId('draft-state').count()) === 0, 10_000, 'the draft discarded');
        await page.getByRole('button', { name: 'Editor beside' }).click();
      } finally {
        await context.close();
      }
    });

    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1024, height: 768 },
    ]) {
      it(`keeps the props panel off the code and Save and Discard on screen on Configure, ${viewport.width} px, ${colorScheme}`, async () => {
        const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport });
        try {
          await page.emulateMedia({ colorScheme });
          await page.goto(`${spout.url}/sources/${source.id}`);
          await waitFor(async () => (await editorText(page)).includes('name: "Orders"'), 15_000, 'the code');
          await typeInEditor(page, ' // unsaved');
          await page.getByTestId('draft-state').waitFor();
          await page.screenshot({ path: `${SHOTS}/43-configure-unsaved-${viewport.width}-${colorScheme}.png` });
          await assertApart(page, '', `on Configure at ${viewport.width} px (${colorScheme})`);
          await assertReachable(page, 'Discard changes…', `on Configure at ${viewport.width} px (${colorScheme})`);
          await assertReachable(page, 'Save & redeploy', `on Configure at ${viewport.width} px (${colorScheme})`);
          await axe(page, `Configure with unsaved changes at ${viewport.width} px (${colorScheme})`);
          await page.getByRole('button', { name: 'Discard changes…' }).click();
          await page.getByRole('dialog').getByRole('button', { name: 'Discard changes' }).click();
          await waitFor(async () => (await page.getByTestId('draft-state').count()) === 0, 10_000, 'the draft discarded');
        } finally {
          await context.close();
        }
      });
    }
  }

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    it(`labels the component id, cuts a 60-character name with an ellipsis and keeps the buttons on its row at ${viewport.width} px`, async () => {
      const { context, page } = await signedInPage(browser, await spout.signInUrl(), { viewport });
      try {
        await page.goto(`${spout.url}/sources/${source.id}/events`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.screenshot({ path: `${SHOTS}/43-source-header-${viewport.width}.png` });
        const { component_id } = (await spout.api('GET', `/v1/sources/${source.id}`)).json.data as { component_id: string };
        await page.getByTestId('header-component').getByText(`component ${component_id}`).waitFor();
        const h1 = await rectOf(page, '.page-head h1');
        const buttons = await rectOf(page, '.page-head .head-actions');
        assert.ok(h1 && buttons);
        assert.ok(buttons.top < h1.bottom && buttons.bottom > h1.top, `the buttons ${JSON.stringify(buttons)} are on the title's row ${JSON.stringify(h1)}`);
        const name = await page.evaluate(() => {
          const el = document.querySelector('.page-head .source-title');
          return el && { cut: el.scrollWidth > el.clientWidth, overflow: getComputedStyle(el).textOverflow, title: el.getAttribute('title'), text: el.textContent };
        });
        assert.deepEqual(name, { cut: viewport.width < 1440 ? true : name?.cut, overflow: 'ellipsis', title: LONG_NAME, text: LONG_NAME });
        await axe(page, `the source header at ${viewport.width} px`);
      } finally {
        await context.close();
      }
    });
  }

  it('shows a run’s path as it was sent; only the method is upper case', async () => {
    const { context, page } = await signedInPage(browser, await spout.signInUrl());
    try {
      assert.equal((await fetch(`${source.endpoint}/orders?src=curl`, { method: 'POST', body: '{}' })).status, 200);
      const run = await waitFor(async () => ((await spout.api('GET', `/v1/sources/${source.id}/invocations?trigger=http`)).json.data as Array<{ id: string; request: { query: string } }>).find((r) => r.request.query === 'src=curl'), 10_000, 'the run');
      await page.goto(`${spout.url}/sources/${source.id}/activity/${run.id}`);
      const heading = page.getByTestId('invocation-detail').locator('.inv-title');
      await heading.waitFor();
      assert.equal(await heading.evaluate((h: any) => getComputedStyle(h).textTransform), 'none');
      assert.equal(await heading.evaluate((h: any) => h.innerText), 'POST /orders?src=curl');
      await page.screenshot({ path: `${SHOTS}/43-run-path-as-sent.png` });
    } finally {
      await context.close();
    }
  });

  it('shows an event’s id once, and a dedupe id beside it only when the component gave another', async () => {
    const { context, page } = await signedInPage(browser, await spout.signInUrl());
    try {
      await fetch(`${source.endpoint}/plain`, { method: 'POST', body: '{}' });
      await fetch(`${source.endpoint}/deduped?dedupe=order-42`, { method: 'POST', body: '{}' });
      type Summary = { id: string; metadata: { id: string } };
      const events = await waitFor(
        async () => {
          const all = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=100`)).json.data as Summary[];
          const plain = all.find((e) => e.metadata.id === e.id);
          const deduped = all.find((e) => e.metadata.id === 'order-42');
          return plain && deduped && { plain, deduped };
        },
        10_000,
        'both events',
      );
      const rows = async (eventId: string) => {
        await page.goto(`${spout.url}/sources/${source.id}/events/${eventId}`);
        const grid = page.locator('.meta-grid');
        await grid.getByText(eventId).first().waitFor();
        return grid.evaluate((g: any) => [...g.querySelectorAll('dt')].map((dt: any) => `${dt.textContent}: ${dt.nextElementSibling.textContent}`));
      };
      const plain = await rows(events.plain.id);
      assert.deepEqual(
        plain.filter((r) => r.includes(events.plain.id)),
        [`id: ${events.plain.id}`],
        'the id once',
      );
      const deduped = await rows(events.deduped.id);
      assert.deepEqual(
        deduped.filter((r) => /^(id|dedupe id|emit id):/.test(r)),
        [`id: ${events.deduped.id}`, 'dedupe id: order-42'],
      );
      await page.screenshot({ path: `${SHOTS}/43-event-ids.png` });
    } finally {
      await context.close();
    }
  });

  it('marks the last save’s error box as about older code once typed on, and drops it when the code is replaced or saved', async () => {
    const { context, page } = await signedInPage(browser, await spout.signInUrl());
    try {
      await page.goto(`${spout.url}/sources/${source.id}`);
      await waitFor(async () => (await editorText(page)).includes('name: "Orders"'), 15_000, 'the code');
      // A code the service refuses (no version): the error box says so, as an alert.
      await page.locator('.monaco-editor .view-lines').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('export default { name: "Broken", props: {}, async run() {} };\n');
      await page.getByRole('button', { name: 'Save & redeploy' }).click();
      await page.getByRole('alert', { name: 'Problems' }).waitFor();
      // Typed on: the box is about the code before, and says so (no longer an alert).
      await page.locator('.monaco-editor .view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('// still editing\n');
      await page.getByTestId('problems-stale').waitFor();
      assert.equal(await page.getByRole('alert', { name: 'Problems' }).count(), 0);
      // The code replaced by a file: the box was about code no longer there.
      await page.getByLabel('Open a component file').setInputFiles({ name: 'orders.mjs', mimeType: 'text/javascript', buffer: Buffer.from(ORDERS.replace('"Orders"', '"Orders again"')) });
      await waitFor(async () => (await editorText(page)).includes('Orders again'), 15_000, 'the opened file');
      assert.equal(await page.locator('.problems:not(.warnings)').count(), 0, 'no error box about replaced code');
      // Refused again, then saved fixed: the box goes with the save.
      await page.locator('.monaco-editor .view-lines').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('export default { name: "Broken", props: {}, async run() {} };\n');
      await page.getByRole('button', { name: 'Save & redeploy' }).click();
      await page.getByRole('alert', { name: 'Problems' }).waitFor();
      await page.getByLabel('Open a component file').setInputFiles({ name: 'orders.mjs', mimeType: 'text/javascript', buffer: Buffer.from(ORDERS) });
      await page.getByRole('button', { name: 'Save & redeploy' }).click();
      await waitFor(async () => (await page.getByTestId('draft-state').count()) === 0, 15_000, 'saved');
      assert.equal(await page.locator('.problems:not(.warnings)').count(), 0, 'no error box after a save that succeeded');
    } finally {
      await context.close();
    }
  });
});
