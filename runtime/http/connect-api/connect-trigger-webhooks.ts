// Where a deployed trigger's events go: each webhook URL becomes a Spout webhook subscribed to the
// source, so delivery (Standard Webhooks signing, retries, the attempt log, resend) is Spout's own;
// each workflow id, a subscription of that Spout workflow (`p_…`).

import type { Response } from 'express';
import { newWebhookRecord } from '../../delivery/webhook-targets';
import { newId } from '../../lib/ids';
import type { TriggerDeliveryRecord } from '../../store/connect-records';
import type { SourceRecord, WebhookRecord } from '../../store/metadata';
import { requireDeliveryTarget } from '../api/delivery-target-check';
import { HttpError } from '../edge/error-statuses';
import { callerOf } from './connect-auth';
import type { ConnectContext } from './connect-context';

/** The trigger's delivery record (every Connect trigger has one). */
export function deliveryOf(ctx: ConnectContext, sourceId: string): TriggerDeliveryRecord {
  const triggers = ctx.metadata.data.connect.triggers;
  let record = triggers.find((t) => t.source_id === sourceId);
  if (!record) {
    record = { source_id: sourceId, webhook_ids: [], workflow_ids: [], emit_on_deploy: true };
    triggers.push(record);
  }
  return record;
}

/** The Spout webhooks a trigger delivers to, in the order they were given. */
export function triggerWebhooks(ctx: ConnectContext, sourceId: string): WebhookRecord[] {
  const ids = deliveryOf(ctx, sourceId).webhook_ids;
  return ids.flatMap((id) => ctx.metadata.data.webhooks.filter((w) => w.id === id));
}

/**
 * Refuses webhook URLs deliveries may not go to (`field` names them): never this service, and
 * for a Connect token nothing on this machine unless its project allows local targets.
 */
export async function requireTriggerTargets(ctx: ConnectContext, res: Response, field: string, urls: readonly string[]): Promise<void> {
  const { project, token } = callerOf(res);
  for (const url of urls) await requireDeliveryTarget(ctx, field, url, token !== null && project.allow_local_targets !== true);
}

/** The project whose end user makes this call (a Connect token), which delivery then holds to its local-target rule; null for server credentials. */
export function endUserProject(res: Response): string | null {
  const { project, token } = callerOf(res);
  return token !== null ? project.id : null;
}

/**
 * Points a trigger at these URLs: webhooks for URLs it had stay (with their secrets and attempt
 * logs), new ones are made and subscribed, dropped ones go with their subscriptions. The caller
 * saves the metadata and syncs the delivery thread. Answers the webhooks made; `setBy` is
 * endUserProject() of the call.
 */
export function setTriggerWebhooks(ctx: ConnectContext, source: SourceRecord, urls: readonly string[], setBy: string | null): WebhookRecord[] {
  const data = ctx.metadata.data;
  const record = deliveryOf(ctx, source.id);
  const current = triggerWebhooks(ctx, source.id);
  const kept = current.filter((w) => urls.includes(w.url));
  const made: WebhookRecord[] = [];
  const now = Math.floor(Date.now() / 1000);
  for (const url of [...new Set(urls)]) {
    if (kept.some((w) => w.url === url)) continue;
    const { record: webhook } = newWebhookRecord({ url, name: `${source.name} → ${url}`, description: `Connect trigger ${source.id} of external user ${source.connect?.external_user_id ?? ''}` }, ctx.secrets, 'connect');
    if (setBy !== null) webhook.end_user_project = setBy;
    data.webhooks.push(webhook);
    data.subscriptions.push({ id: newId('sub'), emitter_id: source.id, listener_id: webhook.id, event_name: null, created_at: now });
    made.push(webhook);
  }
  const dropped = new Set(current.filter((w) => !kept.includes(w)).map((w) => w.id));
  data.webhooks = data.webhooks.filter((w) => !dropped.has(w.id));
  data.subscriptions = data.subscriptions.filter((s) => !dropped.has(s.listener_id));
  record.webhook_ids = [...kept, ...made].map((w) => w.id);
  return made;
}

/** Points a trigger at these Spout workflows (`p_…`), each subscribed to its events. */
export function setTriggerWorkflows(ctx: ConnectContext, source: SourceRecord, workflowIds: readonly string[]): void {
  const data = ctx.metadata.data;
  for (const id of workflowIds) if (!ctx.workflows.find(id)) throw new HttpError(404, `workflow ${id} was not found; a trigger feeds the workflows of this Spout (p_…, GET /v1/workflows)`);
  const record = deliveryOf(ctx, source.id);
  const wanted = new Set(workflowIds);
  data.subscriptions = data.subscriptions.filter((s) => !(s.emitter_id === source.id && s.listener_id.startsWith('p_') && record.workflow_ids.includes(s.listener_id) && !wanted.has(s.listener_id)));
  const now = Math.floor(Date.now() / 1000);
  for (const id of wanted) {
    if (!data.subscriptions.some((s) => s.emitter_id === source.id && s.listener_id === id && s.event_name === null)) {
      data.subscriptions.push({ id: newId('sub'), emitter_id: source.id, listener_id: id, event_name: null, created_at: now });
    }
  }
  record.workflow_ids = [...wanted];
}

/** Forgets a removed trigger's webhooks (the source's removal took its subscriptions). */
export function dropTriggerDelivery(ctx: ConnectContext, sourceId: string): void {
  const data = ctx.metadata.data;
  const record = data.connect.triggers.find((t) => t.source_id === sourceId);
  if (!record) return;
  const ids = new Set(record.webhook_ids);
  data.webhooks = data.webhooks.filter((w) => !ids.has(w.id));
  data.subscriptions = data.subscriptions.filter((s) => !ids.has(s.listener_id));
  data.connect.triggers = data.connect.triggers.filter((t) => t !== record);
}

/**
 * Drops the webhooks of triggers whose source was deleted outside Connect (the UI, the CLI,
 * `DELETE /v1/sources`); answers whether anything went (the caller saves).
 */
export function sweepGoneTriggers(ctx: ConnectContext): boolean {
  const gone = ctx.metadata.data.connect.triggers.filter((t) => !ctx.sources.find(t.source_id));
  for (const t of gone) dropTriggerDelivery(ctx, t.source_id);
  return gone.length > 0;
}

/** Delivers the events a trigger emitted while it deployed (`emit_on_deploy`) to webhooks just made for it. */
export async function deliverDeployEvents(ctx: ConnectContext, sourceId: string, webhookIds: readonly string[]): Promise<void> {
  if (webhookIds.length === 0) return;
  // Oldest first: the list is newest first, and deliveries keep event order.
  for (const event of [...ctx.events.list(sourceId)].reverse()) await ctx.delivery.deliver(event, webhookIds);
}
