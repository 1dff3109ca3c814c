// Settings → MCP in Chromium (docs/mcp.md): hiding a saved action in the UI takes it out of the
// tools an agent lists (GET /v1/mcp/tools and the official SDK's client); a registry app, an
// account per app and a network mode chosen in the UI are what /v1/mcp/tools answers; a tool's
// input schema opens; the client snippets copy, and the copied script runs and lists the tools.
// The developer toolset's switch shows its configuration for a folder, and its copied script lists
// the dev tools. axe on the screen at 1400 and 1000 px. Screenshots go to test-results/screenshots.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { McpSettings, McpSnippets, McpToolView } from '../../runtime/contract/mcp-api';
import { axe, holdFirstRequest, launchBrowser, SHOTS, signedInPage } from '../helpers/browser';
import { connectMcp, type McpConnection, saveComponent } from '../helpers/mcp';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const run = promisify(execFile);

const ADD = `export default {
  name: "Add numbers",
  key: "mcp_ui_add",
  description: "Adds two integers.",
  version: "0.1.0",
  type: "action",
  props: { a: { type: "integer", label: "A", min: 0 }, b: { type: "integer", label: "B", optional: true } },
  async run({ $ }) {
    $.export("$summary", "Added");
    return this.a + (this.b ?? 0);
  },
};
`;

const GLOBEX = `export default { name: "Globex region", key: "mcp_ui_globex", version: "0.1.0", type: "action", props: { globex: { type: "app", app: "globex" } }, async run() { return this.globex.$auth.region; } };\n`;

describe('UI: Settings → MCP', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let mcp: McpConnection;

  const tools = async () => (await spout.api('GET', '/v1/mcp/tools?limit=100')).json.data as McpToolView[];
  const tool = async (name: string) => (await tools()).find((t) => t.name === name);
  const settings = async () => (await spout.api('GET', '/v1/mcp/settings')).json.data as McpSettings;
  /** Clicks a Copy button and answers what it put on the clipboard (the page's own, granted to the test). */
  const copy = async (button: string) => {
    await page.evaluate('navigator.clipboard.writeText("")');
    await page.getByRole('button', { name: button }).click();
    return waitFor(() => page.evaluate('navigator.clipboard.readText()') as Promise<string>, 5000, `${button} to fill the clipboard`);
  };
  const toast = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first().waitFor();

  before(async () => {
    // The key lives in the data dir, as after a first start: the stdio snippets need nothing else.
    spout = await startSpout({ keyInDataDir: true });
    await saveComponent(spout, ADD, 'add.mjs');
    await saveComponent(spout, GLOBEX, 'globex.mjs');
    mcp = await connectMcp(spout, 'http');
    browser = await launchBrowser();
    ({ context, page, problems } = await signedInPage(browser, await spout.signInUrl(), { viewport: { width: 1400, height: 1000 } }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: spout.url });
    await page.waitForURL((u) => u.pathname === '/sources');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings views' }).getByRole('link', { name: 'MCP' }).click();
    await page.waitForURL((u) => u.pathname === '/settings/mcp');
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await mcp?.client.close();
    await spout?.stop();
  });

  it('hides a saved action with its switch: /v1/mcp/tools says so and an agent no longer lists it', async () => {
    await page.getByRole('list', { name: 'MCP tools' }).getByTestId('mcp-tool-mcp_ui_add').waitFor();
    assert.ok((await mcp.client.listTools()).tools.some((t) => t.name === 'mcp_ui_add'));
    const expose = page.getByRole('switch', { name: 'Expose mcp_ui_add' });
    assert.equal(await expose.isChecked(), true);
    await expose.uncheck();
    await toast('mcp_ui_add: hidden from MCP clients');
    assert.equal((await tool('mcp_ui_add'))?.exposed, false);
    assert.deepEqual((await settings()).hidden_actions, ['mcp_ui_add']);
    assert.ok(!(await mcp.client.listTools()).tools.some((t) => t.name === 'mcp_ui_add'), 'the agent no longer sees it');
    await page.getByTestId('mcp-tool-mcp_ui_add').getByText('hidden', { exact: true }).waitFor();
    await page.getByTestId('mcp-tools-count').filter({ hasText: '1 of 2 exposed' }).waitFor();

    // The keyboard shows it again: Space on the focused switch.
    await expose.focus();
    await page.keyboard.press('Space');
    await toast('mcp_ui_add: exposed to MCP clients');
    assert.equal((await tool('mcp_ui_add'))?.exposed, true);
    assert.ok((await mcp.client.listTools()).tools.some((t) => t.name === 'mcp_ui_add'));
    assert.deepEqual(problems, []);
  });

  it("opens a tool's input schema and sets its network mode", async () => {
    const item = page.getByTestId('mcp-tool-mcp_ui_add');
    await item.getByText('Input schema').click();
    const schema = JSON.parse((await item.locator('pre.json-box').textContent()) ?? '') as { properties: Record<string, { minimum?: number }> };
    assert.deepEqual(schema, (await tool('mcp_ui_add'))?.input_schema);
    assert.equal(schema.properties.a?.minimum, 0);
    await item.getByLabel('Network mode of mcp_ui_add').selectOption('replay');
    await toast('mcp_ui_add: network mode Replay');
    assert.equal((await tool('mcp_ui_add'))?.network_mode, 'replay');
    assert.deepEqual((await settings()).network_modes, { mcp_ui_add: 'replay' });
    // Live is the default, so choosing it again leaves nothing in the settings.
    await item.getByLabel('Network mode of mcp_ui_add').selectOption('live');
    await toast('mcp_ui_add: network mode Live');
    assert.deepEqual((await settings()).network_modes, {});
  });

  it("exposes a registry app's actions, and refuses an app the registry does not have", async () => {
    const form = page.getByRole('form', { name: 'Add a registry app' });
    await form.getByLabel('App').fill('no_such_app');
    await form.getByRole('button', { name: 'Add app' }).click();
    await page.getByRole('alert').filter({ hasText: 'The registry has no actions in app “no_such_app”' }).waitFor();
    assert.deepEqual((await settings()).registry_apps, []);

    await form.getByLabel('App').fill('helper_functions');
    await form.getByRole('button', { name: 'Add app' }).click();
    await toast('helper_functions: its registry actions are tools');
    assert.deepEqual((await settings()).registry_apps, ['helper_functions']);
    const registry = (await tools()).filter((t) => t.origin === 'registry');
    assert.ok(registry.length > 0 && registry.every((t) => t.app === 'helper_functions'));
    // The UI lists them as the API does, and counts them beside the app.
    const first = registry[0] as McpToolView;
    await page.getByRole('list', { name: 'MCP tools' }).getByTestId(`mcp-tool-${first.name}`).waitFor({ timeout: 10_000 });
    await page.getByRole('list', { name: 'Registry apps exposed' }).getByText(`${registry.length} tool`).waitFor();
    assert.ok((await mcp.client.listTools()).tools.some((t) => t.name === first.name));
    await page.getByRole('button', { name: 'Remove helper_functions' }).click();
    await toast('helper_functions: its registry actions are no longer tools');
    assert.deepEqual((await settings()).registry_apps, []);
  });

  it('binds an app to one of its accounts', async () => {
    const eu = (await spout.api('POST', '/v1/accounts', { app: 'globex', name: 'Globex EU', credentials: { region: 'eu' } })).json.data.id as string;
    await spout.api('POST', '/v1/accounts', { app: 'globex', name: 'Globex US', credentials: { region: 'us' } });
    // Two accounts and none chosen: calls are refused, and the screen says how to choose.
    await waitFor(async () => (await tool('mcp_ui_globex'))?.accounts[0]?.status === 'choose', 5000, 'the binding to need a choice');
    const select = page.getByLabel('Account for globex');
    await page
      .locator('#mcp-account-globex-note')
      .filter({ hasText: /2 connected accounts/ })
      .waitFor({ timeout: 10_000 });
    await select.locator(`option[value="${eu}"]`).waitFor({ state: 'attached' });
    await select.selectOption(eu);
    await toast(`globex: tools use account ${eu}`);
    assert.deepEqual((await settings()).accounts, { globex: eu });
    assert.deepEqual((await tool('mcp_ui_globex'))?.accounts, [{ prop: 'globex', app: 'globex', status: 'bound', account_id: eu, problem: null }]);
    const result = (await mcp.client.callTool({ name: 'mcp_ui_globex', arguments: {} })) as { structuredContent?: { return_value: unknown } };
    assert.equal(result.structuredContent?.return_value, 'eu');
    await page
      .locator('#mcp-account-globex-note')
      .filter({ hasText: `Calls use ${eu}.` })
      .waitFor();
  });

  it("copies each client's configuration, and the copied script lists the tools", async () => {
    const snippets = (await spout.api('GET', '/v1/mcp/snippets')).json.data as McpSnippets;
    const clients = page.getByRole('tablist', { name: 'MCP clients' });
    await page
      .getByTestId('mcp-http-url')
      .filter({ hasText: `${spout.url}/mcp` })
      .waitFor();

    assert.deepEqual(JSON.parse(await copy('Copy Claude Desktop stdio configuration')), snippets.clients.find((c) => c.client === 'claude-desktop')?.config);

    // Arrow keys move between the clients' tabs.
    await clients.getByRole('tab', { name: 'Claude Desktop' }).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await clients.getByRole('tab', { name: 'Cursor' }).getAttribute('aria-selected'), 'true');
    assert.deepEqual(JSON.parse(await copy('Copy Cursor HTTP configuration')), snippets.clients.find((c) => c.client === 'cursor' && c.transport === 'http')?.config);
    await clients.getByRole('tab', { name: 'Cursor' }).focus();
    await page.keyboard.press('End');
    await page.getByRole('tabpanel').getByText('StdioClientTransport').first().waitFor();
    await page.getByRole('tabpanel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/mcp-settings-snippets.png` });

    // The scripts, as copied, connect (stdio through spout mcp, HTTP with the key) and list the tools.
    const dir = path.resolve('test-results');
    for (const transport of ['stdio', 'HTTP']) {
      const file = path.join(dir, `mcp-script-${transport.toLowerCase()}-${process.pid}.mjs`);
      fs.writeFileSync(file, await copy(`Copy ${transport} script`));
      try {
        const { stdout } = await run(process.execPath, [file], { timeout: 30_000, env: { ...process.env, SPOUT_API_KEY: spout.apiKey } });
        assert.match(stdout, /^mcp_ui_add - Adds two integers\.$/m, `${transport}: ${stdout}`);
        assert.match(stdout, /^mcp_ui_globex - /m);
      } finally {
        fs.rmSync(file, { force: true });
      }
    }
    assert.ok(!(await page.content()).includes(spout.apiKey), 'no snippet holds the key');
    assert.deepEqual(problems, []);
  });

  it('filters a long tool list, and shows actions saved elsewhere without a reload', async () => {
    assert.equal(await page.getByRole('searchbox', { name: 'Filter tools' }).count(), 0, 'no filter for a short list');
    for (let i = 1; i <= 7; i++) await saveComponent(spout, ADD.replace('mcp_ui_add', `mcp_ui_more_${i}`).replace('Adds two integers.', `More number ${i}.`), `more-${i}.mjs`);
    // The list is read again every 5 s.
    const filter = page.getByRole('searchbox', { name: 'Filter tools' });
    await filter.waitFor({ timeout: 10_000 });
    await page.getByTestId('mcp-tools-count').filter({ hasText: '9 of 9 exposed' }).waitFor();
    await filter.fill('number 7');
    await page.getByText('1 shown').waitFor();
    assert.deepEqual(await page.getByRole('list', { name: 'MCP tools' }).locator('code.tool-name').allTextContents(), ['mcp_ui_more_7']);
    await filter.fill('');
    assert.equal(await page.getByRole('list', { name: 'MCP tools' }).locator('code.tool-name').count(), 9);
  });

  it("shows the developer toolset's configuration once switched on, for a folder; its copied script lists the dev tools", async () => {
    const folder = path.resolve('test-results');
    assert.equal(await page.getByTestId('mcp-dev-stdio-command').count(), 0, 'off unless asked');
    // The folder is typed while the switch's save is still on its way (its request held here until
    // then): the folder's save waits for it and goes next, and both are kept.
    const puts = await holdFirstRequest(page, '**/v1/mcp/settings', 'PUT');
    await page.getByRole('switch', { name: 'Let coding agents develop components' }).check();
    await waitFor(() => puts.sent() === 1 || null, 5000, "the switch's save on its way");
    await page.getByLabel('Folder agents may read and write').fill(folder);
    await page.getByLabel('Folder agents may read and write').blur();
    assert.equal(puts.sent(), 1, "the folder's save waits for the switch's");
    puts.release();
    await toast('Developer toolset shown');
    await toast(`Agents' folder: ${folder}`);
    await puts.stop();
    assert.equal(puts.sent(), 2);
    assert.deepEqual([(await settings()).dev_toolset, (await settings()).dev_root], [true, folder]);
    // Both edits are there after a reload.
    await page.reload();
    await page.getByRole('switch', { name: 'Let coding agents develop components' }).waitFor();
    assert.equal(await page.getByRole('switch', { name: 'Let coding agents develop components' }).isChecked(), true);
    assert.equal(await page.getByLabel('Folder agents may read and write').inputValue(), folder);
    await page
      .getByTestId('mcp-dev-stdio-command')
      .filter({ hasText: `--dev --root ${folder}` })
      .waitFor();
    await page.getByRole('tablist', { name: 'MCP clients (dev)' }).getByRole('tab', { name: 'Claude Code' }).waitFor();
    assert.match(await copy('Copy Claude Code stdio configuration (dev)'), new RegExp(`^claude mcp add spout-dev -- .* mcp --data-dir .* --dev --root ${folder}$`));
    await page.getByRole('tablist', { name: 'MCP clients (dev)' }).getByRole('tab', { name: 'Script' }).click();
    const file = path.join(folder, `mcp-dev-script-${process.pid}.mjs`);
    fs.writeFileSync(file, await copy('Copy stdio script (dev)'));
    try {
      const { stdout } = await run(process.execPath, [file], { timeout: 30_000 });
      assert.match(stdout, /^deploy_source - /m);
      assert.doesNotMatch(stdout, /^mcp_ui_add - /m);
    } finally {
      fs.rmSync(file, { force: true });
    }
    // Kept with the MCP settings: a new page shows the switch on and the folder (the API test restarts the service).
    await page.reload();
    assert.equal(await page.getByRole('switch', { name: 'Let coding agents develop components' }).isChecked(), true);
    assert.equal(await page.getByLabel('Folder agents may read and write').inputValue(), folder);
    await page
      .getByTestId('mcp-dev-stdio-command')
      .filter({ hasText: `--dev --root ${folder}` })
      .waitFor();
    await page.getByRole('heading', { name: 'Developer toolset' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/mcp-settings-dev-toolset.png` });
    assert.deepEqual(problems, []);
  });

  it('passes axe at 1400 and 1000 px', async () => {
    await page.getByTestId('mcp-tool-mcp_ui_add').getByText('Input schema').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/mcp-settings.png`, fullPage: true });
    await axe(page, 'Settings → MCP');
    await page.setViewportSize({ width: 1000, height: 900 });
    await axe(page, 'Settings → MCP at 1000 px');
    await page.screenshot({ path: `${SHOTS}/mcp-settings-1000.png` });
    assert.deepEqual(problems, []);
  });
});
