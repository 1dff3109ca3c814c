// Running an action and deploying a trigger for an external user: the same action runs and source
// deploys as /v1/actions/run and /v1/sources, with the user's own accounts only.
import { Router } from 'express';
import type { ConnectRunAnswer } from '../../contract/connect-api';
import { sourceProps } from '../../engine/sources/dynamic-props';
import { newId } from '../../lib/ids';
import type { SourceRecord } from '../../store/metadata';
import { parseParams } from '../api/params';
import { sourceView } from '../api/views';
import { HttpError } from '../edge/error-statuses';
import { callerOf } from './connect-auth';
import { componentCall } from './connect-catalog-routes';
import type { ConnectContext } from './connect-context';
import { deployTriggerSchema, runActionSchema } from './connect-schemas';
import { deliverDeployEvents, deliveryOf, endUserProject, requireTriggerTargets, setTriggerWebhooks, setTriggerWorkflows } from './connect-trigger-webhooks';
import { observations, triggerView } from './connect-views';

/** A deployed trigger as Connect answers it. */
export function connectTrigger(ctx: ConnectContext, source: SourceRecord) {
  const component = ctx.sources.component(source);
  const view = sourceView(source, component, ctx.endpointUrl, ctx.sources.timersOf(source), ctx.sources.hostState(source));
  const owner = source.connect ? ctx.connect.tenants.user(source.connect).id : '';
  return triggerView(view, component, sourceProps(source, component), owner, deliveryOf(ctx, source.id).emit_on_deploy);
}

/** `POST …/actions/run` and `POST …/triggers/deploy`. */
export function connectRunRoutes(ctx: ConnectContext): Router {
  const router = Router();

  router.post('/actions/run', async (req, res) => {
    const { configured, owner, component } = await componentCall(ctx, res, parseParams(req, runActionSchema), 'action');
    await ctx.connect.tenants.ensureUser(owner);
    const started = Date.now();
    const run = await ctx.sessions.runAction(component, configured, {}, { jit: false });
    const body: ConnectRunAnswer & { invocation_id: string } = {
      exports: run.exports,
      os: observations(run.os, run.error, started),
      ret: run.ret,
      stash_id: null,
      // Spout's own: the run's record (GET /v1/invocations/{id}), with its outgoing calls.
      invocation_id: run.invocation_id,
    };
    res.json(body);
  });

  router.post('/triggers/deploy', async (req, res) => {
    const input = parseParams(req, deployTriggerSchema);
    // Before the deploy: a refused URL leaves nothing deployed.
    if (input.webhook_url !== undefined) await requireTriggerTargets(ctx, res, 'webhook_url', [input.webhook_url]);
    const { configured, owner, component } = await componentCall(ctx, res, input, 'source');
    await ctx.connect.tenants.ensureUser(owner);
    // The webhook of the project environment takes a trigger's events when it names none.
    const { project, environment } = callerOf(res);
    const projectWebhook = input.webhook_url === undefined ? project.webhooks?.[environment] : undefined;
    if (input.workflow_id !== undefined && !ctx.workflows.find(input.workflow_id)) throw new HttpError(404, `workflow ${input.workflow_id} was not found; a trigger feeds the workflows of this Spout (p_…, GET /v1/workflows)`);
    const source = await ctx.sources.deploy({ component, name: `${component.name} (${owner.external_user_id})`, configured_props: configured, changed_by: 'connect' });
    // No await from here to the subscriptions: every event emitted so far came from the deploy hooks.
    source.connect = owner;
    const delivery = deliveryOf(ctx, source.id);
    delivery.emit_on_deploy = input.emit_on_deploy ?? true;
    const made = setTriggerWebhooks(ctx, source, input.webhook_url ? [input.webhook_url] : [], endUserProject(res));
    if (projectWebhook) {
      ctx.metadata.data.subscriptions.push({ id: newId('sub'), emitter_id: source.id, listener_id: projectWebhook, event_name: null, created_at: source.created_at });
      made.push(...ctx.metadata.data.webhooks.filter((w) => w.id === projectWebhook));
    }
    if (input.workflow_id !== undefined) setTriggerWorkflows(ctx, source, [input.workflow_id]);
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
    if (delivery.emit_on_deploy)
      await deliverDeployEvents(
        ctx,
        source.id,
        made.map((w) => w.id),
      );
    res.json({ data: connectTrigger(ctx, source) });
  });

  return router;
}
