// The keyboard alone in Chromium (issue 47, point 2): Ctrl+K opens the command palette, which finds
// a source by name and a run by its id typed whole and runs "Run now"; `/` focuses the screen's
// search box; `?` lists the shortcuts; j/k move in the sources list but not while typing, and in a
// source's Activity and Events rows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axe } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { deploySource, ECHO_SOURCE } from '../helpers/service';

const source = (name: string) => `export default {
  name: "${name}", version: "0.1.0", props: {},
  async run() { this.$emit({ ok: true }, { summary: "${name} ran" }); },
};
`;

describe('Keyboard: palette and shortcuts in Chromium', () => {
  const suite = browserSuite();

  const focused = (attribute: string) => suite.page.locator(':focus').getAttribute(attribute);

  it('goes to a source, runs it now, finds the run by id and lists shortcuts, by keyboard alone', async () => {
    const { spout, page } = suite;
    const alpha = await deploySource(spout, source('Alpha keys'));
    const beta = await deploySource(spout, source('Beta keys'));
    await page.goto(`${spout.url}/sources`);
    await page.getByRole('link', { name: /Beta keys/ }).waitFor();

    // Ctrl+K, type, Enter: the source opens.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Go to or run' });
    await palette.waitFor();
    assert.match((await focused('aria-label')) ?? '', /Search sources/);
    await axe(page, 'the command palette');
    await page.keyboard.type('alpha keys');
    await palette.getByRole('option', { name: /Alpha keys/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/sources/${alpha.id}`);
    await palette.waitFor({ state: 'detached' });

    // Run now from the palette: pick it with the arrows.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('run now');
    await palette.getByRole('option', { name: /Run now: Alpha keys/, selected: true }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.toast').getByText('Ran: 1 event emitted').waitFor();
    const run = (await spout.api('GET', `/v1/sources/${alpha.id}/invocations?limit=1`)).json.data[0] as { id: string };
    assert.ok(run.id.startsWith('inv_'));

    // Back elsewhere, a run id typed whole is read from the service and opens the run.
    await page.goto(`${spout.url}/settings`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.keyboard.press('Control+k');
    await page.keyboard.type(run.id);
    await palette.getByRole('option', { name: new RegExp(`Run ${run.id}`) }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/sources/${alpha.id}/activity/${run.id}`);

    // Escape closes the palette and gives focus back.
    await page.keyboard.press('Control+k');
    await palette.waitFor();
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });

    // `/` focuses the screen's search box; j typed there is text, not a move.
    await page.locator('main input[type="search"]').first().waitFor();
    await page.locator('main h1').first().focus();
    await page.keyboard.press('/');
    assert.equal(await focused('type'), 'search');
    await page.keyboard.type('j');
    assert.match(page.url(), new RegExp(`/sources/${alpha.id}/activity`));

    // `?` lists the shortcuts.
    await page.locator('main h1').first().focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Ctrl+K / ⌘K').waitFor();
    await axe(page, 'the shortcuts dialog');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // j/k in the sources list: the innermost list is the activity's when shown, so go to the list alone.
    await page.goto(`${spout.url}/sources`);
    await page.getByRole('link', { name: /Beta keys/ }).waitFor();
    const order = await page
      .getByRole('list', { name: 'Sources' })
      .getByRole('link')
      .evaluateAll((links) => links.map((l) => l.getAttribute('href')));
    await page.keyboard.press('j');
    await page.waitForURL(`**${order[0]}`);
    await page.keyboard.press('j');
    await page.waitForURL(`**${order[1]}`);
    await page.keyboard.press('k');
    await page.waitForURL(`**${order[0]}`);
    assert.deepEqual(new Set(order), new Set([`/sources/${alpha.id}`, `/sources/${beta.id}`]));
  });

  it('moves through Activity and Events rows with j and k', async () => {
    const { spout, page } = suite;
    const echo = await deploySource(spout, ECHO_SOURCE);
    for (const n of [1, 2, 3]) await fetch(echo.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
    const runs = (await spout.api('GET', `/v1/sources/${echo.id}/invocations?limit=3`)).json.data as Array<{ id: string }>;
    const events = (await spout.api('GET', `/v1/sources/${echo.id}/event_summaries?limit=3`)).json.data as Array<{ id: string }>;
    assert.equal(runs.length, 3);
    assert.equal(events.length, 3);

    // Each list's order is read from the screen, newest first; j from no selection picks the first.
    for (const [tab, ids] of [
      ['activity', runs],
      ['events', events],
    ] as const) {
      await page.goto(`${spout.url}/sources/${echo.id}/${tab}`);
      const rows = page.locator('[role="listbox"] [role="option"]');
      await waitForCount(rows, 3);
      const order = await rows.evaluateAll((els) => els.map((el) => el.id.replace(/^row-/, '')));
      assert.deepEqual(new Set(order), new Set(ids.map((r) => r.id)), `${tab}: the rows are the source's`);
      await page.locator('main h1').first().focus();
      await page.keyboard.press('j');
      await page.waitForURL(`**/${tab}/${order[0]}`);
      await page.keyboard.press('j');
      await page.waitForURL(`**/${tab}/${order[1]}`);
      await page.keyboard.press('j');
      await page.waitForURL(`**/${tab}/${order[2]}`);
      await page.keyboard.press('k');
      await page.waitForURL(`**/${tab}/${order[1]}`);
      await page.locator(`#row-${order[1]}[aria-selected="true"]`).waitFor();
    }
  });
});

/** Waits until `locator` matches `n` elements. */
async function waitForCount(locator: import('playwright-core').Locator, n: number): Promise<void> {
  await locator.nth(n - 1).waitFor();
}
