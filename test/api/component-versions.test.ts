// Issue 43, point 4: checking code saves nothing, and saved versions can be seen and deleted.
// A check (POST /v1/components/check), a props reload and async options of module text not saved,
// and a lint leave the saved components as they were; the same code saved twice is one component;
// every saved version says what uses it (sources, workflows, the MCP tool); a version nothing uses
// can be deleted, one a source or workflow runs is refused with a 409 naming them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';

/** An HTTP source with a dynamic prop and async options; `version` makes each version's code differ. */
const ordersHook = (version: string) => `export default {
  key: "orders-hook",
  name: "Orders hook",
  version: "${version}",
  props: {
    http: "$.interface.http",
    mode: { type: "string", label: "Mode", reloadProps: true, options: ["all", "paid"] },
    shop: { type: "string", label: "Shop", async options() { return ["north", "south"]; } },
  },
  async additionalProps() {
    return this.mode === "paid" ? { min: { type: "integer", label: "Minimum" } } : {};
  },
  async run(event) { this.$emit(event.body); },
};
`;

const ACTION = `export default { key: "tidy-action", name: "Tidy action", version: "0.1.0", type: "action", props: {}, async run() { return 1; } };`;

interface Listed {
  id: string;
  key: string | null;
  version: string;
  used_by: Array<{ kind: string; id: string; name: string }>;
}

describe('component versions: checks save nothing, versions say what uses them and can be deleted', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  const saved = async (): Promise<Listed[]> => (await spout.api('GET', '/v1/users/me/components?limit=100')).json.data as Listed[];

  it('checks code, reloads its props and loads its options without saving anything', async () => {
    const before = await saved();
    const check = await spout.api('POST', '/v1/components/check', { component_code: ordersHook('0.1.0') });
    assert.equal(check.status, 200, JSON.stringify(check.json));
    assert.equal(check.json.data.id, null, 'not saved: no id');
    assert.equal(check.json.data.key, 'orders-hook');
    assert.deepEqual(
      check.json.data.configurable_props.map((p: { name: string }) => p.name),
      ['http', 'mode', 'shop'],
    );

    const props = await spout.api('POST', '/v1/components/props', { component_code: ordersHook('0.1.0'), configured_props: { mode: 'paid' } });
    assert.equal(props.status, 200, JSON.stringify(props.json));
    assert.deepEqual(
      props.json.data.configurable_props.map((p: { name: string }) => p.name),
      ['http', 'mode', 'shop', 'min'],
    );
    const options = await spout.api('POST', '/v1/components/configure', { component_code: ordersHook('0.1.0'), prop_name: 'shop' });
    assert.equal(options.status, 200, JSON.stringify(options.json));
    assert.deepEqual(
      options.json.options.map((o: { value: string }) => o.value),
      ['north', 'south'],
    );
    // Code typed on (another version) is read the same way.
    assert.equal((await spout.api('POST', '/v1/components/props', { component_code: ordersHook('0.1.1'), configured_props: {} })).status, 200);
    assert.equal((await spout.api('POST', '/v1/components/lint', { component_code: ordersHook('0.1.2') })).status, 200);

    const invalid = await spout.api('POST', '/v1/components/check', { component_code: 'export default { name: "x" };' });
    assert.equal(invalid.status, 400);
    assert.ok(invalid.json.errors.length > 0, 'every problem is listed');
    const both = await spout.api('POST', '/v1/components/props', { id: 'orders-hook', component_code: ordersHook('0.1.0') });
    assert.equal(both.status, 400);
    assert.match(both.json.detail, /exactly one of id .* or component_code/);

    assert.deepEqual(await saved(), before, 'nothing was saved');
  });

  it('saves the same code once, and a check of saved code names the saved component', async () => {
    const first = await spout.api('POST', '/v1/components', { component_code: ordersHook('0.1.0') });
    const second = await spout.api('POST', '/v1/components', { component_code: ordersHook('0.1.0') });
    assert.equal(first.status, 200);
    assert.equal(second.json.data.id, first.json.data.id, 'identical code is one component');
    const check = await spout.api('POST', '/v1/components/check', { component_code: ordersHook('0.1.0') });
    assert.equal(check.json.data.id, first.json.data.id);
    assert.equal((await saved()).filter((c) => c.key === 'orders-hook').length, 1);
  });

  it('says what uses each version, deletes an unused one, and refuses one in use naming the source', async () => {
    const deployed = await spout.api('POST', '/v1/sources', { component_code: ordersHook('0.2.0'), name: 'Orders in', configured_props: { mode: 'all', shop: 'north' } });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
    const source = deployed.json.data as { id: string; component_id: string };
    const versions = (await saved()).filter((c) => c.key === 'orders-hook');
    assert.deepEqual(
      versions.map((c) => c.version),
      ['0.2.0', '0.1.0'],
      'newest first',
    );
    assert.deepEqual(versions[0]!.used_by, [{ kind: 'source', id: source.id, name: 'Orders in' }]);
    assert.deepEqual(versions[1]!.used_by, []);
    assert.deepEqual((await spout.api('GET', `/v1/components/${source.component_id}`)).json.data.used_by, versions[0]!.used_by);

    const refused = await spout.api('DELETE', `/v1/components/${source.component_id}`);
    assert.equal(refused.status, 409);
    assert.match(refused.json.detail, new RegExp(`used by source ${source.id} \\(Orders in\\)`));

    const unused = versions[1]!.id;
    assert.equal((await spout.api('DELETE', `/v1/components/${unused}`)).status, 204);
    assert.equal((await spout.api('GET', `/v1/components/${unused}`)).status, 404);
    assert.deepEqual(
      (await saved()).filter((c) => c.key === 'orders-hook').map((c) => c.id),
      [source.component_id],
    );
  });

  it('deletes only the unused versions of a key when asked, keeping the ones in use', async () => {
    const inUse = (await saved()).find((c) => c.key === 'orders-hook')!.id;
    for (const v of ['0.3.0', '0.3.1']) assert.equal((await spout.api('POST', '/v1/components', { component_code: ordersHook(v) })).status, 200);
    assert.equal((await spout.api('DELETE', '/v1/components/orders-hook')).status, 409, 'the whole key is refused while a version is in use');
    const pruned = await spout.api('DELETE', '/v1/components/orders-hook?unused_only=true');
    assert.equal(pruned.status, 200, JSON.stringify(pruned.json));
    assert.equal(pruned.json.data.deleted.length, 2);
    assert.deepEqual(
      (await saved()).filter((c) => c.key === 'orders-hook').map((c) => c.id),
      [inUse],
    );
  });

  it('names the MCP tool an action is, which does not hold a delete back (the tool follows the newest version)', async () => {
    const action = (await spout.api('POST', '/v1/components', { component_code: ACTION })).json.data as { id: string };
    const listed = (await saved()).find((c) => c.id === action.id)!;
    assert.deepEqual(listed.used_by, [{ kind: 'mcp_tool', id: 'tidy-action', name: 'Tidy action' }]);
    const pruned = await spout.api('DELETE', '/v1/components/tidy-action?unused_only=true');
    assert.deepEqual(pruned.json.data.deleted, [], 'the tool is a use: not among the unused');
    assert.equal((await spout.api('DELETE', `/v1/components/${action.id}`)).status, 204);
  });
});
