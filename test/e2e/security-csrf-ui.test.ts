// Issue 12 in a real Chromium: a browser signed in to the UI (its session cookie set) visits a
// hostile page on another port of 127.0.0.1 (cookies ignore ports, so the browser attaches the
// cookie). That page cannot create a webhook, deploy a source or read the API, by any of the
// requests a page can make without a CORS grant; nor can a page a component serves at /e/ (same
// origin as the UI) act as the UI. The UI itself keeps working.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { deploySource, type SpoutProcess, startSpout } from '../helpers/service';

/** What the hostile page tries; it reports each outcome in `window.results` and sets the title when done. */
function attackPage(target: string): string {
  const hook = encodeURIComponent('http://127.0.0.1:9/attacker');
  const code = encodeURIComponent('export default { name: "Planted", version: "0.1.0", props: {}, async run() {} }');
  return `<!doctype html><meta charset="utf-8"><title>attacking</title>
<iframe name="sink" style="display:none"></iframe>
<form id="form" method="POST" target="sink" action="${target}/v1/webhooks?url=${hook}&name=form"></form>
<form id="plain" method="POST" target="sink" enctype="text/plain" action="${target}/v1/sources">
  <input name='{"component_code":"export default { name: \\"Plain\\", version: \\"0.1.0\\", props: {}, async run() {} }","x":"' value='"}'>
</form>
<script>
const results = {};
window.results = results;
const attempt = async (name, fn) => { try { results[name] = await fn(); } catch (e) { results[name] = 'failed: ' + e.message; } };
(async () => {
  await attempt('no-cors webhook', () => fetch('${target}/v1/webhooks?url=${hook}&name=nocors', { method: 'POST', mode: 'no-cors', credentials: 'include' }).then((r) => r.type));
  await attempt('no-cors deploy', () => fetch('${target}/v1/sources?component_code=${code}', { method: 'POST', mode: 'no-cors', credentials: 'include' }).then((r) => r.type));
  await attempt('no-cors text/plain deploy', () => fetch('${target}/v1/sources', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ component_code: decodeURIComponent('${code}') }) }).then((r) => r.type));
  await attempt('cors read', () => fetch('${target}/v1/users/me/webhooks', { credentials: 'include' }).then((r) => r.text()));
  await attempt('cors write with the UI header', () => fetch('${target}/v1/webhooks?url=${hook}&name=cors', { method: 'POST', credentials: 'include', headers: { 'x-spout-ui': '1' } }).then((r) => r.status));
  const loaded = (id) => new Promise((resolve) => { document.querySelector('iframe').addEventListener('load', resolve, { once: true }); document.getElementById(id).submit(); });
  await loaded('form');
  await loaded('plain');
  document.title = 'done';
})();
</script>`;
}

describe('UI session against another page of the same host', () => {
  let spout: SpoutProcess;
  let browser: Browser;
  let attacker: http.Server;
  let attackerUrl: string;

  before(async () => {
    spout = await startSpout();
    browser = await launchBrowser();
    attacker = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(spout.url)));
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => attacker?.close(resolve));
    await spout?.stop();
  });

  const counts = async () => ({
    webhooks: (await spout.api('GET', '/v1/users/me/webhooks')).json.page_info.total_count as number,
    sources: (await spout.api('GET', '/v1/users/me/sources')).json.page_info.total_count as number,
  });

  it('a page on another port cannot write or read with the session cookie', async () => {
    const { context, page } = await signedInPage(browser, await spout.signInUrl());
    await page.waitForURL((u) => u.pathname === '/sources');
    const cookies = await context.cookies(spout.url);
    assert.ok(
      cookies.some((c) => c.name.startsWith('spout_session_')),
      'the browser holds the session cookie',
    );
    // The cookie is attached to requests from the other port too: that is what the guards are for.
    assert.equal(new URL(attackerUrl).hostname, new URL(spout.url).hostname);

    const before = await counts();
    const attack = await context.newPage();
    await attack.goto(attackerUrl);
    await attack.waitForFunction("document.title === 'done'", undefined, { timeout: 20_000 });
    const results = (await attack.evaluate('window.results')) as Record<string, string>;
    assert.match(results['cors read'] ?? '', /^failed/, 'the API cannot be read from another origin');
    assert.match(results['cors write with the UI header'] ?? '', /^failed/, 'the preflight for the UI header is refused');
    assert.deepEqual(await counts(), before, 'no webhook created and no source deployed');
    await context.close();
  });

  it('a page a component serves at /e/ cannot act as the UI', async () => {
    const code = `export default { name: "Hostile page", version: "0.1.0", props: { http: { type: "$.interface.http", customResponse: true } },
      async run() {
        this.http.respond({ status: 200, headers: { "content-type": "text/html" }, body: \`<!doctype html><title>page</title><script>
          (async () => {
            let read = 'unread', wrote = 'unwritten';
            try { read = await (await fetch('/v1/users/me/webhooks', { headers: { 'x-spout-ui': '1' } })).text(); } catch (e) { read = 'failed'; }
            try { wrote = String((await fetch('/v1/webhooks?url=http%3A%2F%2F127.0.0.1%3A9%2Fxss', { method: 'POST', headers: { 'x-spout-ui': '1' } })).status); } catch (e) { wrote = 'failed'; }
            document.title = 'done|' + read.slice(0, 40) + '|' + wrote;
          })();
        </script>\` });
      } };`;
    const source = await deploySource(spout, code);
    const { context, page } = await signedInPage(browser, await spout.signInUrl());
    await page.waitForURL((u) => u.pathname === '/sources');
    const before = await counts();
    await page.goto(source.endpoint);
    await page.waitForFunction("document.title.startsWith('done')", undefined, { timeout: 20_000 });
    const [, read, wrote] = (await page.title()).split('|');
    assert.doesNotMatch(read ?? '', /page_info/, 'the page cannot read the API');
    assert.notEqual(wrote, '200', 'the page cannot write through the API');
    assert.deepEqual(await counts(), before);
    await context.close();
  });

  it('the UI itself still creates a webhook with its session', async () => {
    const { context, page, problems } = await signedInPage(browser, await spout.signInUrl());
    await page.waitForURL((u) => u.pathname === '/sources');
    const before = await counts();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'New webhook' }).click();
    await page.getByLabel('URL').fill('http://127.0.0.1:9/from-ui');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByTestId('signing-secret').waitFor();
    assert.equal((await counts()).webhooks, before.webhooks + 1);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
