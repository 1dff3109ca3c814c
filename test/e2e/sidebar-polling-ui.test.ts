// The sources list's refresh costs one request whatever the number of sources (issue 47, point 5):
// the /v1 requests the page makes between two refreshes of the list are the same with 1 source as
// with 7, none of them about one source, and the list still shows each source's last event and
// errors. Counted per refresh, not per second: no timing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../helpers/browser-suite';
import { deploySource, ECHO_SOURCE, waitFor } from '../helpers/service';

const LIST = '/v1/users/me/sources';

/** A source whose run logs an error line and emits, named `name` (written for this test). */
const failing = (name: string) => `export default { name: "${name}", version: "0.0.1", props: { http: "$.interface.http" },
  async run() { console.error("it broke"); this.$emit({ ok: false }); } };`;

describe('UI: the sources list polls once per refresh', () => {
  const suite = browserSuite();

  /** The /v1 paths (with query) requested from one refresh of the list up to the next. */
  const oneRefresh = async (): Promise<string[]> => {
    const seen: string[] = [];
    let lists = 0;
    const listener = (req: { url(): string }) => {
      const url = new URL(req.url());
      if (!url.pathname.startsWith('/v1/')) return;
      if (url.pathname === LIST) lists++;
      if (lists === 1) seen.push(`${url.pathname}${url.search}`);
    };
    suite.page.on('request', listener);
    try {
      await waitFor(() => lists >= 2, 30_000, 'two refreshes of the sources list');
    } finally {
      suite.page.off('request', listener);
    }
    // From one list request up to the next one: one whole period.
    return seen;
  };

  it('asks the same requests per refresh with 1 and with 7 sources, none per source', async () => {
    const { spout, page } = suite;
    const first = await deploySource(spout, failing('Failing one'));
    await fetch(first.endpoint, { method: 'POST', body: '{}' });
    await page.goto(`${spout.url}/sources`);
    const firstLink = page.getByRole('link', { name: /Failing one/ });
    await firstLink.waitFor();
    // What the list shows per source comes with the list: its last event and its recent errors.
    await firstLink.getByText(/last event/).waitFor();
    await firstLink.getByText('1 error').waitFor();
    const withOne = await oneRefresh();

    const ids = [first.id];
    for (let i = 2; i <= 7; i++) ids.push((await deploySource(spout, ECHO_SOURCE, { name: `Echo ${i}` })).id);
    await page.getByRole('list', { name: 'Sources' }).getByRole('link').nth(6).waitFor();
    await page
      .getByRole('link', { name: /Echo 7/ })
      .getByText('no events')
      .waitFor();
    const withSeven = await oneRefresh();

    console.log(`/v1 requests per refresh of the sources list: ${withOne.length} with 1 source (${withOne.join(' ')}), ${withSeven.length} with 7 (${withSeven.join(' ')})`);
    const perSource = withSeven.filter((u) => ids.some((id) => u.includes(id)));
    assert.deepEqual(perSource, [], 'no request is about one source');
    assert.equal(withSeven.length, withOne.length, 'the requests per refresh do not grow with the sources');
  });
});
