import { Router } from 'express';
import { z } from 'zod';
import type { SavedActionView } from '../../contract/action-api';
import { NETWORK_MODES } from '../../contract/network-api';
import { pageParams, paginate } from '../../lib/pagination';
import { appAccountWarnings } from '../../props/app/app-prop';
import type { ComponentRecord } from '../../store/metadata';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { componentCode, componentFilename } from './component-input';
import { objectParam, parseParams } from './params';
import { registryComponent, registryNotFound } from './registry-routes';

export const runSchema = z.object({
  id: z.string().min(1).optional(),
  component_code: componentCode.optional(),
  component_filename: componentFilename,
  configured_props: objectParam.optional(),
  /** The `steps` object the action receives (a workflow passes the trigger event and earlier steps). */
  steps: objectParam.optional(),
  /** How the run's outgoing HTTP calls are served (the action's cassette: /v1/components/{id}/cassette). */
  network_mode: z.enum(NETWORK_MODES).optional(),
});

/** The saved actions, one per key (a keyless action by its id), newest saved first, each with its versions and last run. */
function savedActions(ctx: ApiContext): SavedActionView[] {
  // Newest saved first (the records are kept in the order saved): each group's first is its newest.
  const groups = new Map<string, ComponentRecord[]>();
  for (const c of [...ctx.metadata.data.components].reverse()) {
    if (c.type !== 'action') continue;
    const ref = c.key ?? c.id;
    const group = groups.get(ref);
    if (group) group.push(c);
    else groups.set(ref, [c]);
  }
  return [...groups].map(([ref, versions]) => {
    const newest = versions[0] as ComponentRecord;
    const runs = versions.flatMap((v) =>
      ctx.invocations
        .list(v.id)
        .slice(0, 1)
        .map((r) => ({ invocation_id: r.id, component_id: v.id, status: r.status, started_at: r.started_at })),
    );
    return {
      ref,
      key: newest.key,
      id: newest.id,
      name: newest.name,
      version: newest.version,
      description: newest.description,
      saved_at: newest.created_at,
      registry: newest.origin === 'registry',
      versions: versions.map((v) => ({ id: v.id, version: v.version, code_hash: v.code_hash, created_at: v.created_at, registry: v.origin === 'registry' })),
      last_run: runs.sort((a, b) => b.started_at - a.started_at)[0] ?? null,
    };
  });
}

/** Action test runs (`POST /v1/actions/run`), the saved actions, and the outbox of their `$.send`s. */
export function actionRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post('/actions/run', async (req, res) => {
    const input = parseParams(req, runSchema);
    if ((input.id === undefined) === (input.component_code === undefined)) throw new HttpError(400, 'give exactly one of id (a component id, a saved or registry key) or component_code');
    const component = input.id === undefined ? await ctx.library.save(input.component_code as string, input.component_filename ?? 'action.mjs', ctx.describeSandbox) : (ctx.library.find(input.id) ?? (/^sc_/.test(input.id) ? undefined : await registryComponent(ctx, input.id)));
    if (!component) throw input.id && !/^sc_/.test(input.id) ? registryNotFound(ctx, input.id) : notFound('component', input.id as string);
    const configured = input.configured_props ?? {};
    const answer = await ctx.sessions.runAction(component, configured, input.steps ?? {}, { jit: true, network: input.network_mode });
    res.json({ ...answer, warnings: [...(component.warnings ?? []), ...appAccountWarnings(component.configurable_props, configured)] });
  });

  router.get('/users/me/actions', (req, res) => {
    res.json(paginate(savedActions(ctx), parseParams(req, pageParams), (a) => a));
  });

  // By key, or by the id of any version. A registry key not saved yet is saved first, as
  // /v1/components/configure does with a key: opening a registry action lists it among the saved.
  router.get('/actions/:ref', async (req, res) => {
    const ref = req.params.ref;
    const find = () => savedActions(ctx).find((a) => a.ref === ref || a.versions.some((v) => v.id === ref));
    let action = find();
    if (!action && !/^sc_/.test(ref) && (await registryComponent(ctx, ref))?.type === 'action') action = find();
    if (!action) throw new HttpError(404, `no saved or registry action ${ref}: save one with POST /v1/components, or check the key in GET /v1/components/search`);
    res.json({ data: action });
  });

  router.get('/outbox', (req, res) => {
    res.json(paginate(ctx.sendLog.list(), parseParams(req, pageParams), (r) => r));
  });

  return router;
}
