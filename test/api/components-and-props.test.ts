// Saved components, module forms, secret props and app props with connected accounts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';

/** Every file under `dir`, as text. */
function readTree(dir: string): string {
  let out = '';
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    out += entry.isDirectory() ? readTree(full) : fs.readFileSync(full, 'utf8');
  }
  return out;
}

const SECRET = 'sk-live-4f8a2e91c0';
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const CREDENTIAL = 'acme-key-77b3d1e5';

describe('components and props', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  it('saves a component, reads it by id and key, and deploys it by either', async () => {
    const code = `export default { key: "acme-new-order", name: "New order", version: "1.0.0", description: "d",
      props: { http: "$.interface.http", shop: { type: "string", label: "Shop" } }, async run() {} };`;
    const saved = await spout.api('POST', '/v1/components', { component_code: code });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    assert.match(saved.json.data.id, /^sc_/);
    assert.deepEqual(
      saved.json.data.configurable_props.map((p: { name: string }) => p.name),
      ['http', 'shop'],
    );
    assert.equal((await spout.api('GET', `/v1/components/${saved.json.data.id}`)).json.data.key, 'acme-new-order');
    assert.equal((await spout.api('GET', '/v1/components/acme-new-order')).json.data.id, saved.json.data.id);
    const again = await spout.api('POST', '/v1/components', { component_code: code });
    assert.equal(again.json.data.id, saved.json.data.id, 'the same code is one component');

    const byId = await spout.api('POST', '/v1/sources', { component_id: saved.json.data.id, configured_props: { shop: 'a' } });
    assert.equal(byId.status, 200, JSON.stringify(byId.json));
    assert.equal(byId.json.data.component_id, saved.json.data.id);
    const byKey = await spout.api('POST', '/v1/sources', { component_key: 'acme-new-order', configured_props: { shop: 'b' } });
    assert.equal(byKey.json.data.name_slug, 'new-order-1', 'slugs are unique per account');
    assert.equal((await spout.api('POST', '/v1/sources', { component_key: 'nope' })).status, 404);
    assert.equal((await spout.api('POST', '/v1/sources', { component_id: saved.json.data.id, component_code: code })).status, 400);
  });

  it('loads CommonJS and TypeScript modules', async () => {
    const cjs = `module.exports = { name: "CJS", version: "0.1.0", props: { http: "$.interface.http" },
      async run(e) { this.$emit({ form: "cjs" }); } };`;
    const ts = `interface Order { id: number }
      const first = (o: Order[]): number => o[0]?.id ?? -1;
      export default { name: "TS", version: "0.1.0", props: { http: { type: "$.interface.http" } },
        async run(event: { body: Order[] }) { this.$emit({ first: first(event.body) }); } };`;
    for (const [code, filename, expected] of [
      [cjs, 'source.js', { form: 'cjs' }],
      [ts, 'source.ts', { first: 7 }],
    ] as const) {
      const res = await spout.api('POST', '/v1/sources', { component_code: code, component_filename: filename });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      await fetch(res.json.data.configured_props.http.endpoint_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[{"id":7}]' });
      const events = await spout.api('GET', `/v1/sources/${res.json.data.id}/event_summaries`);
      assert.deepEqual(events.json.data[0].event, expected);
    }
  });

  it('runs TypeScript components written with @pipedream/types and @pipedream/platform, offline', async () => {
    const api = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ items: [{ id: 1 }, { id: 2 }], auth: req.headers.authorization ?? null }));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const code = `import { defineSource } from "@pipedream/types";
        import { axios, ConfigurationError, DEFAULT_POLLING_SOURCE_TIMER_INTERVAL } from "@pipedream/platform";
        export default defineSource({
          name: "Items", version: "0.1.0", dedupe: "unique",
          props: { http: "$.interface.http", baseUrl: { type: "string" } },
          methods: { async list(): Promise<{ items: { id: number }[] }> { return axios(this, { url: this.baseUrl + "/items", headers: { authorization: "Bearer t" } }); } },
          async run() {
            if (!this.baseUrl) throw new ConfigurationError("baseUrl is required");
            const { items } = await this.list();
            for (const item of items) this.$emit(item, { id: item.id, summary: "item " + item.id });
            this.$emit({ interval: DEFAULT_POLLING_SOURCE_TIMER_INTERVAL }, { id: "interval" });
          },
        });`;
      const port = (api.address() as AddressInfo).port;
      const res = await spout.api('POST', '/v1/sources', { component_code: code, component_filename: 'items.ts', configured_props: { baseUrl: `http://127.0.0.1:${port}` } });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      await fetch(res.json.data.configured_props.http.endpoint_url, { method: 'POST' });
      const events = await spout.api('GET', `/v1/sources/${res.json.data.id}/event_summaries`);
      assert.deepEqual(events.json.data.map((e: { event: unknown }) => e.event).reverse(), [{ id: 1 }, { id: 2 }, { interval: 900 }]);
    } finally {
      api.close();
    }
  });

  it('keeps secret props sealed at rest, masked in responses and clear only inside the run', async () => {
    // The run shows it sees the secret by its hash: the secret itself must not be in the code either.
    const code = `import { createHash } from "node:crypto";
      export default { name: "Secretive", version: "0.1.0",
      props: { http: "$.interface.http", token: { type: "string", secret: true }, region: { type: "string" } },
      async run() { this.$emit({ ok: createHash("sha256").update(this.token).digest("hex") === ${JSON.stringify(sha256(SECRET))}, region: this.region }); } };`;
    const res = await spout.api('POST', '/v1/sources', { component_code: code, configured_props: { token: SECRET, region: 'eu' } });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.json.data.configured_props.token, '********');
    assert.equal(res.json.data.configured_props.region, 'eu');
    const id = res.json.data.id;
    // Sending the mask back keeps the stored secret.
    const updated = await spout.api('PUT', `/v1/sources/${id}`, { configured_props: { token: '********', region: 'us' } });
    assert.equal(updated.status, 200, JSON.stringify(updated.json));
    await fetch(res.json.data.configured_props.http.endpoint_url, { method: 'POST' });
    const events = await spout.api('GET', `/v1/sources/${id}/event_summaries`);
    assert.deepEqual(events.json.data[0].event, { ok: true, region: 'us' });
    assert.ok(!readTree(spout.dataDir).includes(SECRET), 'the secret is nowhere in the data dir');
  });

  it("gives app props their account's credentials as $auth, inside app methods too", async () => {
    const account = await spout.api('POST', '/v1/accounts', { app: 'acme', name: 'Acme (test)', credentials: { api_key: CREDENTIAL } });
    assert.equal(account.status, 200, JSON.stringify(account.json));
    assert.match(account.json.data.id, /^apn_/);
    assert.deepEqual(account.json.data.credentials, { api_key: '********' });
    const code = `import { createHash } from "node:crypto";
      const hash = (v) => createHash("sha256").update(v).digest("hex");
      const acme = { type: "app", app: "acme",
        propDefinitions: { shop: { type: "string", label: "Shop", description: "Which shop" } },
        methods: { authHeader() { return "Bearer " + this.$auth.api_key; }, check() { return hash(this.authHeader()); } } };
      export default { name: "Uses Acme", version: "0.1.0",
        props: { acme, http: "$.interface.http", shop: { propDefinition: [acme, "shop"], optional: true } },
        async run() { this.$emit({ direct: hash(this.acme.$auth.api_key) === ${JSON.stringify(sha256(CREDENTIAL))}, viaMethod: this.acme.check() === ${JSON.stringify(sha256(`Bearer ${CREDENTIAL}`))} }); } };`;
    const src = await spout.api('POST', '/v1/sources', { component_code: code, configured_props: { acme: { authProvisionId: account.json.data.id } } });
    assert.equal(src.status, 200, JSON.stringify(src.json));
    const shop = (await spout.api('GET', `/v1/components/${src.json.data.component_id}`)).json.data.configurable_props.find((p: { name: string }) => p.name === 'shop');
    assert.equal(shop.label, 'Shop', 'a propDefinition is merged into the prop');
    await fetch(src.json.data.configured_props.http.endpoint_url, { method: 'POST' });
    const events = await spout.api('GET', `/v1/sources/${src.json.data.id}/event_summaries`);
    assert.deepEqual(events.json.data[0].event, { direct: true, viaMethod: true });

    const other = await spout.api('POST', '/v1/accounts', { app: 'other', credentials: { k: 'v' } });
    const wrong = await spout.api('POST', '/v1/sources', { component_code: code, configured_props: { acme: { authProvisionId: other.json.data.id } } });
    assert.equal(wrong.status, 400);
    assert.match(wrong.json.detail, /is for app "other", not "acme"/);
    // Without an account it deploys (offline, before connecting anything), with a warning saying what is missing.
    const unconnected = await spout.api('POST', '/v1/sources', { component_code: code, configured_props: {} });
    assert.equal(unconnected.status, 200, JSON.stringify(unconnected.json));
    assert.deepEqual(
      unconnected.json.warnings.map((w: { path: string }) => w.path),
      ['configured_props.acme'],
    );
    assert.match(unconnected.json.warnings[0].message, /prop `acme` has no connected account, so this\.acme\.\$auth is empty/);
    assert.equal((await spout.api('DELETE', `/v1/accounts/${account.json.data.id}`)).status, 409);
    assert.ok(!readTree(spout.dataDir).includes(CREDENTIAL), 'credentials are nowhere in the data dir');
  });
});
