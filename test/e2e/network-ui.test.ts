// Issue 17 in Chromium: a source's network mode is switched in its Network tab; in Record, a run's
// call to a local stand-in API lands in the cassette list; with the API stopped and Replay chosen,
// the run is answered from the cassette; the run's record links to the entry that answered it,
// where the response is made a 429 with one click and saved, and the next run takes its rate-limit
// path. A response written by hand with a bad URL is refused naming the field. axe on the tab.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { InvocationView } from '../../runtime/contract/invocation-api';
import type { Cassette } from '../../runtime/contract/network-api';
import type { SourceView } from '../../runtime/contract/source-api';
import { axe, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** Polls a feed of items; on a 429 it emits what the API said instead. Written for this test. */
const FEED = `export default {
  name: "Item feed",
  version: "0.1.0",
  props: { base: { type: "string" } },
  async run() {
    const res = await fetch(this.base + "/items?ts=" + Date.now());
    if (res.status === 429) {
      this.$emit({ rate_limited: true, retry_after: res.headers.get("retry-after") }, { summary: "rate limited" });
      return;
    }
    const { items } = await res.json();
    for (const item of items) this.$emit(item, { summary: item.title });
  },
};
`;

describe('the Network tab in Chromium', () => {
  let spout: SpoutProcess;
  let feed: http.Server;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let source: { id: string };

  const lastRun = async () => ((await spout.api('GET', `/v1/sources/${source.id}/invocations?limit=1`)).json.data as InvocationView[])[0] as InvocationView;
  const cassette = async () => (await spout.api('GET', `/v1/sources/${source.id}/cassette`)).json.data as Cassette;
  const runNow = async (): Promise<InvocationView> => {
    const before = (await lastRun())?.id;
    await page.getByRole('button', { name: 'Run now' }).click();
    return waitFor(
      async () => {
        const r = await lastRun();
        return r && r.id !== before && r.trigger === 'run_now' ? r : null;
      },
      10_000,
      'the run record',
    );
  };

  before(async () => {
    spout = await startSpout();
    feed = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          items: [
            { id: 'a', title: 'first item' },
            { id: 'b', title: 'second item' },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`;
    source = await deploySource(spout, FEED, { configured_props: { base } });
    browser = await launchBrowser();
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1400, height: 900 } }));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await spout?.stop();
    if (feed.listening) await new Promise((resolve) => feed.close(resolve));
  });

  it('records a call, replays it with the API gone, and edits its response into a 429', async () => {
    await page.goto(`${spout.url}/sources/${source.id}/network`);
    const modes = page.getByRole('group', { name: /outgoing HTTP calls/ });
    assert.equal(await modes.getByRole('radio', { name: /^Live/ }).isChecked(), true);
    await page.getByTestId('cassette-empty').waitFor();

    // Record: the run's call goes out and lands in the cassette list.
    await modes.getByRole('radio', { name: /^Record/ }).check();
    await waitFor(async () => ((await spout.api('GET', `/v1/sources/${source.id}`)).json.data as SourceView).network_mode === 'record', 5000, 'mode record');
    const recorded = await runNow();
    assert.equal(recorded.status, 'ok');
    assert.equal(recorded.emits.length, 2);
    const list = page.getByRole('list', { name: 'Recorded calls' });
    await list.getByRole('button', { name: new RegExp(`GET ${base}/items\\?ts=\\d+ 200 recorded`) }).waitFor({ timeout: 10_000 });

    // Replay with the API stopped: the same events, answered from the cassette.
    await new Promise((resolve) => feed.close(resolve));
    await modes.getByRole('radio', { name: /^Replay Calls/ }).check();
    await waitFor(async () => ((await spout.api('GET', `/v1/sources/${source.id}`)).json.data as SourceView).network_mode === 'replay', 5000, 'mode replay');
    const replayed = await runNow();
    assert.equal(replayed.status, 'ok', JSON.stringify(replayed.error));
    assert.deepEqual(
      replayed.emits.map((e) => e.summary),
      ['first item', 'second item'],
    );

    // The run's record links to the entry that answered it.
    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    await page.locator('.inv-row').first().click();
    const calls = page.getByTestId('invocation-calls');
    await calls.getByText('from the cassette').click();
    await calls.getByRole('link', { name: 'Edit cassette entry 1, which answered it' }).click();
    await page.waitForURL((u) => u.pathname === `/sources/${source.id}/network/1`);
    const editor = page.getByTestId('cassette-entry-editor');
    await editor.getByRole('heading', { name: /Call 1/ }).waitFor();
    assert.match(await editor.getByLabel('Response body').inputValue(), /first item/);

    // One click makes it a 429 with Retry-After; saved, the next run takes the rate-limit path.
    await editor.getByRole('button', { name: '429 with Retry-After' }).click();
    await page.getByText('unsaved changes').waitFor();
    await page.screenshot({ path: `${SHOTS}/network-entry.png` });
    await axe(page, 'the Network tab with a cassette entry open');
    await page.getByRole('button', { name: 'Save cassette' }).click();
    await page.getByText('Cassette saved: 1 call').waitFor();
    const saved = await cassette();
    assert.equal(saved.entries[0]?.response.status, 429);
    assert.equal(saved.entries[0]?.response.headers['retry-after'], '1');
    const limited = await runNow();
    assert.deepEqual(
      limited.emits.map((e) => e.summary),
      ['rate limited'],
    );
    const event = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries/${limited.emits[0]?.event_id}`)).json.data as { event: unknown };
    assert.deepEqual(event.event, { rate_limited: true, retry_after: '1' });

    // Headers edited by hand, a response written by hand with a bad URL: refused, naming the field.
    await editor.getByLabel('Response headers (one per line)').fill('retry-after: 30\nnot a header');
    await editor.getByRole('alert').filter({ hasText: 'Headers, line 2: write it as "Name: value"' }).waitFor();
    await editor.getByLabel('Response headers (one per line)').fill('retry-after: 30');
    await page.getByRole('button', { name: 'Add a response by hand' }).click();
    await page.waitForURL((u) => u.pathname === `/sources/${source.id}/network/2`);
    await editor.getByRole('heading', { name: 'Call 2 (written by hand)' }).waitFor();
    await editor.getByLabel('URL').fill('not a url');
    await editor.getByLabel('Status').fill('500');
    await page.getByRole('button', { name: 'Save cassette' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /entries\.1\.request\.url.*absolute URL|absolute URL/ })
      .waitFor();
    assert.equal((await cassette()).entries.length, 1, 'nothing saved from a refused cassette');
    await editor.getByLabel('URL').fill(`${base}/other`);
    await page.getByRole('button', { name: 'Save cassette' }).click();
    await page.getByText('Cassette saved: 2 calls').waitFor();
    const both = await cassette();
    assert.deepEqual(
      both.entries.map((e) => [e.request.method, e.request.url.replace(/\?.*/, ''), e.response.status, e.recorded_at === null]),
      [
        ['GET', `${base}/items`, 429, false],
        ['GET', `${base}/other`, 500, true],
      ],
    );
    assert.equal(both.entries[0]?.response.headers['retry-after'], '30');
    // Back to live from the UI.
    await page
      .getByRole('group', { name: /outgoing HTTP calls/ })
      .getByRole('radio', { name: /^Live/ })
      .check();
    await waitFor(async () => ((await spout.api('GET', `/v1/sources/${source.id}`)).json.data as SourceView).network_mode === 'live', 5000, 'mode live');
    assert.deepEqual(
      problems.filter((p) => !/status of 400/.test(p)),
      [],
      'no script errors or CSP violations',
    );
  });
});
