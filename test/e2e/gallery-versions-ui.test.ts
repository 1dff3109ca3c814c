// Issue 43, point 4 in Chromium: saved components no longer pile up unseen. Opening New source and
// checking code (by hand, or as the form follows the code) saves nothing, async options of code not
// saved load all the same; five deploys of one component (two new sources, three redeploys) leave
// its five versions, shown in the gallery as one row with the versions' dates and where each is
// used; a version nothing uses is deleted after a confirmation, then the rest of the unused ones.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axe, editorText, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** An HTTP source with async options; `version` makes each version's code differ. Written for this test. */
const ordersHook = (version: string) => `export default {
  key: "orders-hook",
  name: "Orders hook",
  version: "${version}",
  props: {
    http: { type: "$.interface.http" },
    shop: { type: "string", label: "Shop", optional: true, async options() { return ["north", "south"]; } },
  },
  async run(event) {
    this.$emit(event.body, { summary: "order" });
  },
};
`;

interface Listed {
  id: string;
  key: string | null;
  version: string;
  used_by: Array<{ kind: string; id: string; name: string }>;
}

describe('UI: the gallery shows each saved component once, with its versions, and deletes unused ones', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  const sources: Record<string, string> = {};

  before(async () => {
    spout = await startSpout();
    browser = await launchBrowser();
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1440, height: 900 } }));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await spout?.stop();
  });

  const saved = async (): Promise<Listed[]> => (await spout.api('GET', '/v1/users/me/components?limit=100')).json.data as Listed[];
  const checkButton = () => page.getByRole('button', { name: 'Check code & load props' });
  // A name per text: the same file name chosen again may not count as a change.
  let opened = 0;
  const openFile = (code: string) => page.getByLabel('Open a component file').setInputFiles({ name: `orders-${++opened}.mjs`, mimeType: 'text/javascript', buffer: Buffer.from(code) });

  /** Opens `code` in a new source's editor, checks it, and deploys it as `name`. */
  const deployNew = async (code: string, name: string) => {
    await page.getByRole('link', { name: 'New source' }).click();
    await page.locator('.monaco-editor').waitFor();
    await openFile(code);
    await checkButton().click();
    await page.getByLabel('Shop').locator('option', { hasText: 'north' }).waitFor({ state: 'attached' });
    await page.getByLabel('Source name').fill(name);
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.waitForURL((u) => /\/sources\/dc_/.test(u.pathname));
    sources[name] = new URL(page.url()).pathname.split('/')[2]!;
  };

  /** Opens `code` in the open source's editor and saves it (a redeploy). */
  const redeploy = async (code: string, version: string) => {
    await page.locator('.monaco-editor').waitFor();
    await openFile(code);
    await waitFor(async () => (await editorText(page)).includes(`version: "${version}"`), 15_000, `${version} in the editor`);
    await page.getByRole('button', { name: 'Save & redeploy' }).click();
    await waitFor(async () => (await spout.api('GET', `/v1/components/${(await spout.api('GET', `/v1/sources/${sources['Orders B']}`)).json.data.component_id}`)).json.data.version === version, 30_000, `the source on ${version}`);
  };

  it('saves nothing when New source opens, when its code is checked, or when options of unsaved code load', async () => {
    await page.getByRole('link', { name: 'New source' }).click();
    await waitFor(async () => (await editorText(page)).includes('My webhook source'), 15_000, 'the template');
    // The form follows the template by itself (a check), then by hand.
    await page.getByText('Check the code to see its props here.').waitFor({ state: 'detached', timeout: 15_000 });
    await checkButton().click();
    await waitFor(async () => (await checkButton().isEnabled()) && (await checkButton().textContent()) === 'Check code & load props', 15_000, 'the check');
    await openFile(ordersHook('0.1.0'));
    await checkButton().click();
    // Async options come from the code as checked, not from a saved component.
    await page.getByLabel('Shop').locator('option', { hasText: 'north' }).waitFor({ state: 'attached', timeout: 15_000 });
    assert.deepEqual(await saved(), [], 'no component was saved by opening and checking');
    await page.getByRole('button', { name: 'Discard changes…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard changes' }).click();
  });

  it('shows five deploys of one component as one gallery row with its versions, dates and users', async () => {
    await deployNew(ordersHook('0.1.0'), 'Orders A');
    await deployNew(ordersHook('0.1.1'), 'Orders B');
    for (const version of ['0.1.2', '0.1.3', '0.1.4']) await redeploy(ordersHook(version), version);
    const versions = await saved();
    assert.deepEqual(
      versions.map((c) => c.version),
      ['0.1.4', '0.1.3', '0.1.2', '0.1.1', '0.1.0'],
      'one saved component per deployed code, nothing more',
    );

    await page.getByRole('link', { name: 'New source' }).click();
    await page.getByRole('button', { name: 'Start from a component…' }).click();
    const rows = page.getByRole('list', { name: 'Components' }).locator(':scope > li').filter({ hasText: 'Orders hook' });
    await waitFor(async () => (await rows.count()) === 1, 15_000, 'the component in the gallery');
    const row = rows.first();
    assert.match((await row.getByTestId('gallery-versions-summary').textContent()) ?? '', /5 versions, latest saved \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    await row.getByRole('button', { name: 'Versions (5)' }).click();
    const table = page.getByRole('table', { name: 'Versions of Orders hook' });
    await table.waitFor();
    const cells = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 4).map((td) => (td.textContent ?? '').trim())));
    assert.deepEqual(
      cells.map(([version, , , used]) => [version, used]),
      [
        ['0.1.4', 'source Orders B'],
        ['0.1.3', 'nothing'],
        ['0.1.2', 'nothing'],
        ['0.1.1', 'nothing'],
        ['0.1.0', 'source Orders A'],
      ],
    );
    for (const [, hash, date] of cells) {
      assert.match(hash!, /^[0-9a-f]{8}$/);
      assert.match(date!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }
    assert.equal(await table.getByRole('link', { name: 'source Orders A' }).getAttribute('href'), `/sources/${sources['Orders A']}`);
    await axe(page, 'the gallery with a component’s versions');
    fs.mkdirSync('/work/screens', { recursive: true });
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1024, height: 768 },
    ]) {
      await page.setViewportSize(viewport);
      await page.getByRole('button', { name: /^Delete unused versions/ }).scrollIntoViewIfNeeded();
      const file = path.join(SHOTS, `gallery-versions-${viewport.width}.png`);
      await page.screenshot({ path: file });
      fs.copyFileSync(file, path.join('/work/screens', path.basename(file)));
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('deletes an unused version after a confirmation, then the other unused ones; versions in use keep no Delete', async () => {
    const table = page.getByRole('table', { name: 'Versions of Orders hook' });
    const version = (v: string) => table.locator('tbody tr').filter({ has: page.getByRole('cell', { name: v, exact: true }) });
    assert.equal(
      await version('0.1.4')
        .getByRole('button', { name: /^Delete/ })
        .count(),
      0,
      'a version in use cannot be deleted',
    );
    await version('0.1.3')
      .getByRole('button', { name: /^Delete Orders hook 0\.1\.3/ })
      .click();
    const dialog = page.getByRole('dialog', { name: /Delete Orders hook 0\.1\.3/ });
    await dialog.getByRole('button', { name: 'Delete version' }).click();
    await version('0.1.3').waitFor({ state: 'detached' });
    assert.deepEqual(
      (await saved()).map((c) => c.version),
      ['0.1.4', '0.1.2', '0.1.1', '0.1.0'],
    );

    await page.getByRole('button', { name: 'Delete unused versions (2)' }).click();
    await page.getByRole('dialog', { name: 'Delete 2 unused versions of Orders hook?' }).getByRole('button', { name: 'Delete 2 versions' }).click();
    await waitFor(async () => (await table.locator('tbody tr').count()) === 2, 15_000, 'the unused versions gone');
    assert.deepEqual(
      (await saved()).map((c) => c.version),
      ['0.1.4', '0.1.0'],
    );
    assert.deepEqual(problems, []);
  });
});
