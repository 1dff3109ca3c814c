import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type StoreOpenings, storeWait } from '../../../../runtime/http/edge/store-wait';

/** Openings over one source, dc_a (slug "echo", endpoint "ep_a"), that say what each request waited for. */
function openings(): { stores: StoreOpenings; waited: string[] } {
  const waited: string[] = [];
  const stores: StoreOpenings = {
    sourceId: (idOrSlug) => (idOrSlug === 'dc_a' || idOrSlug === 'echo' ? 'dc_a' : undefined),
    endpointSourceId: (endpointId) => (endpointId === 'ep_a' ? 'dc_a' : undefined),
    ready: async (sourceId) => void waited.push(sourceId),
    allReady: async () => void waited.push('all'),
  };
  return { stores, waited };
}

function waitsFor(url: string): string | null {
  const { stores, waited } = openings();
  return storeWait(url, stores) ? (waited[0] as string) : null;
}

describe('storeWait', () => {
  it("waits for a source's stores only for requests about that source", () => {
    assert.equal(waitsFor('/e/ep_a/some/path?x=1'), 'dc_a');
    assert.equal(waitsFor('/v1/sources/dc_a/event_summaries?limit=5'), 'dc_a');
    assert.equal(waitsFor('/v1/sources/echo/invocations'), 'dc_a');
    assert.equal(waitsFor('/sse/dc/dc_a/emits'), 'dc_a');
  });

  it('waits for nothing when the request reads no stored events, runs or logs', () => {
    for (const url of ['/v1/users/me/sources?limit=1', '/v1/sources', '/v1/components/cmp_1', '/v1/settings', '/v1/openapi.json', '/v1/accounts/apn_1', '/', '/assets/app.js']) {
      assert.equal(waitsFor(url), null, url);
    }
    // Unknown: answered 404 by their routes, not held.
    assert.equal(waitsFor('/e/ep_unknown'), null);
    assert.equal(waitsFor('/v1/sources/dc_gone/logs'), null);
    assert.equal(waitsFor('/v1/sources/%E0%A4%A/logs'), null);
  });

  it('waits for every store when the request may read any source', () => {
    for (const url of ['/v1/invocations/inv_1', '/v1/components/cmp_1/invocations', '/v1/webhooks/wh_1/messages', '/mcp', '/sse/events']) {
      assert.equal(waitsFor(url), 'all', url);
    }
  });
});
