// withLabel props in the UI (issue 45), in a real Chromium: an action's options chosen in its form
// reach the code as {label, value} (async and static options), and a deployed source's form shows
// the label its value was chosen by, even when that value is no longer among the options.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { startSpout, waitFor, type SpoutProcess } from '../helpers/service';

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

describe('UI: withLabel props', () => {
  let spout: SpoutProcess;
  let browser: Browser;

  before(async () => {
    [spout, browser] = await Promise.all([startSpout(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await spout?.stop();
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
