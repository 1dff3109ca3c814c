// A Spout instance as a side of a sync, through its /v1 API only.
import type { AccountView, ComponentView, DataStoreRecordView, DataStoreView } from '../contract/component-api';
import type { SourceView } from '../contract/source-api';
import type { Kind, SyncOptions } from '../contract/sync-api';
import type { SubscriptionView, WebhookView } from '../contract/webhook-api';
import type { WorkflowExport, WorkflowView } from '../contract/workflow-api';
import type { ApiClient } from '../remote/api-client';
import { ApiError } from '../remote/api-client';
import type { RecordValue, Resource } from './portable';
import type { ChangeMode, Side, WriteInput } from './side';

/** What the API shows in place of a secret value. */
const MASK = '********';

type AutoSubscriptionView = { id: string; event_name: string; listener_id: string };

/** Splits configured props into what sync moves and the names of masked secrets; endpoints stay behind. */
function portableProps(configured: Record<string, unknown>): { props: Record<string, unknown>; secrets: string[] } {
  const props: Record<string, unknown> = {};
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(configured)) {
    if (value === MASK) secrets.push(name);
    // An HTTP interface's value is this side's endpoint URL: each side has its own.
    else if (!(value && typeof value === 'object' && 'endpoint_url' in value)) props[name] = value;
  }
  return { props, secrets };
}

/** A Spout service reached with its URL and API key. */
export class SpoutSide implements Side {
  constructor(
    private readonly client: ApiClient,
    readonly label: string,
  ) {}

  async snapshot(options: SyncOptions): Promise<Resource[]> {
    const c = this.client;
    const [stores, accounts, components, sources, webhooks, workflows, subscriptions, autos] = await Promise.all([
      c.all<DataStoreView>('/v1/data_stores'),
      c.all<AccountView>('/v1/accounts'),
      c.all<ComponentView>('/v1/users/me/components'),
      c.all<SourceView>('/v1/users/me/sources'),
      c.all<WebhookView>('/v1/users/me/webhooks'),
      c.all<WorkflowView>('/v1/users/me/workflows'),
      c.all<SubscriptionView>('/v1/users/me/subscriptions'),
      c.all<AutoSubscriptionView>('/v1/users/me/auto_subscriptions'),
    ]);
    // Oldest first (lists come newest first), so the other side makes them in the order they were made here.
    for (const list of [stores, accounts, sources, webhooks, workflows, subscriptions, autos]) list.reverse();
    const out: Resource[] = [];
    for (const s of stores) out.push(await this.dataStore(s, options));
    for (const a of accounts) out.push(this.account(a));
    // Saved components travel by key, newest version only (sources and steps carry their own code).
    const newest = new Map<string, ComponentView>();
    for (const comp of components) if (comp.key && !newest.has(comp.key)) newest.set(comp.key, comp);
    for (const comp of newest.values()) out.push(await this.component(comp.id));
    for (const s of sources) out.push(await this.source(s.id));
    for (const w of webhooks) out.push(this.webhook(w));
    for (const wf of workflows) out.push(await this.workflow(wf));
    // A workflow's source trigger is a subscription the workflow makes itself: it travels with the workflow.
    const implicit = (s: SubscriptionView) => workflows.some((wf) => wf.id === s.listener_id && wf.trigger.type === 'source' && wf.trigger.source_id === s.emitter_id && (wf.trigger.event_name ?? null) === s.event_name);
    for (const s of subscriptions) if (!implicit(s)) out.push(subscription(s));
    for (const a of autos) out.push({ kind: 'auto_subscription', id: a.id, name: `${a.event_name} → ${a.listener_id}`, content: { event_name: a.event_name, listener_id: a.listener_id }, secrets: [], notes: [] });
    return out;
  }

  refuses(): string | null {
    return null;
  }

  drops(): string[] {
    return [];
  }

  shape(_kind: Kind, content: Record<string, unknown>): Record<string, unknown> {
    return content;
  }

  changeMode(kind: Kind): ChangeMode {
    if (kind === 'account') return { mode: 'unsupported', why: 'an account cannot be changed through the API: delete it and connect it again' };
    if (kind === 'subscription' || kind === 'auto_subscription') return { mode: 'replace', why: 'a subscription is deleted and made again' };
    return { mode: 'update' };
  }

  cannotDelete(kind: Kind): string | null {
    return kind === 'component' ? 'saved components cannot be deleted through the API; they stay' : null;
  }

  async secrets(resource: Resource): Promise<Record<string, unknown>> {
    if (resource.secrets.length === 0) return {};
    if (resource.kind === 'source') return (await this.client.get<{ data: { configured_props: Record<string, unknown> } }>(`/v1/sources/${resource.id}/secrets`)).data.configured_props;
    if (resource.kind === 'account') return (await this.client.get<{ data: { credentials: Record<string, unknown> } }>(`/v1/accounts/${resource.id}/credentials`)).data.credentials;
    if (resource.kind === 'workflow') {
      const steps = (await this.client.get<{ data: { steps: Record<string, Record<string, unknown>> } }>(`/v1/workflows/${resource.id}/secrets`)).data.steps;
      return Object.fromEntries(Object.entries(steps).flatMap(([step, values]) => Object.entries(values).map(([prop, v]) => [`${step}.${prop}`, v])));
    }
    return {};
  }

  async create(input: WriteInput): Promise<string> {
    const c = this.client;
    const k = input.content;
    switch (input.kind) {
      case 'data_store': {
        const id = (await c.post<{ data: DataStoreView }>('/v1/data_stores', { name: k.name })).data.id;
        if (input.records) await this.writeRecords(id, input.records);
        return id;
      }
      case 'account':
        return (await c.post<{ data: AccountView }>('/v1/accounts', { app: k.app, name: input.name, credentials: input.secrets })).data.id;
      case 'component':
        return (await c.post<{ data: ComponentView }>('/v1/components', { component_code: k.code, component_filename: k.filename })).data.id;
      case 'source':
        return (
          await c.post<{ data: SourceView }>('/v1/sources', {
            component_code: k.code,
            component_filename: k.filename,
            name: k.name,
            configured_props: sourceProps(input),
            ...(k.timeout_seconds ? { timeout_seconds: k.timeout_seconds } : {}),
            ...(k.network_mode ? { network_mode: k.network_mode } : {}),
            active: k.active,
          })
        ).data.id;
      case 'webhook': {
        const id = (await c.post<{ data: WebhookView }>('/v1/webhooks', { url: k.url, name: k.name, description: k.description, retry_schedule: k.retry_schedule })).data.id;
        if (k.active === false) await c.put(`/v1/webhooks/${id}`, { active: false });
        return id;
      }
      case 'workflow':
        return (await c.post<{ data: WorkflowView }>('/v1/workflows', workflowBody(input))).data.id;
      case 'subscription':
        return (await c.post<{ data: SubscriptionView }>('/v1/subscriptions', { emitter_id: k.emitter_id, listener_id: k.listener_id, ...(k.event_name ? { event_name: k.event_name } : {}) })).data.id;
      case 'auto_subscription':
        return (await c.post<{ data: AutoSubscriptionView }>('/v1/auto_subscriptions', { event_name: k.event_name, listener_id: k.listener_id })).data.id;
    }
  }

  async update(current: Resource, input: WriteInput): Promise<void> {
    const c = this.client;
    const k = input.content;
    switch (input.kind) {
      case 'data_store':
        if (current.content.name !== k.name) await c.put(`/v1/data_stores/${current.id}`, { name: k.name });
        if (input.records) await this.writeRecords(current.id, input.records);
        return;
      case 'component':
        // Saved components are immutable: the new code is saved beside the old (same key).
        await this.create(input);
        return;
      case 'source':
        await c.put(`/v1/sources/${current.id}`, {
          ...(current.content.code !== k.code || current.content.filename !== k.filename ? { component_code: k.code, component_filename: k.filename } : {}),
          name: k.name,
          configured_props: sourceProps(input),
          active: k.active,
          ...(k.timeout_seconds ? { timeout_seconds: k.timeout_seconds } : {}),
          ...(k.network_mode ? { network_mode: k.network_mode } : {}),
        });
        return;
      case 'webhook':
        await c.put(`/v1/webhooks/${current.id}`, { url: k.url, name: k.name, description: k.description, active: k.active, retry_schedule: k.retry_schedule });
        return;
      case 'workflow':
        await c.put(`/v1/workflows/${current.id}`, workflowBody(input));
        return;
      default:
        throw new Error(`${input.kind} cannot be updated in place`);
    }
  }

  async remove(resource: Resource): Promise<void> {
    const c = this.client;
    const k = resource.content;
    const gone = (err: unknown) => {
      // Already gone (a source's delete takes its subscriptions along): what was asked is done.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    };
    const paths: Partial<Record<Kind, string>> = { data_store: 'data_stores', account: 'accounts', source: 'sources', webhook: 'webhooks', workflow: 'workflows' };
    if (resource.kind === 'subscription') await c.delete('/v1/subscriptions', { emitter_id: k.emitter_id as string, listener_id: k.listener_id as string, event_name: (k.event_name as string | null) ?? undefined }).catch(gone);
    else if (resource.kind === 'auto_subscription') await c.delete('/v1/auto_subscriptions', { event_name: k.event_name as string, listener_id: k.listener_id as string }).catch(gone);
    else if (paths[resource.kind]) await c.delete(`/v1/${paths[resource.kind]}/${resource.id}`).catch(gone);
  }

  async read(kind: Kind, id: string, options: SyncOptions): Promise<Resource | null> {
    const c = this.client;
    try {
      switch (kind) {
        case 'data_store':
          return await this.dataStore((await c.get<{ data: DataStoreView }>(`/v1/data_stores/${id}`)).data, options);
        case 'account':
          return this.account((await c.get<{ data: AccountView }>(`/v1/accounts/${id}`)).data);
        case 'component':
          return await this.component(id);
        case 'source':
          return await this.source(id);
        case 'webhook':
          return this.webhook((await c.get<{ data: WebhookView }>(`/v1/webhooks/${id}`)).data);
        case 'workflow':
          return await this.workflow((await c.get<{ data: WorkflowView }>(`/v1/workflows/${id}`)).data);
        case 'subscription': {
          const s = (await c.all<SubscriptionView>('/v1/users/me/subscriptions')).find((x) => x.id === id);
          return s ? subscription(s) : null;
        }
        case 'auto_subscription': {
          const a = (await c.all<AutoSubscriptionView>('/v1/users/me/auto_subscriptions')).find((x) => x.id === id);
          return a ? { kind, id: a.id, name: `${a.event_name} → ${a.listener_id}`, content: { event_name: a.event_name, listener_id: a.listener_id }, secrets: [], notes: [] } : null;
        }
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  }

  private async dataStore(s: DataStoreView, options: SyncOptions): Promise<Resource> {
    const resource: Resource = { kind: 'data_store', id: s.id, name: s.name, content: { name: s.name }, secrets: [], notes: [] };
    if (options.with_data) {
      const records = await this.client.all<DataStoreRecordView>(`/v1/data_stores/${s.id}/records`, {}, 1_000_000);
      resource.records = records.map((r) => ({ key: r.key, value: r.value, expires_at: r.expires_at }));
    }
    return resource;
  }

  private account(a: AccountView): Resource {
    return { kind: 'account', id: a.id, name: `${a.name} (${a.app})`, content: { app: a.app }, secrets: Object.keys(a.credentials), notes: [] };
  }

  private async component(id: string): Promise<Resource> {
    const comp = (await this.client.get<{ data: ComponentView }>(`/v1/components/${id}`)).data;
    return { kind: 'component', id: comp.id, name: `${comp.key ?? comp.name}@${comp.version}`, content: { key: comp.key, name: comp.name, version: comp.version, type: comp.type, code: comp.code ?? '', filename: comp.filename ?? 'component.mjs' }, secrets: [], notes: [] };
  }

  private async source(id: string): Promise<Resource> {
    const s = (await this.client.get<{ data: SourceView }>(`/v1/sources/${id}`)).data;
    const { props, secrets } = portableProps(s.configured_props);
    const notes: string[] = [];
    const folders = [...s.permissions.read, ...s.permissions.write];
    if (folders.length) notes.push(`folders granted to it (${folders.join(', ')}) belong to one machine and are not synced; grant them on the other side with spout update --allow-read/--allow-write`);
    if (s.network_mode !== 'live') notes.push(`its network mode (${s.network_mode}) is synced, its recorded calls are not: copy them with GET and PUT /v1/sources/{id}/cassette, or record again there`);
    return {
      kind: 'source',
      id: s.id,
      name: s.name,
      content: { name: s.name, code: s.code ?? '', filename: s.filename ?? 'component.mjs', configured_props: props, active: s.active, timeout_seconds: s.timeout_seconds, network_mode: s.network_mode },
      secrets,
      notes,
      ...(s.missing_props?.length ? { missing: s.missing_props } : {}),
    };
  }

  private webhook(w: WebhookView): Resource {
    return {
      kind: 'webhook',
      id: w.id,
      name: w.name,
      content: { name: w.name, description: w.description, url: w.url, active: w.active, retry_schedule: w.retry_schedule },
      secrets: [],
      notes: ['each side signs deliveries with its own signing secret (GET /v1/webhooks/{id}/secret reads it there)'],
    };
  }

  private async workflow(wf: WorkflowView): Promise<Resource> {
    const exported = await this.client.get<WorkflowExport>(`/v1/workflows/${wf.id}/export`);
    const secrets: string[] = [];
    const steps = exported.steps.map((step) => {
      const props: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(step.configured_props)) {
        if (value === MASK) secrets.push(`${step.name}.${name}`);
        else props[name] = value;
      }
      return { name: step.name, code: step.component_code, configured_props: props };
    });
    return { kind: 'workflow', id: wf.id, name: wf.name, content: { name: wf.name, trigger: exported.trigger, steps, active: wf.active }, secrets, notes: [] };
  }

  private async writeRecords(id: string, records: RecordValue[]): Promise<void> {
    await this.client.delete(`/v1/data_stores/${id}/records`);
    const now = Date.now() / 1000;
    for (const r of records) {
      if (r.expires_at !== null && r.expires_at <= now) continue;
      await this.client.put(`/v1/data_stores/${id}/records/${r.key.split('/').map(encodeURIComponent).join('/')}`, { value: r.value, ...(r.expires_at !== null ? { ttl: r.expires_at - now } : {}) });
    }
  }
}

function subscription(s: SubscriptionView): Resource {
  return { kind: 'subscription', id: s.id, name: `${s.emitter_id} → ${s.listener_id}${s.event_name ? ` [${s.event_name}]` : ''}`, content: { emitter_id: s.emitter_id, listener_id: s.listener_id, event_name: s.event_name }, secrets: [], notes: [] };
}

/** A source's configured props to send: its values, secrets given in clear, and kept secrets sent back masked. */
function sourceProps(input: WriteInput): Record<string, unknown> {
  return { ...(input.content.configured_props as Record<string, unknown>), ...input.secrets, ...Object.fromEntries(input.keep.map((name) => [name, MASK])) };
}

/** A workflow's create or update body: each step's code and props, secrets in clear or kept. */
function workflowBody(input: WriteInput): Record<string, unknown> {
  const k = input.content as { name: string; trigger: unknown; steps: Array<{ name: string; code: string; configured_props: Record<string, unknown> }>; active: boolean };
  const extra = (step: string, values: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(values)
        .filter(([key]) => key.startsWith(`${step}.`))
        .map(([key, v]) => [key.slice(step.length + 1), v]),
    );
  return {
    name: k.name,
    trigger: k.trigger,
    active: k.active,
    steps: k.steps.map((s) => ({
      name: s.name,
      component_code: s.code,
      configured_props: { ...s.configured_props, ...extra(s.name, input.secrets), ...extra(s.name, Object.fromEntries(input.keep.map((n) => [n, MASK]))) },
    })),
  };
}
