// A suite's service and signed-in Chromium page, started before its tests and stopped after.
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signedInPage } from './browser';
import { type SpoutProcess, startSpout } from './service';

/** Registers before/after hooks in the calling `describe` (the service started with `options`); read `spout` and `page` inside its tests. */
export function browserSuite(options: Parameters<typeof startSpout>[0] = {}): { readonly spout: SpoutProcess; readonly page: Page } {
  const held: { spout?: SpoutProcess; browser?: Browser; context?: BrowserContext; page?: Page } = {};
  before(async () => {
    held.spout = await startSpout(options);
    held.browser = await launchBrowser();
    ({ context: held.context, page: held.page } = await signedInPage(held.browser, await held.spout.signInUrl()));
  });
  after(async () => {
    await held.context?.close();
    await held.browser?.close();
    await held.spout?.stop();
  });
  return {
    get spout() {
      if (!held.spout) throw new Error('browserSuite: the service is read before the suite started');
      return held.spout;
    },
    get page() {
      if (!held.page) throw new Error('browserSuite: the page is read before the suite started');
      return held.page;
    },
  };
}
