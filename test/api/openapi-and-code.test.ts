// The API describes itself (GET /v1/openapi.json, OpenAPI 3.1, exactly the routes the server
// registers), returns the code a component or source runs, and checks a form's prop values with the
// rules a deploy applies, phrased for the form.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Router } from 'express';
import type { ApiContext } from '../../runtime/http/api/api-context';
import { openApiPath } from '../../runtime/http/api/openapi';
import { sseRoutes } from '../../runtime/http/api/sse-routes';
import { v1Routes } from '../../runtime/http/app';
import { type SpoutProcess, startSpout } from '../helpers/service';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** `METHOD /path` of every route registered on a router (nested routers included). */
function registered(router: Router, prefix: string): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const p of [layer.route.path].flat()) for (const m of Object.keys(layer.route.methods)) out.push(`${m.toUpperCase()} ${openApiPath(prefix + p)}`);
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((router as unknown as { stack: Layer[] }).stack);
  return out;
}

describe('the API describes itself and returns code', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  it('serves an OpenAPI 3.1 document listing exactly the routes the server registers, with parameters from their schemas', async () => {
    const res = await spout.api('GET', '/v1/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.json;
    assert.equal(doc.openapi, '3.1.0');
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    // Route handlers only read the context when called: building the routers needs none.
    const ctx = {} as ApiContext;
    const routes = [...registered(v1Routes(ctx), '/v1'), ...registered(sseRoutes(ctx), '/sse')];
    assert.deepEqual([...new Set(routes)].sort(), [...documented].sort());

    // Parameters come from the zod schemas: POST /v1/webhooks needs url; GET messages filters by status.
    const create = doc.paths['/v1/webhooks'].post.requestBody.content['application/json'].schema;
    assert.ok(create.required.includes('url'));
    const messages = doc.paths['/v1/webhooks/{id}/messages'].get.parameters.map((p: { name: string }) => p.name);
    assert.deepEqual(messages.sort(), ['after', 'before', 'event_id', 'event_name', 'id', 'limit', 'since', 'source', 'status', 'until']);
    const status = doc.paths['/v1/webhooks/{id}/messages'].get.parameters.find((p: { name: string }) => p.name === 'status');
    // One status or several (comma-separated in a query string).
    assert.deepEqual(status.schema.items.enum, ['pending', 'delivered', 'failing', 'failed', 'paused']);
    // Without the key, nothing (the document is part of /v1).
    assert.equal((await fetch(`${spout.url}/v1/openapi.json`)).status, 401);
  });

  it('returns the code and file name a component and a source run', async () => {
    const code = 'export default { name: "Coded", version: "0.1.0", props: { http: "$.interface.http" }, async run(e) { this.$emit(e.body); } };\n';
    const deployed = await spout.api('POST', '/v1/sources', { component_code: code, component_filename: 'coded.mjs' });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
    const source = (await spout.api('GET', `/v1/sources/${deployed.json.data.id}`)).json.data;
    assert.equal(source.code, code);
    assert.equal(source.filename, 'coded.mjs');
    const component = (await spout.api('GET', `/v1/components/${source.component_id}`)).json.data;
    assert.equal(component.code, code);
    assert.equal(component.filename, 'coded.mjs');
    // Lists stay light: no code in them.
    const list = (await spout.api('GET', '/v1/users/me/sources')).json.data;
    assert.equal(list.find((s: { id: string }) => s.id === source.id).code, undefined);
  });

  it('checks prop values with the deploy rules and phrases each problem for its field', async () => {
    const props = [
      { name: 'count', type: 'integer', label: 'Batch size', min: 1, max: 50 },
      { name: 'channel', type: 'string', label: 'Channel' },
      { name: 'headers', type: 'object', label: 'Headers', optional: true },
      { name: 'acme', type: 'app', app: 'acme' },
      { name: 'note', type: 'string', optional: true },
    ];
    const res = await spout.api('POST', '/v1/components/props/check', { configurable_props: props, configured_props: { count: 0, headers: [1], acme: { authProvisionId: 'apn_missing' } } });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const byProp = Object.fromEntries(res.json.data.errors.map((e: { prop: string; field_message: string }) => [e.prop, e.field_message]));
    assert.deepEqual(Object.keys(byProp).sort(), ['acme', 'channel', 'count', 'headers']);
    assert.equal(byProp.count, 'Must be at least 1, not 0.');
    assert.equal(byProp.channel, 'Required: enter a value.');
    assert.match(byProp.headers, /^Must be an object/);
    assert.match(byProp.acme, /^No connected account apn_missing; connect one with "Connect an account"/);
    for (const m of Object.values(byProp) as string[]) assert.doesNotMatch(m, /configured_props|POST \/v1|prop `/);
    const ok = await spout.api('POST', '/v1/components/props/check', { configurable_props: props.slice(0, 3), configured_props: { count: 5, channel: 'x' } });
    assert.deepEqual(ok.json.data.errors, []);
    const bad = await spout.api('POST', '/v1/components/props/check', { configurable_props: [{ type: 'string' }] });
    assert.equal(bad.status, 400);
  });
});
