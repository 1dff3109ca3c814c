// The UI's action test runs, workflows and event re-delivery in a real Chromium: an action written
// in the editor and test-run; a workflow with an HTTP trigger whose second step reads the first's
// return value through a {{steps…}} reference, called from the test, its run listed with both steps,
// replayed, run by hand, exported and imported; a workflow edited (a prop changed, a masked secret
// kept) and run again; a stored event re-delivered to a local receiver.
// Screenshots go to test-results/screenshots.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** An action (written for this test) that greets, logs, exports and reads `steps`; it throws when asked to. */
const GREETER = `export default {
  name: "Greeter",
  version: "0.0.1",
  type: "action",
  props: {
    who: { type: "string", label: "Who" },
    fail: { type: "boolean", label: "Fail", optional: true },
  },
  async run({ steps, $ }) {
    console.log("greeting " + this.who);
    if (this.fail) throw new Error("asked to fail");
    $.export("$summary", "Greeted " + this.who);
    $.export("jit", $.context.JIT);
    return { greeting: "Hello, " + this.who, from: steps.trigger?.event?.from ?? null };
  },
};
`;

/** Two workflow steps (written for this test): the second reads what the first returned. */
const PARSE = `export default {
  name: "Parse order", version: "0.0.1", type: "action",
  props: { order: { type: "object", label: "Order" } },
  async run({ $ }) {
    $.export("$summary", "order " + this.order.id);
    return { id: this.order.id, total: this.order.items.reduce((sum, i) => sum + i.price, 0) };
  },
};`;

const FORMAT = `export default {
  name: "Format text", version: "0.0.1", type: "action",
  props: { template: { type: "string", label: "Template" }, total: { type: "integer", label: "Total" } },
  async run({ $ }) {
    console.log("formatting " + this.total);
    $.export("$summary", "formatted");
    return this.template + " (total " + this.total + ")";
  },
};`;

/** An action (written for this test) with a secret prop: it says whether the secret it got is the one stored. */
const SECRET_GREETER = `export default {
  name: "Secret greeter", version: "0.0.1", type: "action",
  props: { who: { type: "string", label: "Who" }, token: { type: "string", label: "Token", secret: true } },
  async run({ $ }) {
    $.export("$summary", "greeted " + this.who);
    return { greeting: "Hi, " + this.who, tokenOk: this.token === "s3cret" };
  },
};`;

/** Loads code into the editor with its "Open file…" button, as a user opening a file on disk does. */
async function setEditorText(page: Page, text: string): Promise<void> {
  await page.locator('.monaco-editor').waitFor();
  await page.getByLabel('Open a component file').setInputFiles({ name: 'component.mjs', mimeType: 'text/javascript', buffer: Buffer.from(text) });
  const firstLine = text.split('\n')[0] as string;
  await page.locator('.monaco-editor .view-line', { hasText: firstLine.trim() }).first().waitFor();
}

describe('UI: action test runs, workflows, re-delivery', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let receiver: Receiver;

  before(async () => {
    [spout, receiver] = await Promise.all([startSpout(), startReceiver()]);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await spout?.stop();
  });

  /** A signed-in page that records script errors and CSP violations. */
  async function signedIn(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    return signedInPage(browser, await spout.signInUrl(), { acceptDownloads: true });
  }

  it('test-runs an action written in the editor: summary, exports, return value, console, error with stack', async () => {
    const { context, page, problems } = await signedIn();
    await page.getByRole('link', { name: 'New source' }).click();
    await setEditorText(page, GREETER);
    await page.getByRole('button', { name: 'Check code & load props' }).click();

    // The service says it is an action: "Test run" replaces "Deploy".
    const testRun = page.getByRole('button', { name: 'Test run' });
    await testRun.waitFor();
    assert.equal(await page.getByRole('button', { name: 'Deploy', exact: true }).count(), 0);
    await page.getByTestId('action-notice').waitFor();
    await page.getByRole('heading', { name: 'Test-run an action' }).waitFor();
    await page.getByLabel('Who', { exact: true }).fill('Ada');
    await page.getByLabel(/^steps/).fill('{"trigger": {"event": {"from": "the test"}}}');
    await testRun.click();

    const result = page.getByTestId('action-result');
    await result.getByTestId('step-summary').filter({ hasText: 'Greeted Ada' }).waitFor();
    await result.getByTestId('return-value').getByText('"Hello, Ada"').waitFor();
    await result.getByTestId('return-value').getByText('"the test"').waitFor();
    assert.match((await result.getByTestId('exports').textContent()) ?? '', /jit: ?true/, '$.context.JIT is true in a test run');
    assert.match((await result.getByTestId('console').textContent()) ?? '', /greeting Ada/);
    assert.equal(await result.getByTestId('run-status').textContent(), 'success');
    await page.screenshot({ path: `${SHOTS}/11-action-test-run.png` });

    // A failing run is a result too: the error and its stack.
    await page.getByLabel(/^Fail/).selectOption('true');
    await testRun.click();
    await result.getByTestId('run-status').filter({ hasText: 'error' }).waitFor();
    const error = result.getByTestId('step-error');
    assert.match((await error.textContent()) ?? '', /Error: asked to fail/);
    await error.getByText('Stack').click();
    await error.locator('pre.stack', { hasText: 'asked to fail' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/12-action-test-run-error.png` });

    // The action was saved by the check: workflows can use it.
    const saved = (await spout.api('GET', '/v1/users/me/components?limit=100')).json.data as Array<{ name: string; type: string }>;
    assert.ok(saved.some((c) => c.name === 'Greeter' && c.type === 'action'));
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });

  it('creates an HTTP-triggered workflow whose steps pass data, lists its runs, replays, runs by hand, exports, imports and deletes', async () => {
    const save = async (code: string) => (await spout.api('POST', '/v1/components', { component_code: code })).json.data.id as string;
    const ids = { parse: await save(PARSE), format: await save(FORMAT) };
    const { context, page, problems } = await signedIn();

    await page.getByRole('link', { name: 'Workflows' }).click();
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Create a workflow' }).click();
    await page.getByLabel('Workflow name').fill('Orders flow');
    assert.ok(await page.getByLabel('HTTP request').isChecked(), 'an HTTP trigger is the default');

    // Step 1 parses the request body; step 2 reads step 1's return value.
    const step1 = page.getByRole('group', { name: 'Step 1' });
    await step1.getByLabel('Action').selectOption(ids.parse);
    assert.equal(await step1.getByLabel('Step name').inputValue(), 'parse_order', 'the step is named after its action');
    await step1.getByLabel('Step name').fill('parse');
    await step1.getByRole('button', { name: 'Use an expression for Order' }).click();
    await step1.getByLabel('Order', { exact: true }).fill('{{steps.trigger.event.body}}');
    await page.getByRole('button', { name: 'Add step' }).click();
    const step2 = page.getByRole('group', { name: 'Step 2' });
    await step2.getByLabel('Action').selectOption(ids.format);
    await step2.getByLabel('Step name').fill('format');
    await step2.getByLabel('Template').fill('Order {{steps.parse.$return_value.id}}');
    await step2.getByRole('button', { name: 'Use an expression for Total' }).click();
    await step2.getByLabel('Total', { exact: true }).fill('{{steps.parse.$return_value.total}}');
    await step2.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: `${SHOTS}/13-workflow-create.png` });
    await page.getByRole('button', { name: 'Create workflow' }).click();

    await page.waitForURL(/\/workflows\/p_/);
    const workflowId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] as string);
    await page.getByRole('heading', { name: /Orders flow/, level: 1 }).waitFor();
    const endpoint = (await page.getByTestId('workflow-endpoint').textContent()) ?? '';
    assert.match(endpoint, /\/e\//);
    await page
      .getByRole('link', { name: /Orders flow/ })
      .first()
      .waitFor();

    // Called from outside: the run shows up with both steps.
    const res = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'A7', items: [{ price: 3 }, { price: 4 }] }) });
    assert.equal(res.status, 200);
    const run = page.locator('.run[data-status="success"]').first();
    await run.waitFor({ timeout: 10_000 });
    await run.getByRole('button', { name: 'Details' }).click();
    const details = run.getByTestId('run-details');
    const parse = details.getByRole('region', { name: 'Step parse' });
    const format = details.getByRole('region', { name: 'Step format' });
    await parse.getByTestId('step-summary').filter({ hasText: 'order A7' }).waitFor();
    await parse.getByTestId('return-value').getByText('7', { exact: true }).waitFor();
    await format.getByTestId('return-value').getByText('"Order A7 (total 7)"').waitFor();
    assert.match((await format.getByTestId('console').textContent()) ?? '', /formatting 7/);
    await run.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${SHOTS}/14-workflow-runs.png` });

    // Replay, and a run by hand with a typed event.
    await run.getByRole('button', { name: 'Replay' }).click();
    await waitFor(
      () =>
        page
          .locator('.run')
          .count()
          .then((n) => n === 2),
      10_000,
      'the replay to be listed',
    );
    await page.locator('.run', { hasText: 'replay of' }).first().waitFor();
    await page.getByLabel(/^Trigger event/).fill('{"body": {"id": "B2", "items": [{"price": 5}]}}');
    await page.getByRole('button', { name: 'Run workflow' }).click();
    await waitFor(
      () =>
        page
          .locator('.run')
          .count()
          .then((n) => n === 3),
      10_000,
      'the manual run to be listed',
    );
    await page.getByTestId('return-value').getByText('"Order B2 (total 5)"').first().waitFor();
    const runs = (await spout.api('GET', `/v1/workflows/${workflowId}/runs`)).json.data as Array<{ steps: Array<{ name: string }> }>;
    assert.equal(runs.length, 3);
    assert.deepEqual(
      runs[0]?.steps.map((s) => s.name),
      ['parse', 'format'],
    );

    // Export downloads the definition; importing it makes a second workflow.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    assert.equal(download.suggestedFilename(), 'orders-flow.workflow.json');
    const exported = JSON.parse(fs.readFileSync((await download.path()) as string, 'utf8')) as { spout_workflow: number; steps: Array<{ name: string; component_code: string }> };
    assert.equal(exported.spout_workflow, 1);
    assert.deepEqual(
      exported.steps.map((s) => s.name),
      ['parse', 'format'],
    );
    await page.getByLabel('Import a workflow file').setInputFiles({ name: 'orders-flow.workflow.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await page.waitForURL((u) => u.pathname.startsWith('/workflows/p_') && !u.pathname.includes(workflowId));
    await page.getByText(/Imported Orders flow/).waitFor();
    await waitFor(
      () =>
        page
          .getByRole('list', { name: 'Workflows' })
          .getByRole('listitem')
          .count()
          .then((n) => n === 2),
      10_000,
      'both workflows listed',
    );
    await page.screenshot({ path: `${SHOTS}/15-workflow-imported.png` });

    // Delete the import, after confirming.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete workflow' }).click();
    await page.waitForURL((u) => u.pathname === '/workflows');
    await waitFor(
      () =>
        page
          .getByRole('list', { name: 'Workflows' })
          .getByRole('listitem')
          .count()
          .then((n) => n === 1),
      10_000,
      'one workflow left',
    );
    assert.equal((await spout.api('GET', '/v1/users/me/workflows')).json.data.length, 1);
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });

  it('edits a workflow: the form opens prefilled, the next run uses a changed prop, a masked secret is kept', async () => {
    const componentId = (await spout.api('POST', '/v1/components', { component_code: SECRET_GREETER })).json.data.id as string;
    const created = await spout.api('POST', '/v1/workflows', { name: 'Greeting flow', trigger: { type: 'manual' }, steps: [{ name: 'greet', component_id: componentId, configured_props: { who: 'Ada', token: 's3cret' } }] });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const workflowId = created.json.data.id as string;
    const { context, page, problems } = await signedIn();
    await page.goto(`${spout.url}/workflows/${workflowId}`);
    await page.getByRole('heading', { name: /Greeting flow/, level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Edit', exact: true }).click();

    // Prefilled: name, trigger, the step with its action and props; the secret comes back masked.
    await page.waitForURL((u) => u.pathname === `/workflows/${workflowId}/edit`);
    await page.getByRole('heading', { name: 'Edit Greeting flow', level: 1 }).waitFor();
    assert.equal(await page.getByLabel('Workflow name').inputValue(), 'Greeting flow');
    assert.ok(await page.getByLabel('Manual').isChecked());
    const step = page.getByRole('group', { name: 'Step 1' });
    assert.equal(await step.getByLabel('Step name').inputValue(), 'greet');
    assert.equal(await step.getByLabel('Action').inputValue(), componentId);
    assert.equal(await step.getByLabel('Who', { exact: true }).inputValue(), 'Ada');
    assert.equal(await step.getByLabel('Token').inputValue(), '********');
    await step.getByText(/the stored value is kept/).waitFor();
    await page.screenshot({ path: `${SHOTS}/21-workflow-edit.png` });

    // Renaming the step would lose the stored secret: the form says so before sending.
    await step.getByLabel('Step name').fill('greet_again');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    // Under the field (the step's form is the action's), and in the form's problems alert.
    await step
      .locator('.field-error')
      .filter({ hasText: /type the secret again/ })
      .waitFor();
    await page
      .getByRole('alert', { name: 'Problems' })
      .filter({ hasText: /type the secret again/ })
      .waitFor();
    await step.getByLabel('Step name').fill('greet');

    await step.getByLabel('Who', { exact: true }).fill('Grace');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page.waitForURL((u) => u.pathname === `/workflows/${workflowId}`);
    await page.getByRole('status').filter({ hasText: 'Saved Greeting flow' }).waitFor();
    // The view shows the step as its action's form, read-only.
    await waitFor(async () => (await page.locator('#view-greet-who').inputValue()) === 'Grace', 10_000, 'the saved value in the step form');

    // The next run uses the new value, and the secret it kept.
    await page.getByRole('button', { name: 'Run workflow' }).click();
    await page.getByTestId('return-value').getByText('"Hi, Grace"').first().waitFor({ timeout: 10_000 });
    const runs = (await spout.api('GET', `/v1/workflows/${workflowId}/runs`)).json.data as Array<{ steps: Array<{ ret: unknown }> }>;
    assert.deepEqual(runs[0]?.steps[0]?.ret, { greeting: 'Hi, Grace', tokenOk: true });
    const saved = (await spout.api('GET', `/v1/workflows/${workflowId}`)).json.data as { name: string; trigger: { type: string }; steps: Array<{ configured_props: Record<string, unknown> }> };
    assert.equal(saved.trigger.type, 'manual');
    assert.deepEqual(saved.steps[0]?.configured_props, { who: 'Grace', token: '********' });
    await page.screenshot({ path: `${SHOTS}/22-workflow-edited-run.png` });
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await spout.api('DELETE', `/v1/workflows/${workflowId}`);
    await context.close();
  });

  it('re-delivers a stored event to a chosen webhook that is not subscribed', async () => {
    const source = await deploySource(spout);
    const hook = (await spout.api('POST', '/v1/webhooks', { url: receiver.url, name: 'Redeliver target' })).json.data as { id: string };
    await fetch(`${source.endpoint}/again`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n": 7}' });
    const { context, page, problems } = await signedIn();
    await page.goto(`${spout.url}/sources/${source.id}/events`);
    await page.locator('.event-row', { hasText: 'POST /again' }).click({ timeout: 10_000 });
    assert.equal(receiver.received.length, 0, 'nothing is subscribed');

    await page.getByRole('button', { name: 'Re-deliver to…' }).click();
    await page.getByLabel('Webhook', { exact: true }).selectOption(hook.id);
    await page.screenshot({ path: `${SHOTS}/16-redeliver.png` });
    await page.getByRole('button', { name: 'Re-deliver', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Re-delivered .* to Redeliver target/ })
      .waitFor();
    const got = await waitFor(() => receiver.received[0], 10_000, 'the event at the receiver');
    assert.deepEqual(JSON.parse(got.body), { method: 'POST', path: '/again', body: { n: 7 } });
    assert.ok(got.headers['webhook-id'], 'delivered as a signed webhook message');
    assert.equal(await page.getByRole('form', { name: 'Re-deliver the event' }).count(), 0, 'the form closes');
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
    await context.close();
  });
});
