// Chromium for the UI tests: Debian's binary driven by playwright-core, and signed-in pages that
// record script errors and CSP violations.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

// Page functions run in the browser; this project type-checks without the DOM library.
declare const document: any;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where tests write screenshots of each screen, for reviewers. */
export const SHOTS = 'test-results/screenshots';

/** Starts headless Chromium with the flags this machine needs. */
export async function launchBrowser(): Promise<Browser> {
  fs.mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page opened at `url` (the UI link with its token), collecting page errors and console errors in `problems`. */
export async function signedInPage(browser: Browser, url: string, options: { viewport?: { width: number; height: number }; acceptDownloads?: boolean; initScript?: string } = {}): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1440, height: 900 }, acceptDownloads: options.acceptDownloads ?? false });
  if (options.initScript) await context.addInitScript({ content: options.initScript });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.goto(url);
  return { context, page, problems };
}

/** axe on the page as it is: fails on a serious or critical violation, naming each. */
export async function axe(page: Page, screen: string): Promise<void> {
  await axeFailing(page, screen, (v) => v.impact === 'serious' || v.impact === 'critical');
}

/** axe() and, beyond it, headings out of order (`heading-order`, a moderate rule axe() lets pass). */
export async function axeWithHeadings(page: Page, screen: string): Promise<void> {
  await axeFailing(page, screen, (v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order');
}

/** Runs axe and fails on the violations `fails` picks, naming each with its first elements. */
async function axeFailing(page: Page, screen: string, fails: (v: { id: string; impact?: string | null }) => boolean): Promise<void> {
  // Monaco fades code its TypeScript worker finds unused (as VS Code does), on purpose below the
  // contrast ratio. The worker answers when it will, so whether axe sees the fade depended on the
  // machine's load; it is the editor's convention, not a colour of ours, so it is left out.
  const result = await new AxeBuilder({ page }).exclude('.squiggly-inline-unnecessary').analyze();
  const bad = result.violations.filter(fails);
  assert.deepEqual(
    bad.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    ),
    [],
    `axe on ${screen}`,
  );
}

/** Every `.view-line` text of the monaco editor, top to bottom. */
export async function editorText(page: Page): Promise<string> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.monaco-editor .view-line')]
      .sort((a: any, b: any) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
      .map((l: any) => (l.textContent ?? '').replace(/\u00a0/g, ' '))
      .join('\n'),
  );
}

/**
 * Holds the page's first `method` request to `url` (a glob) until `release()`, then lets it and
 * every later one through to the service: a second edit made meanwhile is made while the first is
 * on its way. `sent()` counts the requests the page made; `stop()` removes the route.
 */
export async function holdFirstRequest(page: Page, url: string, method: string): Promise<{ release(): void; sent(): number; stop(): Promise<void> }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let sent = 0;
  await page.route(url, async (route) => {
    if (route.request().method() === method && sent++ === 0) await held;
    await route.continue();
  });
  return { release, sent: () => sent, stop: () => page.unroute(url) };
}
