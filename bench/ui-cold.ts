// `npm run bench:ui`, first part: how long a browser that has never seen the UI (a fresh context:
// no cache, signed in by its cookie only) takes from navigating to New source until the code
// editor is ready to type in, beside a blank page's load from a bare `node:http` server in the
// same run (the baseline: what navigation alone costs here); then the same New source again in a
// context that has loaded it once (what the cache saves). Issue 23 measured 2.35 s cold before.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../test/helpers/browser';
import { startSpout } from '../test/helpers/service';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The UI session cookie the token link sets, as Playwright takes cookies. */
async function sessionCookie(uiUrl: string): Promise<{ name: string; value: string; url: string }> {
  const res = await fetch(uiUrl, { redirect: 'manual' });
  const [pair] = (res.headers.get('set-cookie') ?? '').split(';');
  const [name, value] = (pair ?? '').split('=') as [string, string];
  return { name, value, url: new URL(uiUrl).origin };
}

/** Ms from navigating to `url` in a fresh context until `ready` resolves; `warm` loads it once first. */
async function timeNewSource(browser: Browser, url: string, cookie: { name: string; value: string; url: string }, warm: boolean): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([cookie]);
  const page = await context.newPage();
  const ready = () => page.locator('[data-testid="code-editor"][data-state="ready"] .monaco-editor textarea').waitFor({ state: 'attached', timeout: 30_000 });
  if (warm) {
    await page.goto(url);
    await ready();
    await page.goto('about:blank');
  }
  const started = Date.now();
  await page.goto(url);
  await ready();
  const ms = Date.now() - started;
  await context.close();
  return ms;
}

/** Ms to load a blank page in a fresh context. */
async function timeBlank(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const started = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  const ms = Date.now() - started;
  await context.close();
  return ms;
}

async function main(): Promise<void> {
  const blank = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>blank</title><p>blank'));
  await new Promise<void>((resolve) => blank.listen(0, '127.0.0.1', resolve));
  const blankUrl = `http://127.0.0.1:${(blank.address() as AddressInfo).port}/`;
  const spout = await startSpout();
  const browser = await launchBrowser();
  try {
    const cookie = await sessionCookie(spout.uiUrl);
    const newSource = `${cookie.url}/sources/new`;
    const rows = { blank: [] as number[], cold: [] as number[], warm: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      rows.blank.push(await timeBlank(browser, blankUrl));
      rows.cold.push(await timeNewSource(browser, newSource, cookie, false));
      rows.warm.push(await timeNewSource(browser, newSource, cookie, true));
    }
    console.log(`New source in Chromium until the code editor takes input (median of ${ROUNDS}, fresh browser context each)`);
    console.log(`  blank page (baseline)        ${String(median(rows.blank)).padStart(5)} ms`);
    console.log(`  New source, cold cache       ${String(median(rows.cold)).padStart(5)} ms`);
    console.log(`  New source, loaded once      ${String(median(rows.warm)).padStart(5)} ms`);
  } finally {
    await browser.close();
    await spout.stop();
    blank.close();
  }
}

await main();
