// Pipedream as the receiving side of a push, through its public REST API
// (https://pipedream.com/docs/rest-api) in the request and answer shapes its docs give. What the
// API cannot do is said per resource in the plan (refuses, drops, changeMode), never dropped
// silently. docs/sync.md lists the mapping.

import type { Kind } from '../contract/sync-api';
import type { ApiClient } from '../remote/api-client';
import { ApiError } from '../remote/api-client';
import { type Resource, stableJson } from './portable';
import type { ChangeMode, Side, WriteInput } from './side';

const MASK = '********';

/** Pipedream's source object (GET /users/me/sources, POST /sources). */
interface PdSource {
  id: string;
  component_id: string;
  name: string;
  configured_props: Record<string, unknown>;
  active: boolean;
}

interface PdWebhook {
  id: string;
  name: string;
  description: string;
  url: string;
}

interface PdSubscription {
  id: string;
  emitter_id: string;
  listener_id: string;
  /** "" for the default channel. */
  event_name: string | null;
}

interface PdComponent {
  id: string;
  code: string;
  name: string;
  version: string;
  configurable_props?: Array<{ name: string; type: string; secret?: boolean }>;
}

interface PdPage<T> {
  page_info?: { end_cursor?: string | null; count?: number };
  data: T[];
}

/** Why Pipedream's REST API cannot hold each kind it refuses. */
const REFUSED: Partial<Record<Kind, string>> = {
  data_store: "Pipedream's REST API has no data store calls; create the store in Pipedream and give its id to the sources that use it",
  account: "Pipedream's REST API cannot connect an account with credentials; connect the app in Pipedream (the sources that use it wait for one)",
  workflow: "Pipedream's REST API makes workflows only from templates; build it in Pipedream (spout workflows export gives its definition)",
};

/** A timer value as Pipedream shows it (`{cron, interval_seconds}`) in the shape components configure. */
function timerValue(value: unknown): unknown {
  const v = value as { cron?: unknown; interval_seconds?: unknown } | null;
  if (v && typeof v === 'object' && 'interval_seconds' in v && 'cron' in v) return v.cron ? { cron: v.cron } : { intervalSeconds: v.interval_seconds };
  return value;
}

/** Pipedream through its REST API with a user API key, in a workspace (`org_id`) when one is given. */
export class PipedreamSide implements Side {
  constructor(
    private readonly client: ApiClient,
    private readonly orgId: string | null,
    readonly label: string,
  ) {}

  /** A request with the workspace parameter Pipedream's user keys need (query for GET/DELETE, body otherwise). */
  private call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, params: Record<string, unknown> = {}): Promise<T> {
    const withOrg = this.orgId ? { ...params, org_id: this.orgId } : params;
    if (method === 'GET' || method === 'DELETE') return this.client.request<T>(method, route, { query: withOrg as Record<string, string> });
    return this.client.request<T>(method, route, { body: withOrg });
  }

  /** Every item of a Pipedream list, following `after` cursors. */
  private async list<T>(route: string): Promise<T[]> {
    const items: T[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 1000; pages++) {
      const page = await this.call<PdPage<T>>('GET', route, { limit: 100, ...(after ? { after } : {}) });
      items.push(...page.data);
      const next = page.page_info?.end_cursor;
      if (!next || page.data.length < 100 || next === after) break;
      after = next;
    }
    return items;
  }

  async snapshot(_options: unknown, known: Map<Kind, string[]>): Promise<Resource[]> {
    const [sources, webhooks, subscriptions] = await Promise.all([
      this.list<PdSource>(this.orgId ? `/v1/orgs/${this.orgId}/sources` : '/v1/users/me/sources'),
      this.list<PdWebhook>('/v1/users/me/webhooks'),
      this.list<PdSubscription>(this.orgId ? `/v1/workspaces/${this.orgId}/subscriptions` : '/v1/users/me/subscriptions'),
    ]);
    const out: Resource[] = [];
    // Components cannot be listed: the ones sync saved are read by id.
    for (const id of known.get('component') ?? []) {
      const r = await this.read('component', id);
      if (r) out.push(r);
    }
    for (const s of sources) out.push(await this.source(s));
    for (const w of webhooks) out.push(webhook(w));
    for (const s of subscriptions) out.push(subscription(s));
    // Nor can auto-subscriptions: the ones sync made are taken to be there.
    for (const id of known.get('auto_subscription') ?? []) out.push({ kind: 'auto_subscription', id, name: id, content: {}, secrets: [], notes: [] });
    return out;
  }

  refuses(kind: Kind): string | null {
    return REFUSED[kind] ?? null;
  }

  drops(resource: Resource): string[] {
    const k = resource.content;
    const notes: string[] = [];
    if (resource.kind === 'source' && k.timeout_seconds) notes.push(`Pipedream has no per-source timeout through its API: timeout_seconds ${String(k.timeout_seconds)} is not sent`);
    if (resource.kind === 'source' && k.network_mode && k.network_mode !== 'live') notes.push(`Pipedream has no recorded-call modes: network_mode "${String(k.network_mode)}" is not sent (it calls out live)`);
    if (resource.kind === 'source' && resource.secrets.length) notes.push('Pipedream refuses a source whose required props are missing: give --with-secrets if these are required');
    if (resource.kind === 'webhook' && k.active === false) notes.push("Pipedream's webhooks cannot be paused through its API: it delivers to this one");
    if (resource.kind === 'webhook' && k.retry_schedule) notes.push('Pipedream keeps its own retry schedule: retry_schedule is not sent');
    return notes;
  }

  shape(kind: Kind, content: Record<string, unknown>): Record<string, unknown> {
    if (kind === 'source') return { name: content.name, code: content.code, configured_props: content.configured_props, active: content.active };
    if (kind === 'webhook') return { name: content.name, description: content.description, url: content.url };
    if (kind === 'component') return { name: content.name, version: content.version, code: content.code };
    if (kind === 'auto_subscription') return {};
    return content;
  }

  changeMode(kind: Kind, before: Resource, after: Record<string, unknown>, secretsChanged: boolean): ChangeMode {
    if (kind === 'source' && (secretsChanged || stableJson(before.content.configured_props) !== stableJson(after.configured_props))) {
      return { mode: 'replace', why: "Pipedream's update call takes no props: the source is deleted and deployed again (a new id and endpoint URL)" };
    }
    if (kind === 'webhook') return { mode: 'replace', why: 'Pipedream has no call to update a webhook: it is deleted and made again (a new id)' };
    if (kind === 'subscription') return { mode: 'replace', why: 'a subscription is deleted and made again' };
    if (kind === 'auto_subscription') return { mode: 'unsupported', why: "Pipedream's API has no call to change or delete an auto-subscription" };
    return { mode: 'update' };
  }

  cannotDelete(kind: Kind): string | null {
    if (kind === 'component') return "Pipedream's API has no call to delete a saved component; it stays";
    if (kind === 'auto_subscription') return "Pipedream's API has no call to delete an auto-subscription; remove it in Pipedream";
    return null;
  }

  async secrets(): Promise<Record<string, unknown>> {
    throw new Error('pulling from Pipedream is not supported');
  }

  async create(input: WriteInput): Promise<string> {
    const k = input.content;
    switch (input.kind) {
      case 'component':
        return (await this.call<{ data: PdComponent }>('POST', '/v1/components', { component_code: k.code })).data.id;
      case 'source': {
        const created = (await this.call<{ data: PdSource }>('POST', '/v1/sources', { component_code: k.code, name: k.name, configured_props: { ...(k.configured_props as object), ...input.secrets } })).data;
        // Sources are created active; one that waits for secrets (or was inactive here) is switched off.
        if (k.active === false) await this.call('PUT', `/v1/sources/${created.id}`, { component_id: created.component_id, active: false });
        return created.id;
      }
      case 'webhook':
        return (await this.call<{ data: PdWebhook }>('POST', '/v1/webhooks', { url: k.url, name: k.name || k.url, description: k.description ?? '' })).data.id;
      case 'subscription':
        await this.call('POST', '/v1/subscriptions', { emitter_id: k.emitter_id, listener_id: k.listener_id, ...(k.event_name ? { event_name: k.event_name } : {}) });
        return (await this.findSubscription(k)).id;
      case 'auto_subscription': {
        const answer = await this.call<{ data?: { id?: string } } | undefined>('POST', '/v1/auto_subscriptions', { event_name: k.event_name, listener_id: k.listener_id });
        return answer?.data?.id ?? `asub:${String(k.event_name)}:${String(k.listener_id)}`;
      }
      default:
        throw new Error(REFUSED[input.kind] ?? `${input.kind} cannot be pushed to Pipedream`);
    }
  }

  async update(current: Resource, input: WriteInput): Promise<void> {
    const k = input.content;
    if (input.kind === 'component') {
      await this.create(input);
      return;
    }
    if (input.kind !== 'source') throw new Error(`${input.kind} cannot be updated on Pipedream`);
    const codeChanged = current.content.code !== k.code;
    const componentId = (current as Resource & { componentId?: string }).componentId;
    // The docs ask for one of component_id/_code/_url on every update: the current component when the code is the same.
    await this.call('PUT', `/v1/sources/${current.id}`, { ...(codeChanged || !componentId ? { component_code: k.code } : { component_id: componentId }), name: k.name, active: k.active });
  }

  async remove(resource: Resource): Promise<void> {
    const k = resource.content;
    try {
      if (resource.kind === 'source') await this.call('DELETE', `/v1/sources/${resource.id}`);
      else if (resource.kind === 'webhook') await this.call('DELETE', `/v1/webhooks/${resource.id}`);
      else if (resource.kind === 'subscription') await this.call('DELETE', '/v1/subscriptions', { emitter_id: k.emitter_id, listener_id: k.listener_id, ...(k.event_name ? { event_name: k.event_name } : {}) });
      else throw new Error(this.cannotDelete(resource.kind) ?? `${resource.kind} cannot be deleted on Pipedream`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }

  async read(kind: Kind, id: string): Promise<Resource | null> {
    try {
      if (kind === 'component') {
        const c = (await this.call<{ data: PdComponent }>('GET', `/v1/components/${id}`)).data;
        return { kind, id: c.id, name: `${c.name}@${c.version}`, content: { name: c.name, version: c.version, code: c.code }, secrets: [], notes: [] };
      }
      if (kind === 'auto_subscription') return { kind, id, name: id, content: {}, secrets: [], notes: [] };
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
    const all = await this.snapshot(null, new Map());
    return all.find((r) => r.kind === kind && r.id === id) ?? null;
  }

  private async source(s: PdSource): Promise<Resource & { componentId: string }> {
    const component = (await this.call<{ data: PdComponent }>('GET', `/v1/components/${s.component_id}`)).data;
    const code = component.code;
    // Secret props are known from the component's prop definitions, whether Pipedream masks their values or not.
    const secret = new Set((component.configurable_props ?? []).filter((p) => p.secret).map((p) => p.name));
    const props: Record<string, unknown> = {};
    const secrets: string[] = [];
    for (const [name, value] of Object.entries(s.configured_props ?? {})) {
      if (value === MASK || secret.has(name)) secrets.push(name);
      else if (!(value && typeof value === 'object' && 'endpoint_url' in value)) props[name] = timerValue(value);
    }
    return { kind: 'source', id: s.id, name: s.name, content: { name: s.name, code, configured_props: props, active: s.active }, secrets, notes: [], componentId: s.component_id };
  }

  private async findSubscription(k: Record<string, unknown>): Promise<PdSubscription> {
    const subs = await this.list<PdSubscription>(this.orgId ? `/v1/workspaces/${this.orgId}/subscriptions` : '/v1/users/me/subscriptions');
    const found = subs.find((s) => s.emitter_id === k.emitter_id && s.listener_id === k.listener_id && (s.event_name || null) === (k.event_name || null));
    if (!found) throw new Error(`Pipedream accepted the subscription of ${String(k.listener_id)} to ${String(k.emitter_id)} but does not list it`);
    return found;
  }
}

function webhook(w: PdWebhook): Resource {
  return { kind: 'webhook', id: w.id, name: w.name, content: { name: w.name, description: w.description, url: w.url }, secrets: [], notes: [] };
}

function subscription(s: PdSubscription): Resource {
  const eventName = s.event_name || null;
  return { kind: 'subscription', id: s.id, name: `${s.emitter_id} → ${s.listener_id}${eventName ? ` [${eventName}]` : ''}`, content: { emitter_id: s.emitter_id, listener_id: s.listener_id, event_name: eventName }, secrets: [], notes: [] };
}

/** Checks a Pipedream key (and workspace): `GET /v1/users/me`. Resolves the user's name. */
export async function checkPipedream(client: ApiClient, orgId: string | null): Promise<string> {
  const me = (await client.get<{ data: { id: string; username?: string; email?: string; orgs?: Array<{ id: string; orgname?: string; name?: string }> } }>('/v1/users/me')).data;
  if (orgId && !(me.orgs ?? []).some((o) => o.id === orgId)) {
    const orgs = (me.orgs ?? []).map((o) => `${o.id} (${o.orgname ?? o.name ?? ''})`).join(', ');
    throw new Error(`workspace ${orgId} is not one of ${me.username ?? me.id}'s${orgs ? `: ${orgs}` : ' (none)'}; give --org-id with one of them`);
  }
  return me.username ?? me.email ?? me.id;
}
