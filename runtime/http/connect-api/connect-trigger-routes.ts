// Deployed triggers (`dc_…` sources owned by an external user): read, update, delete, their
// events, the webhooks and workflows they deliver to.
import { type Response, Router } from 'express';
import type { ConnectTriggerWebhook } from '../../contract/connect-api';
import { newSigningSecret } from '../../delivery/worker/signing';
import { sameOwner } from '../../engine/connect/connect-tenants';
import type { SourceRecord, WebhookRecord } from '../../store/metadata';
import { parseParams } from '../api/params';
import { HttpError } from '../edge/error-statuses';
import { callerOf, ownerFor } from './connect-auth';
import { checkAccounts } from './connect-catalog-routes';
import { type ConnectContext, connectPage } from './connect-context';
import { connectTrigger } from './connect-run-routes';
import { deleteTriggerSchema, listEventsSchema, ownerQuerySchema, triggersListSchema, updateTriggerSchema, updateWebhooksSchema, updateWorkflowsSchema } from './connect-schemas';
import { deliveryOf, dropTriggerDelivery, endUserProject, requireTriggerTargets, setTriggerWebhooks, setTriggerWorkflows, sweepGoneTriggers, triggerWebhooks } from './connect-trigger-webhooks';
import { eventView } from './connect-views';

/** A webhook as Connect shows it; its signing key only where asked for. */
export function webhookView(ctx: ConnectContext, w: WebhookRecord, withKey: boolean): ConnectTriggerWebhook {
  return { id: w.id, url: w.url, ...(withKey ? { signing_key: ctx.secrets.open(w.sealed_secret) } : {}), signing_key_set: true, created_at: w.created_at, updated_at: w.updated_at };
}

/** A new signing key for a webhook: the old one stops signing at once. */
export function regenerateKey(ctx: ConnectContext, w: WebhookRecord): void {
  w.sealed_secret = ctx.secrets.seal(newSigningSecret());
  w.previous_secrets = [];
  w.updated_at = Math.floor(Date.now() / 1000);
}

/** `…/deployed-triggers…` */
export function connectTriggerRoutes(ctx: ConnectContext): Router {
  const router = Router();

  /** The trigger, if the caller's user (or with server credentials and no user named, the project) owns it. */
  const find = (res: Response, id: string, externalUserId: string | undefined): SourceRecord => {
    const { project, environment, token } = callerOf(res);
    const source = ctx.sources.find(id);
    const mine = source?.connect && source.connect.project_id === project.id && source.connect.environment === environment;
    const owner = token || externalUserId !== undefined ? ownerFor(res, externalUserId) : null;
    if (!source || !mine || (owner && !sameOwner(source.connect, owner))) {
      throw new HttpError(404, `deployed trigger ${id} was not found${owner ? ` for external user "${owner.external_user_id}"` : ` in project ${project.id} (${environment})`}`);
    }
    return source;
  };
  const saved = async () => {
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
  };
  const webhooksOf = (source: SourceRecord) => {
    const hooks = triggerWebhooks(ctx, source.id);
    return { webhook_urls: hooks.map((w) => w.url), webhooks: hooks.map((w) => webhookView(ctx, w, false)) };
  };

  router.get('/deployed-triggers', async (req, res) => {
    const q = parseParams(req, triggersListSchema);
    if (sweepGoneTriggers(ctx)) await saved();
    const { project, environment, token } = callerOf(res);
    const triggers = token || q.external_user_id !== undefined ? ctx.connect.tenants.triggers(ownerFor(res, q.external_user_id)) : ctx.connect.tenants.projectTriggers(project.id, environment);
    // Every deployed trigger is a source (`source`); other emitter types are Pipedream's workflow triggers.
    const listed = q.emitter_type && q.emitter_type !== 'source' ? [] : [...triggers].reverse();
    res.json(
      connectPage(
        listed,
        q,
        (s) => s.id,
        (s) => connectTrigger(ctx, s),
      ),
    );
  });

  router.get('/deployed-triggers/:id', (req, res) => {
    const q = parseParams(req, ownerQuerySchema);
    res.json({ data: connectTrigger(ctx, find(res, req.params.id, q.external_user_id)) });
  });

  router.put('/deployed-triggers/:id', async (req, res) => {
    const input = parseParams(req, updateTriggerSchema);
    const source = find(res, req.params.id, input.external_user_id);
    if (input.configured_props) checkAccounts(ctx, res, source.connect?.external_user_id, input.configured_props);
    const updated = await ctx.sources.update(source, { name: input.name, active: input.active, configured_props: input.configured_props, change: { by: 'connect' } });
    if (input.emit_on_deploy !== undefined) {
      deliveryOf(ctx, source.id).emit_on_deploy = input.emit_on_deploy;
      await ctx.metadata.write();
    }
    res.json({ data: connectTrigger(ctx, updated) });
  });

  router.delete('/deployed-triggers/:id', async (req, res) => {
    const q = parseParams(req, deleteTriggerSchema);
    const source = find(res, req.params.id, q.external_user_id);
    // A failing deactivate() hook is logged on the source and never stops a delete (ignore_hook_errors is how Spout always deletes).
    await ctx.sources.remove(source);
    dropTriggerDelivery(ctx, source.id);
    await saved();
    res.status(204).end();
  });

  router.get('/deployed-triggers/:id/events', (req, res) => {
    const q = parseParams(req, listEventsSchema);
    const source = find(res, req.params.id, q.external_user_id);
    res.json({ data: ctx.events.latest(source.id, q.n).map(eventView) });
  });

  router.get('/deployed-triggers/:id/webhooks', (req, res) => {
    const q = parseParams(req, ownerQuerySchema);
    res.json(webhooksOf(find(res, req.params.id, q.external_user_id)));
  });

  router.put('/deployed-triggers/:id/webhooks', async (req, res) => {
    const input = parseParams(req, updateWebhooksSchema);
    const source = find(res, req.params.id, input.external_user_id);
    await requireTriggerTargets(ctx, res, 'webhook_urls', input.webhook_urls);
    setTriggerWebhooks(ctx, source, input.webhook_urls, endUserProject(res));
    await saved();
    res.json(webhooksOf(source));
  });

  const triggerWebhook = (res: Response, id: string, webhookId: string, externalUserId: string | undefined): WebhookRecord => {
    const source = find(res, id, externalUserId);
    const webhook = triggerWebhooks(ctx, source.id).find((w) => w.id === webhookId);
    if (!webhook) throw new HttpError(404, `webhook ${webhookId} is not one of deployed trigger ${id}'s (listWebhooks names them)`);
    return webhook;
  };

  router.get('/deployed-triggers/:id/webhooks/:webhook_id', (req, res) => {
    const q = parseParams(req, ownerQuerySchema);
    res.json({ data: webhookView(ctx, triggerWebhook(res, req.params.id, req.params.webhook_id, q.external_user_id), true) });
  });

  router.post('/deployed-triggers/:id/webhooks/:webhook_id/regenerate_signing_key', async (req, res) => {
    const q = parseParams(req, ownerQuerySchema);
    const webhook = triggerWebhook(res, req.params.id, req.params.webhook_id, q.external_user_id);
    regenerateKey(ctx, webhook);
    await saved();
    res.json({ data: webhookView(ctx, webhook, true) });
  });

  router.get('/deployed-triggers/:id/pipelines', (req, res) => {
    const q = parseParams(req, ownerQuerySchema);
    res.json({ workflow_ids: deliveryOf(ctx, find(res, req.params.id, q.external_user_id).id).workflow_ids });
  });

  router.put('/deployed-triggers/:id/pipelines', async (req, res) => {
    const input = parseParams(req, updateWorkflowsSchema);
    const source = find(res, req.params.id, input.external_user_id);
    setTriggerWorkflows(ctx, source, input.workflow_ids);
    await saved();
    res.json({ workflow_ids: deliveryOf(ctx, source.id).workflow_ids });
  });

  return router;
}
