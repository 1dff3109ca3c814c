import { Router } from 'express';
import { z } from 'zod';
import type { WorkflowView } from '../../contract/workflow-api';
import { pageParams, paginate } from '../../lib/pagination';
import { versionFields } from '../../lib/record-versions';
import { maskSecrets } from '../../props/secret/secret-values';
import type { WorkflowRecord } from '../../store/metadata';
import { requireBearer } from '../edge/auth';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { baseVersionParam, changeOf, changeOrigin } from './change-origin';
import { componentCode } from './component-input';
import { objectParam, parseParams } from './params';
import { eventSummary } from './views';

const triggerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('source'), source_id: z.string().regex(/^dc_/, 'must be a source id (dc_…)'), event_name: z.string().min(1).nullable().optional() }),
  z.object({ type: z.literal('http'), custom_response: z.boolean().optional() }),
  z.object({ type: z.literal('timer'), schedule: z.unknown() }),
  z.object({ type: z.literal('manual') }),
]);

const stepSchema = z.object({
  name: z.string().min(1).max(100),
  component_id: z.string().min(1).optional(),
  component_code: componentCode.optional(),
  configured_props: objectParam.optional(),
});

export const workflowSchema = z.object({
  name: z.string().min(1).max(200).optional(),
  trigger: triggerSchema.optional(),
  steps: z.array(stepSchema).max(100).optional(),
  active: z.boolean().optional(),
  /** On update: the version this change was based on; another is refused with 409 (docs/api.md "Versions"). */
  base_version: baseVersionParam.optional(),
});

export const runSchema = z.object({ event: z.unknown().optional() });

export const stepTestSchema = z.object({
  event: z.unknown().optional(),
  steps: z.record(z.string(), z.unknown()).optional(),
  component_id: z.string().min(1).optional(),
  configured_props: objectParam.optional(),
});

export const importSchema = z.object({
  spout_workflow: z.literal(1, 'must be 1: a file written by GET /v1/workflows/{id}/export'),
  name: z.string().min(1).max(200),
  trigger: triggerSchema,
  steps: z.array(z.object({ name: z.string().min(1), component_key: z.string().nullable().optional(), component_code: componentCode, configured_props: objectParam.optional() })).max(100),
});

/** A workflow as the API shows it: an HTTP trigger with its endpoint URL, secret step props masked. */
function workflowView(wf: WorkflowRecord, ctx: ApiContext): WorkflowView {
  const trigger = wf.trigger.type === 'http' ? { ...wf.trigger, endpoint_url: ctx.endpointUrl(wf.trigger.endpoint_id) } : wf.trigger;
  const steps = wf.steps.map((s) => ({ ...s, configured_props: maskSecrets(ctx.library.find(s.component_id)?.configurable_props ?? [], s.configured_props) }));
  return { ...wf, trigger, steps, ...versionFields(wf) };
}

/** Local workflows (`p_…`): definitions, runs, replay, export and import. */
export function workflowRoutes(ctx: ApiContext): Router {
  const router = Router();
  const { workflows } = ctx;
  const find = (id: string) => {
    const wf = workflows.find(id);
    if (!wf) throw notFound('workflow', id);
    return wf;
  };

  router.post('/workflows', async (req, res) => {
    const { base_version: _ignored, ...input } = parseParams(req, workflowSchema);
    res.json({ data: workflowView(await workflows.create(input, changeOrigin(req)), ctx) });
  });

  router.post('/workflows/import', async (req, res) => {
    const input = parseParams(req, importSchema);
    const wf = await workflows.create({ name: input.name, trigger: input.trigger, steps: input.steps.map((s) => ({ name: s.name, component_code: s.component_code, configured_props: s.configured_props })) }, changeOrigin(req));
    res.json({ data: workflowView(wf, ctx) });
  });

  router.get('/users/me/workflows', (req, res) => {
    res.json(paginate([...workflows.list()].reverse(), parseParams(req, pageParams), (wf) => workflowView(wf, ctx)));
  });

  router.get('/workflows/:id', (req, res) => {
    res.json({ data: workflowView(find(req.params.id), ctx) });
  });

  router.put('/workflows/:id', async (req, res) => {
    const wf = find(req.params.id);
    const { base_version, ...input } = parseParams(req, workflowSchema);
    res.json({ data: workflowView(await workflows.update(wf, input, changeOf(req, base_version)), ctx) });
  });

  router.delete('/workflows/:id', async (req, res) => {
    await workflows.remove(find(req.params.id));
    res.status(204).end();
  });

  router.get('/workflows/:id/export', (req, res) => {
    res.json(workflows.export(find(req.params.id)));
  });

  router.get('/workflows/:id/secrets', (req, res) => {
    requireBearer(req);
    res.json({ data: { steps: workflows.secretValues(find(req.params.id)) } });
  });

  router.post('/workflows/:id/run', async (req, res) => {
    const wf = find(req.params.id);
    const input = parseParams(req, runSchema);
    res.json({ data: await workflows.run(wf, input.event ?? workflows.manualEvent(wf)) });
  });

  router.post('/workflows/:id/steps/:step/test', async (req, res) => {
    const wf = find(req.params.id);
    const input = parseParams(req, stepTestSchema);
    const other = input.component_id ? ctx.library.find(input.component_id) : undefined;
    if (input.component_id && !other) throw notFound('component', input.component_id);
    if (other && other.type !== 'action') throw new HttpError(400, `component_id: ${other.id} is a source; workflow steps are actions`);
    const result = await workflows.testStep(wf, req.params.step, input);
    if (!result) throw notFound('step', req.params.step);
    res.json({ data: result });
  });

  router.get('/workflows/:id/runs', (req, res) => {
    res.json(paginate(workflows.runs(find(req.params.id)), parseParams(req, pageParams), (r) => r));
  });

  router.post('/workflows/:id/runs/:run/replay', async (req, res) => {
    const wf = find(req.params.id);
    const replay = workflows.replay(wf, req.params.run);
    if (!replay) throw notFound('run', req.params.run);
    res.json({ data: await replay });
  });

  router.get('/workflows/:id/event_summaries', (req, res) => {
    const wf = find(req.params.id);
    res.json(ctx.events.page(wf.id, {}, parseParams(req, pageParams), (e) => eventSummary(e, true)));
  });

  return router;
}
