// Workflow steps in the action's own form, in a real Chromium: a step whose action has a
// six-option select shows that select; a later step's text field suggests an earlier step's
// export after other text and `{{`, and inserting it writes the expression; "Test step" against a
// chosen event shows the step's output; the workflow view shows steps as read-only forms; axe at
// 1440 and 1024 px, light and dark. Screenshots go to /work/screens.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { axe } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';

/** An action in the registry's shape (written for this test) with a six-option select prop. */
const PICK = `export default {
  key: "spout_test-pick-channel", name: "Pick channel", version: "0.0.1", type: "action",
  props: {
    channel: { type: "string", label: "Channel", description: "Where the ticket goes.", options: [
      { label: "General", value: "general" }, { label: "Random", value: "random" }, { label: "Alerts", value: "alerts" },
      { label: "Sales", value: "sales" }, { label: "Support", value: "support" }, { label: "Development", value: "dev" },
    ] },
  },
  async run({ $ }) {
    $.export("ticket", "T-" + this.channel);
    $.export("$summary", "picked " + this.channel);
    return { channel: this.channel };
  },
};`;

/** A second action: it writes a note from its text. */
const NOTE = `export default {
  key: "spout_test-write-note", name: "Write note", version: "0.0.1", type: "action",
  props: { text: { type: "string", label: "Note" } },
  async run({ $ }) {
    console.log("noting " + this.text);
    $.export("$summary", "noted");
    return "NOTE: " + this.text;
  },
};`;

describe('workflow steps as forms', () => {
  const suite = browserSuite();

  it('shows the select, suggests an earlier export after text, tests a step, and shows steps as forms', async () => {
    const { spout, page } = suite;
    const save = async (code: string) => (await spout.api('POST', '/v1/components', { component_code: code })).json.data.id as string;
    const [pickId, noteId] = [await save(PICK), await save(NOTE)];
    const created = await spout.api('POST', '/v1/workflows', {
      name: 'Tickets',
      trigger: { type: 'manual' },
      steps: [
        { name: 'pick', component_id: pickId, configured_props: { channel: 'alerts' } },
        { name: 'note', component_id: noteId, configured_props: { text: 'hello' } },
      ],
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const wf = created.json.data as { id: string };
    // A run gives the steps' outputs (the suggestions' samples) and an event to test with.
    assert.equal((await spout.api('POST', `/v1/workflows/${wf.id}/run`, { event: { body: { amount: 12 } } })).json.data.status, 'success');

    await page.goto(`${spout.url}/workflows/${wf.id}/edit`);
    const pick = page.locator('fieldset[data-step="pick"]');
    const channel = pick.getByLabel('Channel', { exact: true });
    await channel.waitFor();
    assert.equal(await channel.evaluate((el) => el.tagName), 'SELECT');
    assert.deepEqual(await channel.locator('option').allTextContents(), ['Select…', 'General', 'Random', 'Alerts', 'Sales', 'Support', 'Development']);
    assert.equal(await channel.locator('option:checked').textContent(), 'Alerts');
    await channel.selectOption({ label: 'Support' });

    // Text first, then `{{`: the earlier step's export is suggested with its sample value.
    const note = page.locator('fieldset[data-step="note"]');
    const text = note.getByLabel('Note', { exact: true });
    await text.fill('');
    await text.pressSequentially('ticket is {{tick');
    const option = page.getByRole('option', { name: /steps\.pick\.ticket/ });
    await option.waitFor();
    assert.match((await option.textContent()) ?? '', /"T-alerts"/);
    await page.getByRole('option', { name: /steps\.trigger\.event\.body\.amount/ }).waitFor({ state: 'detached' });
    await text.press('Enter');
    assert.equal(await text.inputValue(), 'ticket is {{steps.pick.ticket}}');
    await text.press('Escape');

    // Test the first step with its unsaved choice, then the second with it.
    await pick.getByLabel('Test with').selectOption({ index: 0 });
    await pick.getByRole('button', { name: 'Test step' }).click();
    await pick.getByRole('region', { name: 'Test of pick' }).getByText('picked support').waitFor();
    await note.getByRole('button', { name: 'Test step' }).click();
    const result = note.getByRole('region', { name: 'Test of note' });
    await result.getByText('NOTE: ticket is T-support').first().waitFor();
    assert.equal(await result.getByTestId('run-status').textContent(), 'success');

    fs.mkdirSync('/work/screens', { recursive: true });
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 1000 });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await axe(page, `workflow edit with step forms at ${width} px, ${colorScheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await pick.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/work/screens/47-step-form-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 1000 });

    // Saved, the workflow view shows each step as its action's form, read-only.
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page.waitForURL((u) => u.pathname === `/workflows/${wf.id}`);
    const shown = page.locator('#view-pick-channel');
    await shown.waitFor();
    assert.equal(await shown.evaluate((el) => el.tagName), 'SELECT');
    assert.ok(await shown.isDisabled());
    assert.equal(await shown.locator('option:checked').textContent(), 'Support');
    assert.equal(await page.locator('#view-note-text').inputValue(), 'ticket is {{steps.pick.ticket}}');
    const saved = (await spout.api('GET', `/v1/workflows/${wf.id}`)).json.data.steps;
    assert.deepEqual(saved[1].configured_props, { text: 'ticket is {{steps.pick.ticket}}' });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await axe(page, `workflow view at 1440 px, ${colorScheme}`);
    }
  });
});
