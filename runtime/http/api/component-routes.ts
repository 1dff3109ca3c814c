import { type Request, Router } from 'express';
import { z } from 'zod';
import { fetchComponentCode } from '../../components/fetch-code';
import { filesOf } from '../../components/library';
import type { ComponentCheckView, ComponentUse, ComponentView } from '../../contract/component-api';
import type { ConfigurableProp } from '../../contract/component-shape';
import { NETWORK_MODES } from '../../contract/network-api';
import type { SourceView } from '../../contract/source-api';
import type { NetworkUse } from '../../engine/sessions/component-sessions';
import { pageParams, paginate } from '../../lib/pagination';
import { checkConfiguredProps } from '../../props/configured-props';
import type { ComponentRecord } from '../../store/metadata';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { componentCode, componentFilename, componentUrl } from './component-input';
import { formProblem } from './form-problems';
import { parseParams } from './params';
import { registryComponent } from './registry-routes';

export const saveSchema = z.object({ component_code: componentCode.optional(), component_url: componentUrl.optional(), component_filename: componentFilename });

export const lintSchema = z.object({ component_code: componentCode, component_filename: componentFilename });

const configuredProps = z.record(z.string(), z.unknown()).optional();

/** The component (id `sc_…` or key) or deployed source (`dc_…`, its values as the base) a form configures; or `component_code`, not saved. */
const target = z.string().min(1, 'give the id or key of a saved component, or a dc_ source id');

/** Module text a form configures without saving it (instead of `id`). */
const unsavedTarget = { component_code: componentCode.optional(), component_filename: componentFilename };

/** How the component's calls are served while it is configured; a deployed source's own mode and cassette by default, else live. */
const networkMode = z.enum(NETWORK_MODES).optional();

export const configureSchema = z.object({
  id: target.optional(),
  ...unsavedTarget,
  network_mode: networkMode,
  prop_name: z.string().min(1),
  configured_props: configuredProps,
  page: z.number().int().min(0).optional(),
  prev_context: z.record(z.string(), z.unknown()).nullable().optional(),
  query: z.string().max(10_000).optional(),
});

export const propsSchema = z.object({ id: target.optional(), ...unsavedTarget, configured_props: configuredProps, network_mode: networkMode });

/** `DELETE /v1/components/{id or key}`: `unused_only` deletes only the versions nothing uses. */
export const deleteSchema = z.object({ unused_only: z.enum(['true', 'false']).optional() });

/** The props a form shows (its dynamic ones included) and the values typed so far. */
export const checkSchema = z.object({
  configurable_props: z.array(z.looseObject({ name: z.string().min(1), type: z.string().min(1) })).max(500),
  configured_props: configuredProps,
});

/** A saved component as the API lists it (no code, no bundle; the single read adds the code). */
export function componentView(c: ComponentRecord): ComponentView {
  return {
    id: c.id,
    key: c.key,
    name: c.name,
    version: c.version,
    type: c.type,
    description: c.description ?? null,
    code_hash: c.code_hash,
    configurable_props: c.configurable_props,
    warnings: c.warnings ?? [],
    created_at: c.created_at,
  };
}

/**
 * What a single read adds about a component's code: its original files when it keeps them, or,
 * for a registry component saved before they were kept, that `code` is its bundle.
 */
export function codeFiles(c: ComponentRecord): Pick<SourceView, 'files' | 'entry_file' | 'code_is_bundle'> {
  const files = filesOf(c);
  if (files) return files;
  return c.origin === 'registry' ? { code_is_bundle: true } : {};
}

/**
 * What runs each saved component version, by id: sources deployed from it, workflows with a step
 * of it, and the MCP tool it is (the newest saved version of an action's key, not hidden).
 */
function componentUsers(ctx: ApiContext): (componentId: string) => ComponentUse[] {
  const uses = new Map<string, ComponentUse[]>();
  const add = (componentId: string, use: ComponentUse) => uses.set(componentId, [...(uses.get(componentId) ?? []), use]);
  const { sources, workflows } = ctx.metadata.data;
  for (const s of sources) add(s.component_id, { kind: 'source', id: s.id, name: s.name });
  for (const w of workflows) for (const id of new Set(w.steps.map((step) => step.component_id))) add(id, { kind: 'workflow', id: w.id, name: w.name });
  for (const tool of ctx.mcp.catalog.savedEntries()) if (tool.exposed && tool.component) add(tool.component.id, { kind: 'mcp_tool', id: tool.name, name: tool.title });
  return (componentId) => uses.get(componentId) ?? [];
}

/** Saved components: save module text (validated), check it without saving, read by id or key. */
export function componentRoutes(ctx: ApiContext): Router {
  const router = Router();

  /** The module text and file name a save or a check was sent (fetched for `component_url`). */
  const sentCode = async (req: Request): Promise<{ code: string; filename: string }> => {
    const input = parseParams(req, saveSchema);
    if ((input.component_code === undefined) === (input.component_url === undefined)) throw new HttpError(400, 'give exactly one of component_code or component_url');
    const fetched = input.component_url === undefined ? undefined : await fetchComponentCode(input.component_url);
    return { code: fetched?.code ?? (input.component_code as string), filename: input.component_filename ?? fetched?.filename ?? 'component.mjs' };
  };

  router.post('/components', async (req, res) => {
    const { code, filename } = await sentCode(req);
    const component = await ctx.library.save(code, filename, ctx.describeSandbox);
    res.json({ data: componentView(component) });
  });

  // What saving would answer (400 with every problem, or the view), with nothing saved: the
  // editor's check, so checking code and reading its props pile up no components.
  router.post('/components/check', async (req, res) => {
    const { code, filename } = await sentCode(req);
    const component = await ctx.library.check(code, filename, ctx.describeSandbox);
    const saved = ctx.library.isSaved(component);
    const view: ComponentCheckView = { ...componentView(component), id: saved ? component.id : null, created_at: saved ? component.created_at : null };
    res.json({ data: view });
  });

  router.post('/components/lint', async (req, res) => {
    const input = parseParams(req, lintSchema);
    res.json({ data: await ctx.library.lint(input.component_code, input.component_filename ?? 'component.mjs', ctx.describeSandbox) });
  });

  /**
   * The component behind `id`, the values to configure it with (a source's own, overridden by the
   * request's), and how its calls are served: a source's forms replay and record with its own
   * mode and cassette, as its runs do.
   */
  const resolve = async (input: z.infer<typeof propsSchema>): Promise<{ component: ComponentRecord; configured: Record<string, unknown>; network: NetworkUse }> => {
    const { id, configured_props: configured = {}, network_mode: mode } = input;
    if ((id === undefined) === (input.component_code === undefined)) throw new HttpError(400, 'give exactly one of id (a saved component id or key, a registry key, or a dc_ source id) or component_code');
    if (id === undefined) {
      const component = await ctx.library.check(input.component_code as string, input.component_filename ?? 'component.mjs', ctx.describeSandbox);
      return { component, configured, network: { mode: mode ?? 'live' } };
    }
    const source = id.startsWith('dc_') ? ctx.sources.find(id) : undefined;
    // A key not saved yet may be the registry's (configuring it before deploying it).
    const component = source ? ctx.sources.component(source) : (ctx.library.find(id) ?? (/^(dc|sc)_/.test(id) ? undefined : await registryComponent(ctx, id)));
    if (!component) throw notFound(id.startsWith('dc_') ? 'source' : 'component', id);
    if (!source) return { component, configured, network: { mode: mode ?? 'live' } };
    return { component, configured: { ...ctx.sources.configuredValues(source), ...configured }, network: { mode: mode ?? source.network_mode ?? 'live', owner: source.id } };
  };

  router.post('/components/configure', async (req, res) => {
    const input = parseParams(req, configureSchema);
    const { component, configured, network } = await resolve(input);
    const answer = await ctx.sessions.options(
      component,
      {
        prop: input.prop_name,
        configured,
        page: input.page ?? 0,
        prevContext: input.prev_context ?? {},
        query: input.query,
      },
      network,
    );
    res.json(answer);
  });

  router.post('/components/props', async (req, res) => {
    const input = parseParams(req, propsSchema);
    const { component, configured, network } = await resolve(input);
    const { configurable_props, logs } = await ctx.sessions.props(component, configured, network);
    res.json({ data: { configurable_props }, logs });
  });

  // The form's inline validation: the very rules a deploy applies (checkConfiguredProps), each
  // problem also phrased for the field it belongs to (`field_message`).
  router.post('/components/props/check', (req, res) => {
    const input = parseParams(req, checkSchema);
    const props = input.configurable_props as ConfigurableProp[];
    const { problems } = checkConfiguredProps(
      props,
      input.configured_props ?? {},
      (id) => ctx.metadata.data.accounts.find((a) => a.id === id),
      (id) => ctx.dataStores.exists(id),
    );
    const errors = problems.map((p) => {
      const prop = props.find((x) => p.path === `configured_props.${x.name}`);
      return { ...p, prop: prop?.name ?? null, field_message: prop ? formProblem(prop, p.message) : p.message };
    });
    res.json({ data: { errors } });
  });

  router.get('/users/me/components', (req, res) => {
    const usedBy = componentUsers(ctx);
    res.json(paginate([...ctx.metadata.data.components].reverse(), parseParams(req, pageParams), (c) => ({ ...componentView(c), used_by: usedBy(c.id) })));
  });

  // A key deletes every saved version of it (with `unused_only`, those nothing uses); nothing a
  // source or workflow runs can go. An MCP tool is not pinned to a version: deleting its newest
  // makes the one before the tool (or removes the tool), so it does not hold a delete back.
  router.delete('/components/:id', async (req, res) => {
    const id = req.params.id;
    const unusedOnly = parseParams(req, deleteSchema).unused_only === 'true';
    const versions = ctx.metadata.data.components.filter((c) => (id.startsWith('sc_') ? c.id === id : c.key === id));
    if (versions.length === 0) throw notFound('component', id);
    const usedBy = componentUsers(ctx);
    const doomed = unusedOnly ? versions.filter((c) => usedBy(c.id).length === 0) : versions;
    const users = doomed.flatMap((c) => usedBy(c.id)).filter((u) => u.kind !== 'mcp_tool');
    if (users.length > 0) throw new HttpError(409, `component ${id} is used by ${users.map((u) => `${u.kind} ${u.id} (${u.name})`).join(', ')}; delete or change them first`);
    const ids = new Set(doomed.map((c) => c.id));
    await ctx.library.remove(ids);
    // Its test runs and cassette go with it.
    for (const gone of ids) await Promise.all([ctx.invocations.remove(gone), ctx.network.remove(gone)]);
    if (unusedOnly) res.json({ data: { deleted: [...ids] } });
    else res.status(204).end();
  });

  router.get('/components/:id', (req, res) => {
    const component = ctx.library.find(req.params.id);
    if (!component) throw notFound('component', req.params.id);
    res.json({ data: { ...componentView(component), code: component.code, filename: component.filename, ...codeFiles(component), used_by: componentUsers(ctx)(component.id) } });
  });

  return router;
}
