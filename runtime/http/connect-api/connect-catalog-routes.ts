// Apps, app categories and components (all, actions, triggers): listed from the local registry,
// configured (async options, additionalProps) in the same warm sessions as /v1/components/configure.
import { type Response, Router } from 'express';
import type { RegistryComponent } from '../../components/registry';
import type { ConnectConfigureAnswer, ConnectReloadAnswer } from '../../contract/connect-api';
import type { CatalogApp } from '../../engine/connect/connect-catalog';
import { CATEGORIES } from '../../engine/connect/connect-catalog';
import { ConfigurationRejected, ConfigurationRequestError } from '../../lib/error-kinds';
import { newId } from '../../lib/ids';
import type { ComponentRecord } from '../../store/metadata';
import { parseParams } from '../api/params';
import { HttpError } from '../edge/error-statuses';
import { ownerFor } from './connect-auth';
import { type ConnectContext, componentFor, connectPage } from './connect-context';
import { appsListSchema, componentsListSchema, configurePropSchema, reloadPropsSchema, retrieveSchema } from './connect-schemas';
import { appView, componentView, observations } from './connect-views';

/** Which components a path lists: `/components` all, `/actions` and `/triggers` one type. */
const KINDS = { components: undefined, actions: 'action', triggers: 'source' } as const;

/** How long a list waits for the registry to be described before answering with what is. */
const LIST_WAIT_MS = 5000;

/** Refuses a configured value naming an account that is not the caller's user's. */
export function checkAccounts(ctx: ConnectContext, res: Response, externalUserId: string | undefined, configured: Record<string, unknown>) {
  const owner = ownerFor(res, externalUserId);
  const problems = ctx.connect.tenants.accountProblems(owner, configured);
  if (problems.length > 0) throw new HttpError(400, problems.map((p) => p.message).join('; '), problems);
  return owner;
}

/** What every component call starts with: its values (the caller's user's accounts only) and its component. */
export async function componentCall(ctx: ConnectContext, res: Response, input: { id: string; external_user_id?: string | undefined; configured_props?: Record<string, unknown> | undefined }, type?: ComponentRecord['type']) {
  const configured = input.configured_props ?? {};
  const owner = checkAccounts(ctx, res, input.external_user_id, configured);
  return { configured, owner, component: await componentFor(ctx, input.id, type) };
}

/** Apps, categories, and components of each kind. */
export function connectCatalogRoutes(ctx: ConnectContext): Router {
  const router = Router();

  const findApp = async (id: string): Promise<CatalogApp> => {
    const slug = id.startsWith('app_') ? id.slice(4) : id;
    const app = await ctx.connect.catalog.find(slug);
    if (!app) throw new HttpError(404, `app ${id} was not found: no component of the local registry belongs to it (an app is a folder of the registry tree with components)`);
    return app;
  };

  router.get('/apps', async (req, res) => {
    const q = parseParams(req, appsListSchema);
    const words = (q.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const categories = q.category_ids === undefined ? null : new Set([q.category_ids].flat());
    let apps = (await ctx.connect.catalog.apps()).filter((a) => words.every((w) => a.slug.includes(w) || a.name.toLowerCase().includes(w)) && (!categories || categories.has(a.category.id)) && (!q.has_actions || a.actions > 0) && (!q.has_triggers || a.triggers > 0));
    if (q.sort_key === 'name') apps = [...apps].sort((a, b) => a.name.localeCompare(b.name));
    if (q.sort_direction === 'desc') apps = [...apps].reverse();
    res.json(connectPage(apps, q, (a) => a.slug, appView));
  });

  router.get('/apps/:app_id', async (req, res) => {
    res.json({ data: appView(await findApp(req.params.app_id)) });
  });

  router.get('/app_categories', (_req, res) => {
    res.json(CATEGORIES);
  });

  router.get('/app_categories/:id', (req, res) => {
    const category = CATEGORIES.find((c) => c.id === req.params.id);
    if (!category) throw new HttpError(404, `app category ${req.params.id} was not found; the categories are ${CATEGORIES.map((c) => c.id).join(', ')}`);
    res.json(category);
  });

  for (const [path, only] of Object.entries(KINDS)) {
    router.get(`/${path}`, async (req, res) => {
      const q = parseParams(req, componentsListSchema);
      const type = only ?? (q.component_type === 'trigger' ? 'source' : q.component_type);
      await ctx.registry.refresh(LIST_WAIT_MS);
      const registry = q.registry === 'private' ? [] : q.q ? ctx.registry.search(q.q) : ctx.registry.list();
      const keys = new Set(registry.map((c) => c.key));
      // Components saved with a key (`spout publish`) are the project's private ones.
      const saved = q.registry === 'public' ? [] : ctx.metadata.data.components.filter((c) => c.key && !keys.has(c.key) && (!q.q || `${c.key} ${c.name}`.toLowerCase().includes(q.q.toLowerCase())));
      const all: Array<RegistryComponent | ComponentRecord> = [...registry, ...latestByKey(saved)];
      const matching = all.filter((c) => (!type || c.type === type) && (!q.app || appOf(c) === q.app));
      res.json(connectPage(matching, q, (c) => c.key ?? c.name, componentView));
    });

    router.get(`/${path}/:key`, async (req, res) => {
      parseParams(req, retrieveSchema);
      const entry = await ctx.registry.get(req.params.key);
      const component = entry ?? (await componentFor(ctx, req.params.key));
      if (only && component.type !== only) throw new HttpError(404, `${req.params.key} is ${component.type === 'action' ? 'an action' : 'a trigger'}, not ${only === 'action' ? 'an action' : 'a trigger'}; read it under /${component.type === 'action' ? 'actions' : 'triggers'}`);
      res.json({ data: componentView(component) });
    });

    router.post(`/${path}/configure`, async (req, res) => {
      const input = parseParams(req, configurePropSchema);
      const { configured, component } = await componentCall(ctx, res, input, only);
      try {
        const answer = await ctx.sessions.options(component, { prop: input.prop_name, configured, page: input.page ?? 0, prevContext: input.prev_context ?? {}, query: input.query });
        const body: ConnectConfigureAnswer = {
          options: answer.options,
          stringOptions: null,
          observations: observations(answer.logs, null),
          context: (answer.context as Record<string, unknown> | null) ?? null,
          errors: answer.errors,
        };
        res.json(body);
      } catch (err) {
        if (err instanceof ConfigurationRequestError) throw new HttpError(400, `${input.id}: ${err.message}`);
        throw err;
      }
    });

    router.post(`/${path}/props`, async (req, res) => {
      const input = parseParams(req, reloadPropsSchema);
      const { configured, component } = await componentCall(ctx, res, input, only);
      let body: ConnectReloadAnswer;
      try {
        const { configurable_props, logs } = await ctx.sessions.props(component, configured);
        body = { observations: observations(logs, null), errors: [], dynamicProps: { id: newId('dyp', 10), configurableProps: componentView({ ...component, configurable_props }).configurable_props } };
      } catch (err) {
        // A ConfigurationError is for the user, as Connect forms show it: in `errors`.
        if (!(err instanceof ConfigurationRejected)) throw err;
        body = { observations: [], errors: [err.message], dynamicProps: { id: newId('dyp', 10), configurableProps: componentView(component).configurable_props } };
      }
      res.json(body);
    });
  }

  return router;
}

/** The app a component belongs to: its registry folder, or for a saved one the key's prefix. */
function appOf(c: RegistryComponent | ComponentRecord): string {
  return 'app' in c ? c.app : ((c.key ?? '').split('-')[0] ?? '');
}

/** Of saved components sharing a key, the newest. */
function latestByKey(components: readonly ComponentRecord[]): ComponentRecord[] {
  const byKey = new Map<string, ComponentRecord>();
  for (const c of components) byKey.set(c.key as string, c);
  return [...byKey.values()];
}
