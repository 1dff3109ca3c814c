// Issue 43 in Chromium: a save in the UI never silently replaces a change deployed from elsewhere.
// The editor holds a draft while `spout update --code` deploys version 2: the editor says so
// (version, who), Ctrl+S is refused with the notice and the CLI's code stays deployed, the diff
// shows both, and "Overwrite version 2" then saves the draft knowingly. "Reload" takes theirs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axe, editorText, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { cli, cliEnv } from '../helpers/cli';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** An HTTP source answering its tag. */
const source = (tag: string) => `export default {
  name: "Orders",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" } },
  async run() {
    this.$emit({ tag: "${tag}" }, { summary: "${tag}" });
  },
};
`;

/** Also kept outside the test's own folder, for the closing note. */
const SCREENS = '/work/screens';

describe('UI: a change deployed elsewhere is never lost by a save', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let id: string;
  const dir = tempDir('spout-conflict-ui-');

  before(async () => {
    spout = await startSpout();
    browser = await launchBrowser();
    ({ id } = await deploySource(spout, source('first'), { name: 'orders' }));
    ({ page, problems } = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1440, height: 900 } }));
  });
  after(async () => {
    await browser?.close();
    await spout?.stop();
  });

  const shot = async (name: string) => {
    await page.screenshot({ path: `${SHOTS}/${name}` });
    fs.mkdirSync(SCREENS, { recursive: true });
    fs.copyFileSync(`${SHOTS}/${name}`, path.join(SCREENS, name));
  };
  const deployFromCli = async (tag: string) => {
    const file = path.join(dir, `${tag}.mjs`);
    fs.writeFileSync(file, source(tag));
    const r = await cli(['update', id, '--code', file], cliEnv(spout));
    assert.equal(r.code, 0, r.stderr);
  };
  const deployed = async () => (await spout.api('GET', `/v1/sources/${id}`)).json.data;
  /** Types `text` at the end of the first line of the editor. */
  const typeInEditor = async (text: string) => {
    await page.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.type(text);
  };
  const notice = () => page.getByTestId('version-notice');

  it('shows the CLI deploy live, refuses Ctrl+S with the notice, and overwrites only when asked', async () => {
    await page.goto(`${spout.url}/sources/${id}`);
    await waitFor(async () => (await editorText(page)).includes('tag: "first"'), 15_000, 'the code in the editor');
    await typeInEditor(' // my draft');
    await page.getByTestId('draft-state').getByText('Unsaved changes').waitFor();

    await deployFromCli('from-cli');
    await notice()
      .getByText(/Version 2.*saved from the CLI at \d\d:\d\d:\d\d while you have unsaved changes \(based on version 1\)/)
      .waitFor({ timeout: 15_000 });
    assert.ok((await editorText(page)).includes('// my draft'), 'the draft stays in the editor');
    assert.equal(await notice().getAttribute('role'), 'status');
    await page.getByTestId('source-version').getByText('v2').waitFor();

    // Ctrl+S: refused, and said so; the CLI's code is still what runs.
    await page.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+S');
    await notice().getByText('Not saved:').waitFor();
    assert.equal(await notice().getAttribute('role'), 'alert');
    await notice().getByRole('button', { name: 'Overwrite version 2' }).waitFor();
    const after409 = await deployed();
    assert.equal(after409.version, 2);
    assert.match(after409.code, /tag: "from-cli"/);
    assert.equal(await page.getByText('Saved and redeployed').count(), 0, 'never "Saved" when nothing was saved');

    // The diff shows their line against the draft's.
    await notice().getByRole('button', { name: 'Show diff' }).click();
    await notice().locator('.diff-del', { hasText: 'tag: "from-cli"' }).waitFor();
    await notice().locator('.diff-add', { hasText: '// my draft' }).waitFor();
    await axe(page, 'the version notice');
    await shot('43-conflict-notice-1440.png');
    await page.setViewportSize({ width: 1024, height: 768 });
    await notice().scrollIntoViewIfNeeded();
    await shot('43-conflict-notice-1024.png');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Overwrite: the draft replaces version 2, knowingly, from the UI.
    await notice().getByRole('button', { name: 'Overwrite version 2' }).click();
    await page.getByText('Saved and redeployed').waitFor();
    const saved = await deployed();
    assert.equal(saved.version, 3);
    assert.equal(saved.changed_by, 'ui');
    assert.match(saved.code, /\/\/ my draft/);
    await waitFor(async () => (await notice().count()) === 0, 10_000, 'the notice to go');
    // The browser logs the refused save's 409 itself; nothing else went wrong.
    assert.deepEqual(
      problems.filter((p) => !p.includes('status of 409 (Conflict)')),
      [],
    );
  });

  it('Reload takes the version deployed elsewhere and drops the draft', async () => {
    await typeInEditor(' // second draft');
    await page.getByTestId('draft-state').getByText('Unsaved changes').waitFor();
    await deployFromCli('again-from-cli');
    await notice()
      .getByText(/Version 4.*saved from the CLI/)
      .waitFor({ timeout: 15_000 });
    await notice().getByRole('button', { name: 'Reload version 4' }).click();
    await waitFor(async () => (await editorText(page)).includes('tag: "again-from-cli"') && !(await editorText(page)).includes('// second draft'), 15_000, "the CLI's code in the editor");
    assert.equal(await page.getByTestId('draft-state').count(), 0);
    assert.equal(await notice().count(), 0);
    assert.equal((await deployed()).version, 4, 'reloading saves nothing');
  });

  it('keeps what is typed while a save is under way: unsaved, in the editor, after the save ends', async () => {
    // The save's PUT is held until the typing is done, so the two overlap every time.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let putSeen = false;
    await page.route(`**/v1/sources/${id}`, async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      putSeen = true;
      await held;
      await route.continue();
    });
    await typeInEditor(' // saved part');
    await page.getByRole('button', { name: 'Save & redeploy' }).click();
    await waitFor(async () => putSeen, 15_000, 'the save under way');
    await typeInEditor(' and more');
    release();
    await waitFor(async () => (await deployed()).version === 5, 15_000, 'the save done');
    await page.unroute(`**/v1/sources/${id}`);
    // The next read of the source (every 2 s) must not put the saved code over the newer edits.
    await waitFor(async () => (await page.getByTestId('source-version').textContent())?.includes('v5') ?? false, 15_000, 'v5 shown');
    await page.waitForResponse((r) => r.url().endsWith(`/v1/sources/${id}`) && r.request().method() === 'GET');
    await page.getByTestId('draft-state').getByText('Unsaved changes').waitFor();
    assert.ok((await editorText(page)).includes('// saved part and more'), 'the edits made during the save stay in the editor');
    assert.ok((await deployed()).code?.includes('// saved part') && !(await deployed()).code?.includes('and more'), 'what was saved is what was sent');
    await page.getByRole('button', { name: 'Discard changes…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard changes' }).click();
  });

  it('the webhook settings form: a save refused for a version saved elsewhere, then overwritten when asked', async () => {
    const hook = (await spout.api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/first', name: 'orders hook' })).json.data;
    await page.goto(`${spout.url}/webhooks/${hook.id}`);
    const form = page.getByRole('form', { name: 'Settings' });
    await form.getByLabel('Name').fill('renamed in the UI');
    const cliPut = await spout.api('PUT', `/v1/webhooks/${hook.id}`, { url: 'http://127.0.0.1:9/from-cli' }, { 'x-spout-client': 'cli' });
    assert.equal(cliPut.json.data.version, 2);
    await form
      .getByTestId('version-notice')
      .getByText(/Version 2.*saved from the CLI/)
      .waitFor({ timeout: 15_000 });
    await form.getByRole('button', { name: 'Keep mine' }).click();
    // Another change lands after Keep mine: the save is refused, naming it.
    await spout.api('PUT', `/v1/webhooks/${hook.id}`, { description: 'from the API' });
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await form
      .getByTestId('version-notice')
      .getByText(/Not saved:.*version 3/)
      .waitFor();
    assert.equal((await spout.api('GET', `/v1/webhooks/${hook.id}`)).json.data.name, 'orders hook');
    await form.getByRole('button', { name: 'Overwrite version 3' }).click();
    await page.getByText('Webhook saved').waitFor();
    const saved = (await spout.api('GET', `/v1/webhooks/${hook.id}`)).json.data;
    assert.equal(saved.name, 'renamed in the UI');
    assert.equal(saved.version, 4);
    assert.equal(saved.changed_by, 'ui');
  });

  it('the workflow edit form: a version saved elsewhere is said, and Reload takes it', async () => {
    const wf = (await spout.api('POST', '/v1/workflows', { name: 'nightly', trigger: { type: 'manual' }, steps: [] })).json.data;
    await page.goto(`${spout.url}/workflows/${wf.id}/edit`);
    await page.getByLabel('Workflow name').fill('nightly (UI)');
    await spout.api('PUT', `/v1/workflows/${wf.id}`, { name: 'nightly (sync)' }, { 'x-spout-client': 'sync' });
    await notice()
      .getByText(/Version 2.*saved from sync/)
      .waitFor({ timeout: 15_000 });
    await notice().getByRole('button', { name: 'Reload version 2' }).click();
    await waitFor(async () => (await page.getByLabel('Workflow name').inputValue()) === 'nightly (sync)', 10_000, 'the reloaded name');
    assert.equal(await notice().count(), 0);
  });
});
