// Issue 43, point 5 in Chromium: a registry component is shown and edited as the registry has it.
// Its page and the deployed source's editor open its own file with its comments (not the bundle),
// its app file and common/ module a tab away; an edit of the app file is saved, bundled by the
// service, runs, and is what the editor shows the next time. A source deployed before files were
// kept shows its bundle with a note.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { editorText, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const TREE = path.resolve('test', 'fixtures', 'components', 'files');
const ENTRY = 'notely/sources/new-note/new-note.mjs';
const APP = 'notely/notely.app.mjs';
const COMMON = 'notely/common/format.mjs';

describe('UI: registry components as their original files', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  before(async () => {
    spout = await startSpout({ args: ['--registry', TREE] });
    browser = await launchBrowser();
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl()));
  });
  after(async () => {
    await browser?.close();
    await spout?.stop();
  });

  const tab = (p: string) => page.getByRole('tablist', { name: 'Component files' }).getByRole('tab', { name: p });
  /** Waits until the editor shows `text`, and answers all it shows. */
  const showing = (text: string) => waitFor(async () => ((await editorText(page)).includes(text) ? editorText(page) : null), 15_000, `the editor showing ${text}`);

  it('shows the registry component page and the deployed source as the registry files; an edited app file is saved and runs', async () => {
    await page.goto(`${spout.url}/sources/new?key=notely-new-note`);
    await page.getByText('Registry component').waitFor();
    assert.equal(await tab(ENTRY).getAttribute('aria-selected'), 'true');
    await tab(APP).waitFor();
    await tab(COMMON).waitFor();
    const shown = await showing('// Emits one note each time it runs');
    assert.doesNotMatch(shown, /var \w+_default/);
    await tab(APP).click();
    await showing('// The Notely app: what every Notely component shares.');
    await page.screenshot({ path: `${SHOTS}/registry-files-page.png` });

    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.waitForURL((u) => /\/sources\/dc_/.test(u.pathname));
    const id = new URL(page.url()).pathname.split('/')[2] as string;
    assert.equal(await tab(ENTRY).getAttribute('aria-selected'), 'true');
    assert.doesNotMatch(await showing('/* The greeting comes from the app file. */'), /var \w+_default/);
    await tab(COMMON).waitFor();

    // Edit the app file: "hello from the app" becomes "hello from the edit".
    await tab(APP).click();
    await showing('return "hello from the app";');
    await page.locator('.monaco-editor .view-line', { hasText: 'hello from the app' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('edit');
    await showing('return "hello from the edit";');
    await tab(`${APP} (edited)`).waitFor();
    await page.getByRole('button', { name: 'Save & redeploy' }).click();
    await waitFor(
      async () => {
        const read = await spout.api('GET', `/v1/sources/${id}`);
        return (read.json.data.files as Array<{ path: string; code: string }> | undefined)?.find((f) => f.path === APP)?.code.includes('hello from the edit');
      },
      30_000,
      'the edited app file saved',
    );

    // Run now on an HTTP source sends it a request from a dialog.
    await page.getByRole('button', { name: 'Run now' }).click();
    const runNow = page.getByRole('dialog', { name: 'Run now: send a request' });
    await runNow.getByRole('button', { name: 'Send' }).click();
    await page.getByText(/Ran: 1 event emitted/).waitFor();
    await runNow.getByRole('button', { name: 'Close' }).click();
    const note = await waitFor(async () => (await spout.api('GET', `/v1/sources/${id}/event_summaries?expand=event&limit=1`)).json.data[0]?.event.note as string | undefined, 15_000, 'the note');
    assert.equal(note, 'HELLO FROM THE EDIT!');

    // Opened again, the source shows the edited files, not a bundle.
    await page.reload();
    await showing('// Emits one note each time it runs');
    await tab(APP).click();
    await showing('return "hello from the edit";');
    await page.screenshot({ path: `${SHOTS}/registry-files-edited.png` });
    assert.deepEqual(problems, []);
  });

  it('shows a source deployed before files were kept as its bundle, saying so', async () => {
    const deployed = await spout.api('POST', '/v1/sources', { component_key: 'notely-new-note', name: 'Old note' });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
    // As an older Spout left it: the registry component saved with its bundle only.
    await context.close();
    await spout.stop();
    const file = path.join(spout.dataDir, 'metadata.json');
    const metadata = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const c of metadata.components) {
      delete c.files;
      delete c.entry_file;
    }
    fs.writeFileSync(file, JSON.stringify(metadata));
    spout = await startSpout({ dataDir: spout.dataDir, args: ['--registry', TREE] });
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl()));
    await page.goto(`${spout.url}/sources/${deployed.json.data.id}`);
    await page
      .getByTestId('bundle-note')
      .getByText(/kept only the bundle it runs/)
      .waitFor();
    await showing('hello from the app');
    assert.equal(await page.getByRole('tablist', { name: 'Component files' }).count(), 0);
    await page.screenshot({ path: `${SHOTS}/registry-files-bundle-note.png` });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
