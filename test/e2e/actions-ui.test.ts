// Actions in their own place (issue 43, point 3), in a real Chromium: the navigation's Actions, New
// action on an action template (no source name, no Deploy), save and test run with the props form
// (return value, exports, summary, logs, an error at file:line), the list of saved actions with
// their last run, versions (an older one opened), "Use as a workflow step", the MCP tool switch and
// its settings, a registry action's one message (saved and test-run, never deployed), and axe at
// 1440 and 1024 px; withLabel props' options kept with their labels (issue 45). Screenshots (light, and dark in a page that starts dark) go to test-results/screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axe, editorText, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** Version 0.0.2 of the template's action (written for this test): it throws when asked to. */
const FAILING = `export default {
  key: "my_action",
  name: "My action",
  version: "0.0.2",
  type: "action",
  props: {
    name: { type: "string", label: "Name" },
  },
  async run({ $ }) {
    console.log("about to fail for", this.name);
    throw new Error("cannot greet " + this.name);
  },
};
`;

/** withLabel props (issue 45): written for this test. */
const ACTION = `export default {
  key: "label_picks",
  name: "Label picks",
  version: "0.0.1",
  type: "action",
  props: {
    tableId: {
      type: "string",
      label: "Table",
      withLabel: true,
      async options() {
        return [{ label: "Projects", value: "tb_1" }, { label: "People", value: "tb_2" }];
      },
    },
    size: {
      type: "integer",
      label: "Size",
      withLabel: true,
      options: [{ label: "Small", value: 1 }, { label: "Large", value: 9 }],
    },
  },
  async run() {
    return \`\${this.tableId.label}=\${this.tableId.value} \${this.size.label}=\${this.size.value}\`;
  },
};
`;

const SOURCE = `export default {
  name: "Label source",
  version: "0.0.1",
  props: {
    http: "$.interface.http",
    tableId: {
      type: "string",
      label: "Table",
      withLabel: true,
      async options() {
        return [{ label: "Projects", value: "tb_1" }];
      },
    },
  },
  async run(event) {
    this.$emit({ table: this.tableId });
  },
};
`;

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
];

describe('UI: actions are first-class', () => {
  let spout: SpoutProcess;
  let browser: Browser;

  before(async () => {
    [spout, browser] = await Promise.all([startSpout(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await spout?.stop();
  });

  /** A screenshot of the page as it is, named by its width (and `dark`). */
  async function shoot(page: Page, name: string, dark = false): Promise<void> {
    await page.screenshot({ path: `${SHOTS}/${name}-${page.viewportSize()!.width}${dark ? '-dark' : ''}.png` });
  }

  it('writes, saves and test-runs an action from its own screens; lists it with versions and last run; uses it as a step and an MCP tool', async () => {
    const { context, page, problems } = await signedInPage(browser, await spout.signInUrl());
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Actions' }).click();
    await page.getByRole('heading', { name: 'Actions', level: 1 }).waitFor();
    await page.getByText('No saved actions yet.').waitFor();

    // New action: an action template, titled so, with no source name and no Deploy.
    await page.getByRole('link', { name: 'New action', exact: true }).click();
    await page.getByRole('heading', { name: 'New action', level: 1 }).waitFor();
    await page.locator('.monaco-editor').waitFor();
    await waitFor(async () => (await editorText(page)).includes('type: "action"'), 15_000, 'the action template in the editor');
    assert.equal(await page.getByLabel('Source name').count(), 0, 'no source name');
    assert.equal(await page.getByRole('button', { name: 'Deploy', exact: true }).count(), 0, 'no Deploy');
    assert.equal(await page.getByRole('heading', { name: 'New source' }).count(), 0);
    // Its props form is read from the code without saving it: nothing is listed before Save.
    await page.getByLabel(/^Name/).fill('Ada');
    assert.equal((await spout.api('GET', '/v1/users/me/actions')).json.data.length, 0, 'opening New action saves nothing');
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await axe(page, `New action at ${size.width} px`);
      await shoot(page, '43-new-action');
    }
    await page.setViewportSize(WIDTHS[0]!);

    // Save: the action's own page, the value kept; then a test run with its result.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/actions\/my_action$/);
    await page.getByRole('heading', { name: 'My action', level: 1 }).waitFor();
    assert.equal(await page.getByLabel(/^Name/).inputValue(), 'Ada');
    await page.getByRole('button', { name: 'Test run' }).click();
    const result = page.getByTestId('action-result');
    await result.getByTestId('step-summary').filter({ hasText: 'Greeted Ada' }).waitFor();
    await result.getByTestId('return-value').getByText('"Hello, Ada!"').waitFor();
    assert.match((await result.getByTestId('exports').textContent()) ?? '', /length: ?11/);
    assert.match((await result.getByTestId('console').textContent()) ?? '', /greeting Ada/);
    assert.equal(await result.getByTestId('run-status').textContent(), 'success');

    // The list: name, key, version, saved date, last run.
    const item = page.getByRole('list', { name: 'Actions' }).getByRole('link', { name: /My action/ });
    await item.getByTestId('last-run').filter({ hasText: 'success' }).waitFor();
    assert.match((await item.textContent()) ?? '', /my_action.*v0\.0\.1 · saved \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await result.getByTestId('return-value').waitFor();
      await axe(page, `an action with a run result at ${size.width} px`);
      await shoot(page, '43-action-run-result');
    }
    await page.setViewportSize(WIDTHS[0]!);

    // A new version that throws: the error names the file and line.
    await page.getByLabel('Open an action file').setInputFiles({ name: 'my-action.mjs', mimeType: 'text/javascript', buffer: Buffer.from(FAILING) });
    await waitFor(async () => (await editorText(page)).includes('0.0.2'), 15_000, 'the new code in the editor');
    await page.getByRole('button', { name: 'Test run' }).click();
    await result.getByTestId('run-status').filter({ hasText: 'error' }).waitFor();
    const error = result.getByTestId('step-error');
    assert.match((await error.textContent()) ?? '', /cannot greet Ada/);
    await error.getByText('Stack').click();
    await error.locator('pre.stack', { hasText: /component\.mjs:11/ }).waitFor();
    await item.getByTestId('last-run').filter({ hasText: 'error' }).waitFor();
    await item.getByText(/v0\.0\.2 .* · 2 versions/).waitFor();

    // Versions: both listed with dates; the older one opens with its code.
    const versions = page.getByTestId('versions');
    await versions.getByRole('link', { name: /^v0\.0\.2 saved \d{4}-/ }).waitFor();
    await versions.getByRole('link', { name: /^v0\.0\.1 saved \d{4}-/ }).click();
    await page.waitForURL(/\/actions\/sc_/);
    await page.getByText('an older version (the newest is v0.0.2)').waitFor();
    await waitFor(async () => (await editorText(page)).includes('version: "0.0.1"'), 15_000, 'the older version in the editor');
    const older = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('heading', { name: 'My action', level: 1 }).scrollIntoViewIfNeeded();
    await shoot(page, '43-action-older-version');

    // Use as a workflow step: the new workflow form with this version as step 1.
    await page.getByRole('link', { name: 'Use as a workflow step' }).click();
    await page.waitForURL(/\/workflows\/new\?action=sc_/);
    const step1 = page.getByRole('group', { name: 'Step 1' });
    await waitFor(async () => (await step1.getByLabel('Action').inputValue()) === older, 15_000, 'the action chosen in step 1');
    assert.equal(await step1.getByLabel('Step name').inputValue(), 'my_action');
    await page.getByLabel('Workflow name').fill('Greets');
    await step1.getByLabel(/^Name/).fill('{{steps.trigger.event.body.who}}');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.waitForURL(/\/workflows\/p_/);

    // Expose as an MCP tool: on by default, switched off here, as Settings → MCP shows.
    await page.goto(`${spout.url}/actions/my_action`);
    const expose = page.getByRole('switch', { name: /Expose as an MCP tool/ });
    await waitFor(async () => (await expose.count()) === 1 && (await expose.isChecked()), 15_000, 'the MCP switch, on');
    await expose.uncheck();
    await waitFor(async () => ((await spout.api('GET', '/v1/mcp/settings')).json.data.hidden_actions as string[]).includes('my_action'), 10_000, 'the action hidden from MCP');
    await page.getByRole('link', { name: 'MCP tools settings' }).click();
    await page.waitForURL(/\/settings\/mcp$/);
    await page.getByRole('switch', { name: /Expose my_action/ }).waitFor();
    assert.equal(await page.getByRole('switch', { name: /Expose my_action/ }).isChecked(), false);

    // The list at both widths.
    await page.goto(`${spout.url}/actions`);
    await page
      .getByRole('list', { name: 'Actions' })
      .getByRole('link', { name: /My action/ })
      .waitFor();
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await axe(page, `the action list at ${size.width} px`);
      await shoot(page, '43-action-list');
    }
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });

  it('shows the action screens in the dark scheme, axe clean at 1440 and 1024 px', async () => {
    const { context, page, problems } = await signedInPage(browser, await spout.signInUrl());
    // Dark from the start, as for a user whose system is dark (the code editor picks its theme when it opens).
    await page.emulateMedia({ colorScheme: 'dark' });
    const first = ((await spout.api('GET', '/v1/actions/my_action')).json.data.versions as Array<{ id: string }>).at(-1)!;
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await page.goto(`${spout.url}/actions`);
      await page
        .getByRole('list', { name: 'Actions' })
        .getByRole('link', { name: /My action/ })
        .waitFor();
      await axe(page, `the action list, dark, at ${size.width} px`);
      await shoot(page, '43-action-list', true);
      await page.goto(`${spout.url}/actions/new`);
      await waitFor(async () => (await editorText(page)).includes('type: "action"'), 15_000, 'the action template in the editor');
      await page.getByLabel(/^Name/).fill('Grace');
      await axe(page, `New action, dark, at ${size.width} px`);
      await shoot(page, '43-new-action', true);
      await page.goto(`${spout.url}/actions/${first.id}`);
      await page.getByLabel(/^Name/).fill('Grace');
      await page.getByRole('button', { name: 'Test run' }).click();
      await page.getByTestId('action-result').getByTestId('return-value').getByText('"Hello, Grace!"').waitFor();
      await axe(page, `an action with a run result, dark, at ${size.width} px`);
      await shoot(page, '43-action-run-result', true);
    }
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });

  it('opens a registry action from New action: saved and test-run, never "deployed", and listed', async () => {
    const { context, page, problems } = await signedInPage(browser, await spout.signInUrl());
    await page.goto(`${spout.url}/actions/new`);
    await page.getByRole('button', { name: 'Start from a registry action…' }).click();
    await page.getByLabel('Search components').fill('format text');
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Format Text' })
      .getByRole('button', { name: /^Use Format Text/ })
      .click();
    await page.waitForURL(/\/actions\/formatting-format-text$/);
    await page.getByRole('heading', { name: 'Format Text', level: 1 }).waitFor();
    await page.getByTestId('registry-note').getByText('Actions are not deployed: they are saved and test-run.').waitFor();
    assert.equal(await page.getByText(/deployed as it is/i).count(), 0, 'one message: never "deployed"');
    assert.equal(await page.getByRole('button', { name: 'Deploy', exact: true }).count(), 0);
    await page.getByLabel(/^Text/).fill('hello there');
    await page.getByLabel(/^Operation/).selectOption('uppercase');
    await page.getByRole('button', { name: 'Test run' }).click();
    await page.getByTestId('action-result').getByTestId('return-value').getByText('"HELLO THERE"').waitFor();
    await page
      .getByRole('list', { name: 'Actions' })
      .getByRole('link', { name: /Format Text/ })
      .getByText(/registry/)
      .waitFor();
    await axe(page, 'a registry action');
    // Its code as a copy to edit: the editor takes input.
    await page.getByRole('button', { name: 'Edit a copy' }).click();
    await page.getByLabel('Component code', { exact: true }).waitFor({ state: 'attached' });
    await page.getByTestId('draft-state').waitFor();
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });

  it("runs an action with the options' labels, and shows a deployed source's label", async () => {
    const saved = await spout.api('POST', '/v1/components', { component_code: ACTION, component_filename: 'label-picks.mjs' });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    const { context, page, problems } = await signedInPage(browser, await spout.signInUrl());
    await page.waitForURL((u) => u.pathname === '/sources');
    await page.goto(`${spout.url}/actions/label_picks`);
    const table = page.getByLabel(/^Table/);
    await table.locator('option', { hasText: 'People' }).waitFor({ state: 'attached' });
    await table.selectOption({ label: 'People' });
    await page.getByLabel(/^Size/).selectOption({ label: 'Large' });
    assert.equal(await table.locator('option:checked').textContent(), 'People');
    await page.getByRole('button', { name: 'Test run' }).click();
    await page.getByTestId('action-result').getByTestId('return-value').getByText('"People=tb_2 Large=9"').waitFor();

    const deployed = await spout.api('POST', '/v1/sources', { component_code: SOURCE, configured_props: { tableId: { label: 'Archive', value: 'tb_9' } } });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
    await page.goto(`${spout.url}/sources/${deployed.json.data.id}`);
    const sourceTable = page.getByLabel(/^Table/);
    await sourceTable.locator('option', { hasText: 'Projects' }).waitFor({ state: 'attached' });
    // The stored value is not among the options: it is shown by its label, selected.
    await waitFor(async () => (await sourceTable.locator('option:checked').textContent()) === 'Archive', 10_000, 'the stored label selected');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
