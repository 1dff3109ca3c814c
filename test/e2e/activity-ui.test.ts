// Issue 14's dev loop in Chromium: a source deployed from the CLI opens with its code, a request
// sent from the page shows in the Activity tab with its request and answer, the code is changed and
// saved with Ctrl+S, the run is replayed against the new code, and "Copy as cURL" gives a command
// that, run by curl, makes a request recorded exactly like the first (binary bodies too). Also:
// replay with edits, errors with mapped stacks, the status filter and the service's search, events
// linked to their runs and back, event search over every stored event, action and workflow-step
// records; axe on each new screen.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axe, editorText, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { cliEnv, cliJson } from '../helpers/cli';
import { startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

// Page functions run in the browser; this project type-checks without the DOM library.
declare const navigator: any;

/** Answers with its version, emits what it got, throws on ?fail. Written for this test. */
const ORDERS = `const VERSION = "v1";
export default {
  name: "Orders",
  version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    console.log("order at", event.path);
    if (event.query.fail) {
      throw new Error("refused on purpose");
    }
    this.$emit({ path: event.path, query: event.query, body: event.body }, { summary: "order " + event.path });
    this.http.respond({ status: 201, headers: { "x-version": VERSION }, body: { version: VERSION, got: event.bodyRaw.length } });
  },
};
`;

interface Recorded {
  id: string;
  status: string;
  replay_of: string | null;
  request: { method: string; path: string; query: string; headers: Record<string, string | string[]>; body: string; body_encoding: string; body_size: number; body_truncated: boolean } | null;
  response: { status: number; body: string } | null;
  emits: Array<{ event_id: string | null }>;
}

/** Headers of one connection: curl and a browser may differ there without the request differing. */
const CONNECTION = new Set(['connection', 'keep-alive']);

/** What identifies a recorded request: everything but the connection's own headers. */
function requestOf(r: Recorded): unknown {
  assert.ok(r.request, `${r.id} has a request`);
  const { headers, ...rest } = r.request;
  return { ...rest, headers: Object.fromEntries(Object.entries(headers).filter(([k]) => !CONNECTION.has(k))) };
}

/** Runs a command line as a shell would (the copied cURL command), and answers its stdout. */
function shell(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', command], { timeout: 20_000, encoding: 'buffer' }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.toString('latin1'))));
  });
}

/** Clicks "Copy as cURL" in `scope` and reads what it put on the clipboard. */
async function copyCurl(page: Page, scope: ReturnType<Page['locator']>): Promise<string> {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await scope.getByRole('button', { name: 'Copy as cURL' }).click();
  return waitFor(async () => (await page.evaluate(() => navigator.clipboard.readText())) as string, 5000, 'the copied command');
}

describe('the Activity tab and the dev loop in Chromium', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let source: { id: string };

  const invocations = async (query = '') => (await spout.api('GET', `/v1/sources/${source.id}/invocations${query}`)).json.data as Recorded[];
  const runRow = (text: string | RegExp) => page.locator('.inv-row', { hasText: text });
  const detail = () => page.getByTestId('invocation-detail');

  before(async () => {
    spout = await startSpout();
    browser = await launchBrowser();
    const dir = tempDir('spout-activity-');
    fs.writeFileSync(path.join(dir, 'orders.mjs'), ORDERS);
    source = await cliJson(['deploy', 'orders.mjs', '--no-follow'], cliEnv(spout), { cwd: dir });
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1400, height: 900 } }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: spout.url });
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await spout?.stop();
  });

  it('walks the loop: code from the CLI, a request, its record, Ctrl+S, replay, and a cURL that makes the same request', async () => {
    // The source deployed from the CLI opens with its code.
    await page.goto(`${spout.url}/sources/${source.id}`);
    await page.locator('.monaco-editor').waitFor();
    await waitFor(async () => (await editorText(page)).includes('const VERSION = "v1";'), 10_000, 'the code in the editor');

    // A request from the page: sub-path, query, a custom header, a JSON body.
    await page.getByLabel('Path').fill('/orders/42?expand=items&note=a%20b');
    await page.getByLabel('Headers (one per line)').fill('content-type: application/json\nx-custom: hello');
    await page.getByLabel('Body').fill('{"item": 42, "name": "ünïcode"}');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByTestId('test-response').getByText('201').waitFor();

    // Its record in the Activity tab: the request as sent, the answer the page got.
    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    await page.getByTestId('activity-state').filter({ hasText: 'live' }).waitFor();
    await runRow('POST /orders/42?expand=items&note=a%20b').click();
    const original = (await invocations())[0] as Recorded;
    await page.waitForURL((u) => u.pathname.endsWith(`/activity/${original.id}`));
    const request = detail().getByTestId('invocation-request');
    await request.getByText(/POST .*\/orders\/42\?expand=items&note=a%20b/).waitFor();
    assert.equal(await request.getByRole('table', { name: 'Query parameters' }).getByRole('row', { name: /note/ }).textContent(), 'notea b');
    await request
      .getByRole('table', { name: 'Request headers' })
      .getByRole('row', { name: /x-custom/ })
      .getByText('hello')
      .waitFor();
    await request.getByTestId('request-body').getByText('"ünïcode"').waitFor();
    const response = detail().getByTestId('invocation-response');
    await response.getByText('sent by the component (respond)').waitFor();
    await response.getByTestId('response-body').getByText('"v1"').waitFor();
    await detail()
      .getByTestId('invocation-logs')
      .getByText(/order at \/orders\/42/)
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/activity-request.png` });
    await axe(page, 'the Activity tab with a run selected');

    // Change the code in the editor and save with Ctrl+S.
    await page.getByRole('link', { name: 'Configure', exact: true }).click();
    await page.locator('.monaco-editor').waitFor();
    await waitFor(async () => (await editorText(page)).includes('"v1"'), 10_000, 'the code in the editor');
    await page.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('2');
    await waitFor(async () => (await editorText(page)).includes('const VERSION = "v2";'), 5000, 'the edit');
    await page.keyboard.press('Control+S');
    await page.getByText('Saved and redeployed').waitFor();

    // Replay the first run: the new code answers, and the new record says what it replays.
    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    await runRow('POST /orders/42').first().waitFor();
    await page.goto(`${spout.url}/sources/${source.id}/activity/${original.id}`);
    await detail().getByTestId('response-body').getByText('"v1"').waitFor();
    await detail().getByRole('button', { name: 'Replay', exact: true }).click();
    await page.waitForURL((u) => !u.pathname.endsWith(original.id) && u.pathname.includes('/activity/inv'));
    const replayId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() as string);
    await page.locator(`[data-testid="invocation-detail"][data-invocation-id="${replayId}"]`).getByTestId('response-body').getByText('"v2"').waitFor();
    await detail().getByRole('link', { name: original.id }).waitFor();
    const replay = (await spout.api('GET', `/v1/invocations/${replayId}`)).json.data as Recorded;
    assert.equal(replay.replay_of, original.id);
    assert.equal(replay.request?.body, original.request?.body, 'the replay sent the same bytes');
    await page.screenshot({ path: `${SHOTS}/activity-replayed.png` });

    // Copy the first run as cURL, run it: the service records the same request.
    await page.goto(`${spout.url}/sources/${source.id}/activity/${original.id}`);
    await detail().getByTestId('response-body').waitFor();
    const command = await copyCurl(page, detail());
    assert.match(command, /^curl /);
    const before = (await invocations()).length;
    const answer = await shell(command);
    assert.match(answer, /"version":"v2"/, 'curl got the answer of the current code');
    const byCurl = (await waitFor(async () => ((await invocations()).length > before ? (await invocations())[0] : null), 10_000, 'the run of the cURL command')) as Recorded;
    assert.notEqual(byCurl.id, original.id);
    assert.deepEqual(requestOf(byCurl), requestOf(original), 'curl sent the recorded request: method, path, query, every header, the body');
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
  });

  it('copies a binary body as cURL byte for byte', async () => {
    const endpoint = ((await spout.api('GET', `/v1/sources/${source.id}`)).json.data.configured_props.http.endpoint_url as string).replace(/\/$/, '');
    const bytes = Buffer.from([0xff, 0x00, 0xfe, 0x27, 0x0a, 0x80, 0x5c, 0x22, 0x00, 0x41]);
    await fetch(`${endpoint}/upload?kind=bin`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'x-quote': `it's "quoted"` }, body: bytes });
    const binary = await waitFor(async () => (await invocations()).find((r) => r.request?.path === '/upload'), 10_000, 'the binary run');
    assert.equal(binary.request?.body_encoding, 'base64');
    await page.goto(`${spout.url}/sources/${source.id}/activity/${binary.id}`);
    await detail()
      .getByTestId('request-body')
      .getByText(/binary \(shown as base64\)/)
      .waitFor();
    const command = await copyCurl(page, detail());
    await shell(command);
    const byCurl = await waitFor(async () => (await invocations()).find((r) => r.request?.path === '/upload' && r.id !== binary.id), 10_000, 'the run of the cURL command');
    assert.deepEqual(requestOf(byCurl), requestOf(binary));
    assert.deepEqual(Buffer.from(byCurl.request!.body, 'base64'), bytes);
  });

  it('replays with edits: method, path, query, headers and body', async () => {
    const original = (await invocations()).find((r) => r.request?.path === '/orders/42' && !r.replay_of) as Recorded;
    await page.goto(`${spout.url}/sources/${source.id}/activity/${original.id}`);
    await detail().getByRole('button', { name: 'Replay with edits…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay with edits' });
    assert.equal(await dialog.getByLabel('Method').inputValue(), 'POST');
    assert.equal(await dialog.getByLabel('Query string').inputValue(), 'expand=items&note=a%20b');
    await axe(page, 'the replay dialog');
    await dialog.getByLabel('Path').fill('/orders/43');
    await dialog.getByLabel('Query string').fill('edited=yes');
    const headers = await dialog.getByLabel('Headers (one per line)').inputValue();
    await dialog.getByLabel('Headers (one per line)').fill(headers.replace('x-custom: hello', 'x-custom: edited'));
    await dialog.getByLabel('Body').fill('{"item": 43}');
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await dialog.waitFor({ state: 'detached' });
    await detail()
      .getByText(/POST .*\/orders\/43\?edited=yes/)
      .first()
      .waitFor();
    const edited = (await invocations())[0] as Recorded;
    assert.equal(edited.replay_of, original.id);
    assert.equal(edited.request?.body, '{"item": 43}');
    assert.equal(edited.request?.headers['x-custom'], 'edited');
    await detail().getByTestId('request-body').getByText('43').first().waitFor();

    // A bad edit is refused with the service's words, in the dialog.
    await detail().getByRole('button', { name: 'Replay with edits…' }).click();
    await dialog.getByLabel('Headers (one per line)').fill('no colon here');
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/line 1: write it as "Name: value"/)
      .waitFor();
    await dialog.getByLabel('Method').fill('PO ST');
    await dialog.getByLabel('Headers (one per line)').fill('x-a: 1');
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/HTTP method/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The browser logs the refused request (400) as a console error: that one was asked for.
    assert.deepEqual(problems.splice(0), ['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });

  it('shows a failed run with its mapped stack, filters by status and searches on the service', async () => {
    const endpoint = ((await spout.api('GET', `/v1/sources/${source.id}`)).json.data.configured_props.http.endpoint_url as string).replace(/\/$/, '');
    await fetch(`${endpoint}/broken?fail=1`, { method: 'POST', body: 'x' });
    await page.goto(`${spout.url}/sources/${source.id}/activity`);
    const failed = runRow('POST /broken?fail=1');
    await failed.waitFor();
    assert.match((await failed.textContent()) ?? '', /error.*502.*refused on purpose/);
    await failed.click();
    const error = detail().getByTestId('invocation-error');
    await error.getByText('Error: refused on purpose', { exact: true }).waitFor();
    const stack = (await error.getByTestId('error-stack').textContent()) ?? '';
    assert.match(stack.split('\n')[1] ?? '', /orders\.mjs:9:\d+/, `the first frame is the component's line:\n${stack}`);
    await error.getByRole('button', { name: 'Show runtime frames' }).click();
    const full = (await error.getByTestId('error-stack').textContent()) ?? '';
    assert.ok(full.split('\n').length > stack.split('\n').length, 'the runtime frames are shown on request');
    await detail()
      .getByTestId('response-body')
      .getByText(/the source did not respond/)
      .first()
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/activity-error.png` });

    // The status filter and the search run on the service.
    await page.getByLabel('Status').selectOption('error');
    await page
      .getByTestId('activity-count')
      .filter({ hasText: /^1 matching run$/ })
      .waitFor();
    assert.equal(await page.locator('.inv-row').count(), 1);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Search runs').fill('ünïcode');
    await page
      .getByTestId('activity-count')
      .filter({ hasText: /^\d+ matching runs?$/ })
      .waitFor();
    await waitFor(async () => (await page.locator('.inv-row').count()) > 0 && (await runRow('/broken').count()) === 0, 5000, 'only runs whose record holds the text');
    await page.getByLabel('Search runs').fill('');
    await runRow('/broken').waitFor();

    // New runs join the list live.
    await fetch(`${endpoint}/live-one`, { method: 'POST', body: '{}' });
    await runRow('POST /live-one').waitFor();
    await axe(page, 'the Activity tab with a failed run');
    await page.setViewportSize({ width: 1000, height: 800 });
    await axe(page, 'the Activity tab at 1000 px');
    await page.screenshot({ path: `${SHOTS}/activity-1000.png` });
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('links an event to its run and back, copies it as cURL from its run, and searches every stored event', async () => {
    const run = (await invocations()).find((r) => r.request?.path === '/orders/42' && !r.replay_of) as Recorded;
    const eventId = run.emits[0]?.event_id as string;
    assert.ok(eventId);
    // From the run to its event…
    await page.goto(`${spout.url}/sources/${source.id}/activity/${run.id}`);
    await detail()
      .getByRole('link', { name: `event ${eventId}` })
      .click();
    await page.waitForURL((u) => u.pathname === `/sources/${source.id}/events/${eventId}`);
    await page.getByTestId('event-view').getByText('"ünïcode"').waitFor();
    // …whose cURL sends its run's request: path, query and headers included…
    const command = await copyCurl(page, page.locator('.event-detail'));
    assert.match(command, /\/orders\/42\?expand=items&note=a%20b/);
    assert.match(command, /-H 'x-custom: hello'/);
    // …and back to the run.
    await page
      .getByTestId('emitted-by')
      .getByRole('link', { name: /POST \/orders\/42/ })
      .click();
    await page.waitForURL((u) => u.pathname === `/sources/${source.id}/activity/${run.id}`);
    await detail().getByTestId('invocation-request').waitFor();

    // Event search runs on the service, over more than the loaded page.
    const many = await deploySource(spout, 'export default { name: "Many", version: "0.1.0", props: {}, async run() { for (let i = 0; i < 150; i++) this.$emit({ i, tag: "needle-" + i + "." }, { summary: "event " + i }); } };');
    await spout.api('POST', `/v1/sources/${many.id}/run`);
    await page.goto(`${spout.url}/sources/${many.id}/events`);
    await page.getByTestId('event-count').filter({ hasText: '100 of 100' }).waitFor();
    assert.equal(await page.locator('.event-row', { hasText: /^.*event 3$/ }).count(), 0, 'the oldest events are not loaded');
    await page.getByLabel('Search events').fill('needle-3.');
    await page
      .getByTestId('event-count')
      .filter({ hasText: /^1 matching on the service$/ })
      .waitFor();
    await page.locator('.event-row', { hasText: 'event 3' }).click();
    await page.getByTestId('event-view').getByText('"needle-3."').waitFor();
    await page
      .getByTestId('emitted-by')
      .getByRole('link', { name: /run now/ })
      .waitFor();
    await axe(page, 'the event inspector with a searched event selected');
  });

  it('shows the deliveries a run caused, following them until they settle', async () => {
    const receiver = await startReceiver();
    try {
      // Attempts fail until the pane shows the message failing; then the next retry (a second later) succeeds.
      let healthy = false;
      receiver.respond = () => (healthy ? 200 : 500);
      const webhook = (await spout.api('POST', '/v1/webhooks', { url: receiver.url, name: 'Local hook', retry_schedule: Array(20).fill(1) })).json.data.id as string;
      await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: webhook });
      const endpoint = ((await spout.api('GET', `/v1/sources/${source.id}`)).json.data.configured_props.http.endpoint_url as string).replace(/\/$/, '');
      await fetch(`${endpoint}/delivered`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"d": 1}' });
      const run = await waitFor(async () => (await invocations()).find((r) => r.request?.path === '/delivered'), 10_000, 'the run');
      await page.goto(`${spout.url}/sources/${source.id}/activity/${run.id}`);
      const deliveries = detail().getByTestId('invocation-deliveries');
      await deliveries.locator('tr[data-status="failing"]').waitFor({ timeout: 10_000 });
      healthy = true;
      await deliveries.locator('tr[data-status="delivered"]').getByRole('link', { name: 'Local hook' }).waitFor({ timeout: 15_000 });
      await detail().getByTestId('invocation-emits').getByText('to 1 webhook').waitFor();
      await axe(page, 'a run with its deliveries');
    } finally {
      await receiver.close();
    }
  });

  it("shows a run's outgoing HTTP calls", async () => {
    const api = await startReceiver();
    try {
      api.respond = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"items": ["feed-item-1"]}' });
      const caller = await deploySource(spout, `export default { name: "Caller", version: "0.1.0", props: {}, async run() { const r = await fetch(${JSON.stringify(api.url)} + "?page=1"); this.$emit(await r.json()); } };`);
      const ran = (await spout.api('POST', `/v1/sources/${caller.id}/run`)).json.data as { invocation_id: string };
      await page.goto(`${spout.url}/sources/${caller.id}/activity/${ran.invocation_id}`);
      const calls = detail().getByTestId('invocation-calls');
      const call = calls.locator('summary', { hasText: `GET ${api.url}?page=1` });
      await call.getByText('200').waitFor();
      await call.click();
      await calls.getByTestId('call-0-response-body').getByText('"feed-item-1"').waitFor();
      await axe(page, 'a run with its outgoing calls');
    } finally {
      await api.close();
    }
  });

  it('shows the records of action test runs and of workflow steps', async () => {
    const action = 'export default { name: "Shout", key: "shout", version: "0.1.0", type: "action", props: {}, async run({ $ }) { console.log("shouting"); return "HEY"; } };\n';
    await page.goto(`${spout.url}/sources/new`);
    await page.locator('.monaco-editor').waitFor();
    await page.getByLabel('Open a component file').setInputFiles({ name: 'shout.mjs', mimeType: 'text/javascript', buffer: Buffer.from(action) });
    await page.getByRole('button', { name: 'Check code & load props' }).click();
    await page.getByRole('button', { name: 'Test run' }).click();
    const records = page.getByTestId('run-records');
    const mine = records.locator('li', { hasText: 'this run' });
    await mine.getByRole('button', { name: 'Record' }).click();
    await mine.getByTestId('invocation-logs').getByText('shouting').waitFor();
    await mine.getByRole('heading', { name: 'action run' }).waitFor();
    await axe(page, 'an action test run with its record');

    const componentId = (await spout.api('POST', '/v1/components', { component_code: action })).json.data.id as string;
    const wf = (await spout.api('POST', '/v1/workflows', { name: 'Shouting', trigger: { type: 'manual' }, steps: [{ name: 'shout', component_id: componentId }] })).json.data.id as string;
    await spout.api('POST', `/v1/workflows/${wf}/run`, {});
    await page.goto(`${spout.url}/workflows/${wf}`);
    const wfRun = page.locator('li.run').first();
    await wfRun.getByRole('button', { name: 'Details' }).click();
    await wfRun.getByRole('button', { name: 'Run record' }).click();
    await wfRun.getByTestId('invocation-detail').getByTestId('invocation-logs').getByText('shouting').waitFor();
    await axe(page, 'a workflow step with its record');
    assert.deepEqual(problems, [], 'no script errors or CSP violations');
  });
});
