import type { ListedAttempt, MessageSummary, WebhookHealth } from '../../contract/delivery-protocol';
import type { EventSummary, HostState, SourceView } from '../../contract/source-api';
import type { AttemptView, MessageView, SubscriptionView, WebhookView } from '../../contract/webhook-api';
import { sourceProps } from '../../engine/sources/dynamic-props';
import { versionFields } from '../../lib/record-versions';
import { maskSecrets } from '../../props/secret/secret-values';
import type { StoredEvent } from '../../store/event-store';
import type { ComponentRecord, SourceRecord, SubscriptionRecord, WebhookRecord } from '../../store/metadata';

/** Unexpanded event data is cut to this many characters of JSON. */
export const EVENT_PREVIEW_LIMIT = 1024;

const toSeconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/** A webhook's health for people: disabled, failing (failures since the last success), healthy, or idle. */
export function webhookHealth(w: WebhookRecord, h: WebhookHealth | undefined): NonNullable<WebhookView['health']> {
  const state = !w.active ? 'disabled' : h?.failing_since != null || ((h?.failed ?? 0) > 0 && h?.last_success_at == null) ? 'failing' : h?.last_success_at != null ? 'healthy' : 'idle';
  return { state, last_success_at: toSeconds(h?.last_success_at ?? null), failing_since: toSeconds(h?.failing_since ?? null), pending: h?.pending ?? 0, failing: h?.failing ?? 0, failed: h?.failed ?? 0 };
}

/** A webhook as the API shows it: the signing secret only when just created, health when known. */
export function webhookView(w: WebhookRecord, signingSecret?: string, health?: WebhookHealth | null): WebhookView {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    url: w.url,
    active: w.active,
    paused: w.paused === true,
    disabled_reason: w.active ? null : (w.disabled_reason ?? null),
    retry_schedule: w.retry_schedule ?? null,
    ...(signingSecret ? { signing_secret: signingSecret } : {}),
    ...(health !== undefined ? { health: webhookHealth(w, health ?? undefined) } : {}),
    ...versionFields(w),
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

export function subscriptionView(s: SubscriptionRecord): SubscriptionView {
  return { id: s.id, emitter_id: s.emitter_id, listener_id: s.listener_id, event_name: s.event_name, created_at: s.created_at };
}

export function sourceView(s: SourceRecord, component: ComponentRecord | undefined, endpointUrl: (id: string) => string, timers: SourceView['timers'] = {}, host: HostState = 'parked'): SourceView {
  const configured = maskSecrets(sourceProps(s, component), s.configured_props);
  for (const [prop, id] of Object.entries(s.endpoints)) configured[prop] = { endpoint_url: endpointUrl(id) };
  return {
    id: s.id,
    component_id: s.component_id,
    component_key: component?.key ?? null,
    name: s.name,
    name_slug: s.name_slug,
    configured_props: configured,
    ...(s.dynamic_props ? { dynamic_props: s.dynamic_props } : {}),
    timeout_seconds: s.timeout_seconds ?? null,
    timers,
    active: s.active,
    permissions: s.permissions ?? { read: [], write: [] },
    network_mode: s.network_mode ?? 'live',
    host,
    deactivated_reason: s.deactivated_reason ?? null,
    ...(s.missing_props?.length ? { missing_props: s.missing_props } : {}),
    ...(s.connect ? { external_user_id: s.connect.external_user_id } : {}),
    ...versionFields(s),
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** An event summary; data over 1 KB becomes a preview unless `expand` is set. */
export function eventSummary(e: StoredEvent, expand: boolean): EventSummary {
  const long = !expand && e.json.length > EVENT_PREVIEW_LIMIT;
  return {
    id: e.id,
    indexed_at_ms: e.indexed_at_ms,
    event: long ? e.json.slice(0, EVENT_PREVIEW_LIMIT) : JSON.parse(e.json),
    ...(long ? { truncated: true } : {}),
    invocation_id: e.meta.invocation_id ?? null,
    metadata: { emit_id: e.meta.emit_id, id: e.meta.id, name: e.meta.name, summary: e.meta.summary, emitter_id: e.emitter_id, ts: e.meta.ts },
  };
}

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/** A delivery message: its id is the `webhook-id` header the receiver saw; `about` names its event and emitter. */
export function messageView(m: MessageSummary, about?: { event_summary: string | null; emitter_name: string | null; source_id: string | null; run_id: string | null }): MessageView {
  return {
    id: m.id,
    event_id: m.event_id,
    emitter_id: m.emitter_id,
    event_name: m.event_name,
    ...(about ?? {}),
    status: m.status,
    attempts: m.attempts,
    next_attempt_at: seconds(m.next_attempt_at),
    created_at: seconds(m.created_at) as number,
  };
}

/** One delivery attempt. */
export function attemptView(a: ListedAttempt): AttemptView {
  return { ...a, created_at: seconds(a.created_at) as number };
}
