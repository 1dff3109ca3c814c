// A local stand-in for Pipedream's REST API (https://api.pipedream.com/v1), written from its public
// docs: the requests sync makes and the answers the docs show. Tests cannot reach Pipedream; this
// checks that sync speaks the documented shapes (parameters in the query string or a JSON body,
// `org_id` for a workspace, `{"error": …}` answers) and records every request for assertions.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface PdSource {
  id: string;
  user_id: string;
  component_id: string;
  configured_props: Record<string, unknown>;
  active: boolean;
  created_at: number;
  updated_at: number;
  name: string;
  name_slug: string;
}

interface PdComponent {
  id: string;
  code: string;
  code_hash: string;
  name: string;
  version: string;
  configurable_props: Array<{ name: string; type: string; secret?: boolean }>;
  created_at: number;
  updated_at: number;
}

/** A request the stand-in received. */
export interface PdRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
}

export interface FakePipedream {
  /** `http://127.0.0.1:PORT` (the API's base, without /v1). */
  url: string;
  apiKey: string;
  requests: PdRequest[];
  sources: Map<string, PdSource>;
  components: Map<string, PdComponent>;
  webhooks: Map<string, { id: string; user_id: string; name: string; description: string; url: string; active: boolean; created_at: number; updated_at: number }>;
  subscriptions: Array<{ id: string; emitter_id: string; listener_id: string; event_name: string }>;
  autoSubscriptions: Array<{ event_name: string; listener_id: string }>;
  close(): Promise<void>;
}

let seq = 0;
const id = (prefix: string) => `${prefix}_${(++seq).toString(36).padStart(6, '0')}x`;
const now = () => Math.floor(Date.now() / 1000);

/** A user with one workspace; `requireOrg` makes every call need `org_id` (a workspace's user key). */
export async function startFakePipedream(options: { apiKey?: string; orgId?: string; requireOrg?: boolean } = {}): Promise<FakePipedream> {
  const apiKey = options.apiKey ?? 'pd_test_key';
  const orgId = options.orgId ?? 'o_team1';
  const fake: FakePipedream = { url: '', apiKey, requests: [], sources: new Map(), components: new Map(), webhooks: new Map(), subscriptions: [], autoSubscriptions: [], close: async () => undefined };

  const saveComponent = (code: string): PdComponent => {
    const meta = (field: string) => new RegExp(`${field}:\\s*["']([^"']+)["']`).exec(code)?.[1];
    const props = [...code.matchAll(/(\w+):\s*\{\s*type:\s*"([^"]+)"([^}]*)\}/g)].map((m) => ({ name: m[1] as string, type: m[2] as string, ...(/secret:\s*true/.test(m[3] as string) ? { secret: true } : {}) }));
    const c: PdComponent = { id: id('sc'), code, code_hash: String(code.length), name: meta('name') ?? 'component', version: meta('version') ?? '0.0.1', configurable_props: props, created_at: now(), updated_at: now() };
    fake.components.set(c.id, c);
    return c;
  };
  /** A source's props as Pipedream shows them: endpoint URLs for HTTP interfaces, timers as {cron, interval_seconds}. */
  const shown = (s: PdSource) => {
    const component = fake.components.get(s.component_id);
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(s.configured_props)) {
      const timer = value as { intervalSeconds?: number; cron?: string } | null;
      out[name] = timer && typeof timer === 'object' && ('intervalSeconds' in timer || 'cron' in timer) ? { cron: timer.cron ?? null, interval_seconds: timer.intervalSeconds ?? null } : value;
    }
    for (const p of component?.configurable_props ?? []) if (p.type === '$.interface.http') out[p.name] = { endpoint_url: `https://${s.id.slice(3)}.m.pipedream.net` };
    return { ...s, configured_props: out };
  };
  const page = <T>(items: T[], params: Record<string, unknown>) => {
    const limit = Math.min(Number(params.limit ?? 10), 100);
    const start = params.after ? items.findIndex((i) => (i as { id: string }).id === params.after) + 1 : 0;
    const data = items.slice(start, start + limit);
    return { page_info: { total_count: items.length, count: data.length, start_cursor: (data[0] as { id?: string } | undefined)?.id ?? null, end_cursor: (data[data.length - 1] as { id?: string } | undefined)?.id ?? null }, data };
  };

  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      let body: Record<string, unknown> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        return send(400, { error: 'invalid JSON body' });
      }
      // Parameters come in the query string or the JSON body (the docs show both).
      const params: Record<string, unknown> = { ...Object.fromEntries(url.searchParams), ...body };
      const method = req.method ?? 'GET';
      fake.requests.push({ method, path: url.pathname, params });
      function send(status: number, json?: unknown) {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(json === undefined ? '' : JSON.stringify(json));
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { error: 'unauthorized' });
      if ((method === 'POST' || method === 'PUT') && text && !/^application\/json/.test(req.headers['content-type'] ?? '')) return send(400, { error: 'Content-Type must be application/json' });
      const path = url.pathname;
      if (path === '/v1/users/me' && method === 'GET') {
        return send(200, {
          data: {
            id: 'u_tester',
            username: 'tester',
            email: 'tester@example.com',
            daily_compute_time_quota: 95400000,
            daily_compute_time_used: 0,
            daily_invocations_quota: 27344,
            daily_invocations_used: 0,
            orgs: [{ name: 'Team', id: orgId, orgname: 'team', email: 'team@example.com', daily_credits_quota: 100, daily_credits_used: 0 }],
          },
        });
      }
      if (options.requireOrg && params.org_id !== orgId) return send(400, { error: 'please specify a valid workspace' });
      let m: RegExpExecArray | null;

      if (path === '/v1/components' && method === 'POST') {
        if (typeof params.component_code !== 'string' && typeof params.component_url !== 'string') return send(400, { error: 'component_code or component_url is required' });
        return send(200, { data: saveComponent(String(params.component_code ?? `// fetched from ${String(params.component_url)}`)) });
      }
      if ((m = /^\/v1\/components\/([^/]+)$/.exec(path)) && method === 'GET') {
        const c = fake.components.get(m[1] as string) ?? [...fake.components.values()].find((x) => x.name === m?.[1]);
        return c ? send(200, { data: c }) : send(404, { error: 'record not found' });
      }
      if ((path === '/v1/users/me/sources' || path === `/v1/orgs/${orgId}/sources`) && method === 'GET') return send(200, page([...fake.sources.values()].map(shown), params));
      if (path === '/v1/sources' && method === 'POST') {
        const componentId = typeof params.component_id === 'string' ? params.component_id : typeof params.component_code === 'string' ? saveComponent(params.component_code).id : null;
        if (!componentId || !fake.components.has(componentId)) return send(400, { error: 'one of component_id, component_code or component_url is required' });
        if (params.configured_props !== undefined && (typeof params.configured_props !== 'object' || params.configured_props === null)) return send(400, { error: 'configured_props must be an object' });
        const name = String(params.name ?? fake.components.get(componentId)?.name);
        const s: PdSource = { id: id('dc'), user_id: 'u_tester', component_id: componentId, configured_props: (params.configured_props as Record<string, unknown>) ?? {}, active: true, created_at: now(), updated_at: now(), name, name_slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') };
        fake.sources.set(s.id, s);
        return send(200, { data: shown(s) });
      }
      if ((m = /^\/v1\/sources\/([^/]+)$/.exec(path))) {
        const s = fake.sources.get(m[1] as string);
        if (!s) return send(404, { error: 'record not found' });
        if (method === 'DELETE') {
          fake.sources.delete(s.id);
          fake.subscriptions = fake.subscriptions.filter((x) => x.emitter_id !== s.id && x.listener_id !== s.id);
          return send(200);
        }
        if (method === 'PUT') {
          // The documented parameters: component_id/_code/_url (one required), name, active. Props are not among them.
          if (params.configured_props !== undefined) return send(400, { error: 'unknown parameter configured_props' });
          const componentId = typeof params.component_id === 'string' ? params.component_id : typeof params.component_code === 'string' ? saveComponent(params.component_code).id : null;
          if (!componentId || !fake.components.has(componentId)) return send(400, { error: 'one of component_id, component_code or component_url is required' });
          Object.assign(s, { component_id: componentId, ...(typeof params.name === 'string' ? { name: params.name } : {}), ...(typeof params.active === 'boolean' ? { active: params.active } : {}), updated_at: now() });
          return send(200, { data: shown(s) });
        }
      }
      if (path === '/v1/users/me/webhooks' && method === 'GET') return send(200, page([...fake.webhooks.values()], params));
      if (path === '/v1/webhooks' && method === 'POST') {
        for (const p of ['url', 'name', 'description']) if (typeof params[p] !== 'string') return send(400, { error: `${p} is required` });
        if (!/^https?:\/\/[^/]+/.test(String(params.url))) return send(400, { error: 'url must have a protocol (http or https) and a host' });
        const w = { id: id('wh'), user_id: 'u_tester', name: String(params.name), description: String(params.description), url: String(params.url), active: true, created_at: now(), updated_at: now() };
        fake.webhooks.set(w.id, w);
        return send(200, { data: w });
      }
      if ((m = /^\/v1\/webhooks\/([^/]+)$/.exec(path)) && method === 'DELETE') {
        if (!fake.webhooks.delete(m[1] as string)) return send(404, { error: 'record not found' });
        fake.subscriptions = fake.subscriptions.filter((x) => x.listener_id !== m?.[1]);
        return send(200);
      }
      if ((path === '/v1/users/me/subscriptions' || path === `/v1/workspaces/${orgId}/subscriptions`) && method === 'GET') return send(200, { data: fake.subscriptions });
      if (path === '/v1/subscriptions' && (method === 'POST' || method === 'DELETE')) {
        const emitter = String(params.emitter_id ?? '');
        const listener = String(params.listener_id ?? '');
        const event = String(params.event_name ?? '');
        const exists = (x: string) => x === 'dc_*' || x === 'p_*' || fake.sources.has(x) || fake.webhooks.has(x) || x.startsWith('p_');
        if (!exists(emitter) || !exists(listener)) return send(404, { error: 'record not found' });
        const same = (x: { emitter_id: string; listener_id: string; event_name: string }) => x.emitter_id === emitter && x.listener_id === listener && x.event_name === event;
        if (method === 'DELETE') {
          if (!fake.subscriptions.some(same)) return send(404, { error: 'record not found' });
          fake.subscriptions = fake.subscriptions.filter((x) => !same(x));
          return send(200);
        }
        if (!fake.subscriptions.some(same)) fake.subscriptions.push({ id: id('sub'), emitter_id: emitter, listener_id: listener, event_name: event });
        return send(200);
      }
      if (path === '/v1/auto_subscriptions' && method === 'POST') {
        if (params.event_name !== '$errors' && params.event_name !== '$logs') return send(400, { error: 'event_name must be $errors or $logs' });
        fake.autoSubscriptions.push({ event_name: String(params.event_name), listener_id: String(params.listener_id) });
        return send(200);
      }
      send(404, { error: `no route ${method} ${path}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
