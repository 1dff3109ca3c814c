// Hosts on demand in a real Chromium (issue 44): the sources list and a source's header show its
// host's state, parked once idle for --host-idle and running while a request's run is under way; Settings
// shows when hosts park. No timings: a one-second --host-idle, then wait for each state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** A source whose run waits for the run timeout: its host stays busy, so running. */
const BUSY_SOURCE = `export default { name: "Busy", version: "0.0.1", props: { http: "$.interface.http" },
  async run() { await new Promise((resolve) => setTimeout(resolve, 60_000)); } };`;

describe('UI: host states', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  before(async () => {
    spout = await startSpout({ args: ['--host-idle', '1', '--warm-hosts', '4'] });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await spout?.stop();
  });

  it('shows a source parked when idle and running while its run is under way, and the parking settings', async () => {
    const source = await deploySource(spout);
    const hostOf = async () => (await spout.api('GET', `/v1/sources/${source.id}`)).json.data.host as string;
    await waitFor(async () => (await hostOf()) === 'parked', 30_000, 'the host to park');
    const { context, page, problems } = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1440, height: 1000 } });
    await page.waitForURL((u) => u.pathname === '/sources');
    const badge = page.getByRole('link', { name: /Request echo/ }).getByTestId('host-state');
    await badge.filter({ hasText: 'parked' }).waitFor();
    assert.match((await badge.getAttribute('title')) ?? '', /next request, timer or run starts it/);

    // A request wakes a source whose run waits (written for this test): a busy host never parks.
    const busy = await deploySource(spout, BUSY_SOURCE);
    const aborter = new AbortController();
    const pending = fetch(busy.endpoint, { method: 'POST', body: '{}', signal: aborter.signal }).catch(() => null);
    await page.getByRole('link', { name: /Busy/ }).getByTestId('host-state').filter({ hasText: 'running' }).waitFor();
    await page.getByRole('link', { name: /Busy/ }).click();
    await page.getByTestId('header-host-state').filter({ hasText: 'host running' }).waitFor();
    // Off the source's page first: its poll would read the source deleted below (a 404 is a problem to the page).
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByTestId('host-parking').waitFor();
    assert.match((await page.getByTestId('host-parking').textContent()) ?? '', /stops after 1 s idle.*at most 4 run at once/);
    // Deleting it stops the run at once.
    aborter.abort();
    await pending;
    assert.equal((await spout.api('DELETE', `/v1/sources/${busy.id}`)).status, 204);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
