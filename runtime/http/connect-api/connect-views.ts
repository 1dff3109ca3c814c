// Spout's records in the shapes `@pipedream/sdk` reads (contract/connect-api.ts).

import type { ConsoleLine, StepError } from '../../contract/action-api';
import type { ConfigurableProp } from '../../contract/component-shape';
import type { ConnectAccount, ConnectApp, ConnectComponent, ConnectDeployedTrigger, ConnectEmittedEvent, ConnectExternalUser, ConnectObservation, ConnectProject, ConnectProp } from '../../contract/connect-api';
import type { CatalogApp } from '../../engine/connect/connect-catalog';
import { appName } from '../../engine/connect/connect-catalog';
import { MASK } from '../../props/secret/secret-values';
import type { ConnectProjectRecord, ExternalUserRecord } from '../../store/connect-records';
import type { StoredEvent } from '../../store/event-store';
import type { AccountRecord, ComponentRecord } from '../../store/metadata';

/** Fields of a prop that Connect describes; Spout's own bookkeeping (propDefinition, methods, …) stays out. */
const PROP_FIELDS = ['type', 'label', 'description', 'optional', 'default', 'secret', 'min', 'max', 'options', 'useQuery', 'disabled', 'hidden', 'reloadProps', 'customResponse', 'alertType', 'content', 'app', 'withLabel', 'readOnly'] as const;

/** A prop as Connect describes it: async options become `remoteOptions: true`. */
export function connectProp(p: ConfigurableProp): ConnectProp {
  const out: ConnectProp = { name: p.name, type: p.type };
  for (const field of PROP_FIELDS) if (p[field] !== undefined) (out as Record<string, unknown>)[field] = p[field];
  if (p.hasOptionsMethod) out.remoteOptions = true;
  return out;
}

/** A component (registry entry or saved component) as Connect lists and reads it. */
export function componentView(c: Pick<ComponentRecord, 'key' | 'name' | 'version' | 'description' | 'type' | 'configurable_props'>): ConnectComponent {
  return {
    key: c.key ?? '',
    name: c.name,
    version: c.version,
    description: c.description ?? '',
    component_type: c.type,
    configurable_props: c.configurable_props.map(connectProp),
  };
}

/** An app's icon: its initials, so pages that show icons have one offline. */
function icon(name: string): string {
  const initials = name
    .split(' ')
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2)
    .replace(/[^A-Za-z0-9]/g, '');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" rx="12" fill="#334155"/><text x="32" y="41" font-family="sans-serif" font-size="24" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** An app of the registry; an account's app that the registry no longer has is described from its slug. */
export function appView(app: CatalogApp | string): ConnectApp {
  const a: CatalogApp = typeof app === 'string' ? { slug: app, name: appName(app), fields: [], auth_type: 'keys', category: { id: '', name: '', description: '' }, actions: 0, triggers: 0 } : app;
  return {
    id: `app_${a.slug}`,
    name_slug: a.slug,
    name: a.name,
    auth_type: a.auth_type,
    description: `${a.name}: ${a.actions} action${a.actions === 1 ? '' : 's'} and ${a.triggers} trigger${a.triggers === 1 ? '' : 's'} in the local registry`,
    img_src: icon(a.name),
    custom_fields_json: JSON.stringify(a.fields.map((name) => ({ name, label: name, optional: false, ...(/secret|key|token|password/i.test(name) ? { secret: true } : {}) }))),
    categories: a.category.name ? [a.category.name] : [],
    featured_weight: 0,
    scope_profiles: [],
  };
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** A Connect account; credentials only when asked for (and never for a Connect token's caller). */
export function accountView(a: AccountRecord, app: CatalogApp | undefined, credentials?: Record<string, unknown>): ConnectAccount {
  return {
    id: a.id,
    name: a.name,
    external_id: a.connect?.external_user_id ?? '',
    healthy: true,
    dead: false,
    app: appView(app ?? a.app),
    created_at: iso(a.created_at),
    updated_at: iso(a.created_at),
    ...(credentials ? { credentials } : {}),
  };
}

/** Credential fields with each value masked (what lists show when credentials are not asked for). */
export function maskedCredentials(credentials: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(credentials).map((k) => [k, MASK]));
}

export function userView(u: ExternalUserRecord): ConnectExternalUser {
  return { id: u.id, external_id: u.external_user_id, created_at: iso(u.created_at), updated_at: iso(u.updated_at) };
}

export function projectView(p: ConnectProjectRecord): ConnectProject {
  return { id: p.id, name: p.name, ...(p.app_name ? { app_name: p.app_name } : {}), ...(p.support_email ? { support_email: p.support_email } : {}), allow_local_targets: p.allow_local_targets ?? false };
}

/** A deployed trigger: the source as /v1/sources shows it, in Connect's field names. */
export function triggerView(
  source: { id: string; component_id: string; name: string; name_slug: string; active: boolean; created_at: number; updated_at: number; configured_props: Record<string, unknown> },
  component: ComponentRecord | undefined,
  props: ConfigurableProp[],
  ownerId: string,
  emitOnDeploy: boolean,
): ConnectDeployedTrigger {
  return {
    type: 'DeployedComponent',
    id: source.id,
    owner_id: ownerId,
    component_id: source.component_id,
    component_key: component?.key ?? '',
    configurable_props: props.map(connectProp),
    configured_props: source.configured_props,
    active: source.active,
    created_at: source.created_at,
    updated_at: source.updated_at,
    name: source.name,
    name_slug: source.name_slug,
    emit_on_deploy: emitOnDeploy,
  };
}

/** An emitted event: `k` is its channel (`emit` for the default one), `ts` epoch ms. */
export function eventView(e: StoredEvent): ConnectEmittedEvent {
  return { e: JSON.parse(e.json) as unknown, k: e.meta.name ?? 'emit', ts: e.meta.ts, id: String(e.meta.id), ...(e.meta.summary ? { sum: e.meta.summary } : {}) };
}

/** A run's console lines and error as Connect's observations (`k` `console.log`, …, `error`). */
export function observations(lines: readonly ConsoleLine[], error: StepError | null, ts = Date.now()): ConnectObservation[] {
  const os: ConnectObservation[] = lines.map((l) => ({ k: `console.${l.level}`, ts, msg: l.message }));
  if (error) os.push({ k: 'error', ts, err: { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) } });
  return os;
}
