// "Save as test" in the run view (Chromium): a request's run becomes a test whose files download
// one by one, with where to put them; put beside the component, the test passes under `spout test`.
// axe on the open panel.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axe, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** Emits the request's path and body and answers 202. Written for this test. */
const TICKETS = `export default {
  name: "Tickets",
  version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    this.$emit({ path: event.path, body: event.body }, { summary: "ticket " + event.body.title });
    this.http.respond({ status: 202, body: "queued" });
  },
};
`;

describe('Save as test in Chromium', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  const dir = tempDir('spout-save-test-');

  before(async () => {
    spout = await startSpout();
    browser = await launchBrowser();
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl(), { acceptDownloads: true }));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await spout?.stop();
  });

  it('downloads a test of the run, with a note on where it goes, that spout test passes', async () => {
    fs.writeFileSync(path.join(dir, 'tickets.mjs'), TICKETS);
    const source = await cliJson(['deploy', 'tickets.mjs', '--no-follow'], cliEnv(spout), { cwd: dir });
    await fetch(`${source.configured_props.http.endpoint_url}/new`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'printer' }) });
    const run = await waitFor(async () => (await spout.api('GET', `/v1/sources/${source.id}/invocations`)).json.data[0], 10_000, 'the run');

    await page.goto(`${spout.url}/sources/${source.id}/activity/${run.id}`);
    const detail = page.getByTestId('invocation-detail');
    await detail.getByTestId('response-status').getByText('202').waitFor();
    const save = detail.getByRole('button', { name: 'Save as test' });
    assert.equal(await save.getAttribute('aria-expanded'), 'false');
    await save.click();
    const panel = detail.getByRole('region', { name: 'Test of this run' });
    await panel.waitFor();
    assert.equal(await save.getAttribute('aria-expanded'), 'true');
    assert.match((await panel.textContent()) ?? '', /Put this file beside tickets\.mjs, then run spout test in that folder\./);
    await page.screenshot({ path: `${SHOTS}/activity-save-as-test.png` });
    await axe(page, 'the run view with Save as test open');

    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download tickets.test.mjs' }).click()]);
    assert.equal(download.suggestedFilename(), 'tickets.test.mjs');
    const test = fs.readFileSync((await download.path()) as string, 'utf8');
    assert.match(test, /loadSource\("\.\/tickets\.mjs"/);
    assert.match(test, /assert\.equal\(r\.status, 202\);/);
    fs.writeFileSync(path.join(dir, 'tickets.test.mjs'), test);
    const passed = await cli(['test'], cliEnv(null, { CI: undefined }), { cwd: dir, timeoutMs: 60_000 });
    assert.equal(passed.code, 0, `${passed.stdout}\n${passed.stderr}\n${test}`);
    assert.match(passed.stdout, /1 passed, 0 failed/);
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
  });
});
