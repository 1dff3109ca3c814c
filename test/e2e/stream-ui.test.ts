// Issue 47 point 1 in Chromium: the Stream screen lists runs and events of two sources and an
// action together; the filter language narrows it (status:error, a JSON field, a time range, from
// the box and the controls) and stays in the URL; a saved filter survives a reload; a live run
// joins while the page is open; a filter that does not parse shows the service's message; the
// palette goes there; axe clean in light and dark at 1440 and 1024 px.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { axe, SHOTS } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { deploySource, waitFor } from '../helpers/service';

/** Emits what it was sent, answers 201, throws on ?fail. Written for this test. */
const SHOP = `export default {
  name: "Shop",
  version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    if (event.query.fail) throw new Error("refused on purpose");
    this.$emit(event.body, { summary: "order at " + event.path });
    this.http.respond({ status: 201, body: "ok" });
  },
};
`;

const ACTION = `export default { key: "stream_ui_hello", name: "Hello", version: "0.0.1", type: "action", props: {}, async run() { return "hi"; } };`;

describe('the Stream screen in Chromium', () => {
  const suite = browserSuite();
  let alpha: { id: string; endpoint: string };
  let beta: { id: string; endpoint: string };

  /** Sends `body` to a source's endpoint at `path`; answers the status once the clock has moved on (rows' times then differ). */
  const send = async (endpoint: string, path: string, body: unknown) => {
    const res = await fetch(`${endpoint}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await res.text();
    const at = Date.now();
    await waitFor(() => Date.now() > at + 1, 1000, 'the next millisecond');
    return res.status;
  };
  const rows = (page: Page) => page.locator('.stream-row');
  const box = (page: Page) => page.getByRole('searchbox', { name: 'Filter' });
  /** Types `filter` in the box and waits for the URL to carry it and the list to be read with it. */
  const typeFilter = async (page: Page, filter: string) => {
    await box(page).fill(filter);
    await page.waitForURL((url) => (url.searchParams.get('filter') ?? '') === filter);
    await page.getByTestId('stream-count').filter({ hasText: /row/ }).or(page.getByTestId('filter-problem')).first().waitFor();
  };
  /** The paths (or target names) of the rows shown, top to bottom, with their kind. */
  const shown = async (page: Page) => rows(page).evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')} ${e.querySelector('.what.mono')?.textContent ?? ''}`.trim()));

  it('shows runs and events of two sources and an action, with their fields', async () => {
    const { spout, page } = suite;
    alpha = await deploySource(spout, SHOP, { name: 'alpha-shop' });
    beta = await deploySource(spout, SHOP, { name: 'beta-shop' });
    assert.equal(await send(alpha.endpoint, '/small', { amount: 40 }), 201);
    assert.equal(await send(alpha.endpoint, '/big', { amount: 80 }), 201);
    assert.ok((await send(beta.endpoint, '/refund?fail=1', { amount: 10 })) >= 500);
    const action = await spout.api('POST', '/v1/actions/run', { component_code: ACTION, component_filename: 'hello.mjs' });
    assert.equal(action.status, 200, JSON.stringify(action.json));

    await page.goto(`${spout.url}/stream`);
    await page.getByRole('heading', { level: 1, name: 'Stream' }).waitFor();
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor();
    await waitFor(async () => (await rows(page).count()) === 6, 10_000, 'three runs and two events of the sources, and the action run');
    assert.deepEqual(await shown(page), ['run action', 'run POST /refund', 'event POST /big', 'run POST /big', 'event POST /small', 'run POST /small']);
    const big = rows(page).filter({ hasText: 'POST /big' }).and(page.locator('[data-kind="run"]'));
    assert.match(await big.innerText(), /alpha-shop[\s\S]*201[\s\S]*13 B[\s\S]*1 emitted/);
    assert.match(await rows(page).filter({ hasText: 'POST /refund' }).innerText(), /error[\s\S]*beta-shop[\s\S]*refused on purpose/);

    // Selecting a row shows it in full, with the way to its run in Activity.
    await big.click();
    const detail = page.getByTestId('stream-detail');
    await detail.getByRole('link', { name: 'Open in Activity' }).waitFor();
    assert.equal(await detail.getByRole('link', { name: 'alpha-shop' }).getAttribute('href'), `/sources/${alpha.id}`);
    await page.getByTestId('invocation-detail').waitFor();
  });

  it('filters by status:error from the box and from the chip, kept in the URL', async () => {
    const { page } = suite;
    await typeFilter(page, 'status:error');
    assert.deepEqual(await shown(page), ['run POST /refund']);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Stream' }).waitFor();
    assert.equal(await box(page).inputValue(), 'status:error');
    await waitFor(async () => (await rows(page).count()) === 1, 10_000, 'the filtered row after a reload');
    // The chip takes it off again, and the kind chip narrows to events.
    await page.getByRole('button', { name: 'error', pressed: true }).click();
    await page.getByRole('button', { name: 'event', pressed: false }).click();
    await page.waitForURL((url) => url.searchParams.get('filter') === 'kind:event');
    await waitFor(async () => (await shown(page)).join() === 'event POST /big,event POST /small', 10_000, 'the events only');
  });

  it('filters by a JSON field of the body', async () => {
    const { page } = suite;
    await typeFilter(page, 'body.amount>50');
    await waitFor(async () => (await shown(page)).join() === 'event POST /big,run POST /big', 10_000, 'the run and event of amount 80 only');
    await typeFilter(page, 'body.amount<50 kind:run');
    await waitFor(async () => (await shown(page)).join() === 'run POST /refund,run POST /small', 10_000, 'the runs of amounts 10 and 40');
  });

  it('keeps to a time range: until a moment between two runs, and the presets', async () => {
    const { page } = suite;
    await typeFilter(page, 'kind:run');
    const ts = async (path: string) =>
      Number(
        await rows(page)
          .filter({ hasText: `POST ${path}` })
          .getAttribute('data-ts'),
      );
    const between = (await ts('/big')) - 1;
    assert.ok(between >= (await ts('/small')), 'the runs are apart in time');
    await typeFilter(page, `kind:run until:${new Date(between).toISOString()}`);
    await waitFor(async () => (await shown(page)).join() === 'run POST /small', 10_000, 'only the run before the moment');
    // The range control shows a custom range; a preset replaces it.
    assert.equal(await page.getByRole('combobox', { name: 'Time range' }).inputValue(), 'custom');
    await page.getByRole('combobox', { name: 'Time range' }).selectOption('15m');
    await page.waitForURL((url) => url.searchParams.get('filter') === 'kind:run since:15m');
    await waitFor(async () => (await rows(page).count()) === 4, 10_000, 'every run of the last 15 min');
  });

  it('shows the service’s message for a filter that does not parse', async () => {
    const { page } = suite;
    await typeFilter(page, 'status:nope');
    const problem = page.getByTestId('filter-problem');
    assert.match(await problem.innerText(), /status is one of/);
    assert.equal(await box(page).getAttribute('aria-invalid'), 'true');
    assert.equal(await rows(page).count(), 0);
    await typeFilter(page, 'status:ok');
    await problem.waitFor({ state: 'detached' });
  });

  it('saves a filter that survives a reload, applies and deletes it', async () => {
    const { spout, page } = suite;
    await typeFilter(page, 'source:beta-shop');
    await page.getByRole('button', { name: 'Save this filter' }).click();
    await page.getByRole('textbox', { name: 'Name of the saved filter' }).fill('beta only');
    // Another window saves one meanwhile: this page's save keeps it.
    assert.equal((await spout.api('PUT', '/v1/stream/filters/elsewhere', { filter: 'status:error' })).status, 200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Delete “beta only”' }).waitFor();
    assert.deepEqual((await spout.api('GET', '/v1/stream/filters')).json.data, [
      { name: 'elsewhere', filter: 'status:error' },
      { name: 'beta only', filter: 'source:beta-shop' },
    ]);

    await page.goto(`${spout.url}/stream`);
    await waitFor(async () => (await rows(page).count()) >= 6, 10_000, 'every row');
    const pick = page.getByRole('combobox', { name: 'Saved filters' });
    await pick.getByRole('option', { name: 'beta only' }).waitFor({ state: 'attached' });
    await pick.selectOption('beta only');
    await page.waitForURL((url) => url.searchParams.get('filter') === 'source:beta-shop');
    await waitFor(async () => (await shown(page)).join() === 'run POST /refund', 10_000, 'the beta row only');
    await page.getByRole('button', { name: 'Delete “beta only”' }).click();
    await waitFor(async () => (await spout.api('GET', '/v1/stream/filters')).json.data.length === 1, 10_000, "the saved filter deleted, the other window's kept");
  });

  it('adds a live row while open, and holds new rows while the list is scrolled', async () => {
    const { spout, page } = suite;
    await page.goto(`${spout.url}/stream?filter=${encodeURIComponent('source:alpha-shop kind:run')}`);
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor();
    await waitFor(async () => (await rows(page).count()) === 2, 10_000, 'the two alpha runs');
    assert.equal(await send(alpha.endpoint, '/live', { amount: 5 }), 201);
    await rows(page).filter({ hasText: 'POST /live' }).waitFor();
    assert.deepEqual(await shown(page), ['run POST /live', 'run POST /big', 'run POST /small']);
    // A row of beta does not match the filter and never shows.
    assert.equal(await send(beta.endpoint, '/other', { amount: 5 }), 201);
    assert.equal(await send(alpha.endpoint, '/after', { amount: 5 }), 201);
    await rows(page).filter({ hasText: 'POST /after' }).waitFor();
    assert.equal(await rows(page).filter({ hasText: 'POST /other' }).count(), 0);

    // Scrolled down (enough rows to scroll at a short window), a new row waits behind "1 new".
    for (let i = 0; i < 30; i++) await send(alpha.endpoint, `/fill${i}`, { amount: i });
    await rows(page).filter({ hasText: 'POST /fill29' }).waitFor();
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByRole('listbox', { name: 'Runs and events' }).evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await waitFor(async () => (await rows(page).filter({ hasText: 'POST /fill29' }).count()) === 0, 5000, 'the top rows scrolled out');
    assert.equal(await send(alpha.endpoint, '/held', { amount: 5 }), 201);
    const more = page.getByTestId('stream-new');
    await more.filter({ hasText: '1 new' }).waitFor();
    assert.equal(await page.locator('[data-row-id]').filter({ hasText: 'POST /held' }).count(), 0);
    await more.click();
    await rows(page).filter({ hasText: 'POST /held' }).waitFor();
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('is reached from the sidebar and the palette, axe clean in light and dark at 1440 and 1024 px', async () => {
    const { spout, page } = suite;
    await page.goto(`${spout.url}/sources`);
    // The app is up (its shortcuts listen) once the sidebar shows.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Stream' }).waitFor();
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Go to or run' }).waitFor();
    await page.keyboard.type('go to stream');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/stream');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Stream' }).and(page.locator('[aria-current="page"]')).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${spout.url}/stream?filter=${encodeURIComponent('since:1h')}`);
        await waitFor(async () => (await rows(page).count()) > 5, 10_000, 'rows');
        await rows(page).filter({ hasText: 'POST /held' }).and(page.locator('[data-kind="run"]')).click();
        await page.getByTestId('stream-detail').waitFor();
        await page.getByText('Filter language').click();
        await axe(page, `the stream, ${scheme}, at ${width} px`);
        await page.screenshot({ path: `${SHOTS}/stream-${width}${scheme === 'dark' ? '-dark' : ''}.png` });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
