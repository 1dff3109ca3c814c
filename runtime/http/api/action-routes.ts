import { Router } from 'express';
import { z } from 'zod';
import type { ApiContext } from './api-context';
import { objectParam, parseParams } from './params';
import { pageParams } from '../../lib/pagination';
import { HttpError, notFound } from '../edge/error-statuses';
import { paginate } from '../../lib/pagination';
import { componentCode, componentFilename } from './component-input';
import { registryComponent, registryNotFound } from './registry-routes';
import { appAccountWarnings } from '../../props/app/app-prop';

export const runSchema = z.object({
  id: z.string().min(1).optional(),
  component_code: componentCode.optional(),
  component_filename: componentFilename,
  configured_props: objectParam.optional(),
  /** The `steps` object the action receives (a workflow passes the trigger event and earlier steps). */
  steps: objectParam.optional(),
  /** How the run's outgoing HTTP calls are served (the action's cassette: /v1/components/{id}/cassette). */
  network_mode: z.enum(['live', 'record', 'replay', 'replay-or-live']).optional(),
});

/** Action test runs (`POST /v1/actions/run`) and the outbox of their `$.send`s. */
export function actionRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post('/actions/run', async (req, res) => {
    const input = parseParams(req, runSchema);
    if ((input.id === undefined) === (input.component_code === undefined)) throw new HttpError(400, 'give exactly one of id (a component id, a saved or registry key) or component_code');
    const component =
      input.id === undefined
        ? await ctx.library.save(input.component_code as string, input.component_filename ?? 'action.mjs', ctx.describeSandbox)
        : (ctx.library.find(input.id) ?? (/^sc_/.test(input.id) ? undefined : await registryComponent(ctx, input.id)));
    if (!component) throw input.id && !/^sc_/.test(input.id) ? registryNotFound(ctx, input.id) : notFound('component', input.id as string);
    const configured = input.configured_props ?? {};
    const answer = await ctx.sessions.runAction(component, configured, input.steps ?? {}, { jit: true, network: input.network_mode });
    res.json({ ...answer, warnings: [...(component.warnings ?? []), ...appAccountWarnings(component.configurable_props, configured)] });
  });

  router.get('/outbox', (req, res) => {
    res.json(paginate(ctx.sendLog.list(), parseParams(req, pageParams), (r) => r));
  });

  return router;
}
