import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Lookup, resolvesToThisMachine } from '../../../runtime/lib/local-addresses';

describe('local addresses', () => {
  it("resolves a host name: any of this machine's addresses among its answers counts; an address or a name that does not resolve is not looked up further", async () => {
    const names: Record<string, string[]> = { 'alias.test': ['127.0.0.1'], 'mixed.test': ['203.0.113.5', '::1'], 'far.test': ['203.0.113.5'], 'meta.test': ['169.254.169.254'] };
    const asked: string[] = [];
    const lookup: Lookup = async (host) => {
      asked.push(host);
      if (!names[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return names[host]!;
    };
    assert.equal(await resolvesToThisMachine('alias.test', lookup), true);
    assert.equal(await resolvesToThisMachine('MIXED.TEST.', lookup), true, 'any local answer is enough');
    assert.equal(await resolvesToThisMachine('meta.test', lookup), true, 'link-local too');
    assert.equal(await resolvesToThisMachine('far.test', lookup), false);
    assert.equal(await resolvesToThisMachine('nowhere.test', lookup), false);
    assert.equal(await resolvesToThisMachine('203.0.113.9', lookup), false);
    assert.equal(await resolvesToThisMachine('[::1]', lookup), false, 'addresses are judged as written, elsewhere');
    assert.deepEqual(asked, ['alias.test', 'mixed.test', 'meta.test', 'far.test', 'nowhere.test']);
  });
});
