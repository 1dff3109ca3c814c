// Connect tokens (`…/tokens`, validate), projects and their environment webhook.
import { Router } from 'express';
import type { ConnectTokenAnswer } from '../../contract/connect-api';
import { newWebhookRecord } from '../../delivery/webhook-targets';
import { requireDeliveryTarget } from '../api/delivery-target-check';
import { parseParams } from '../api/params';
import { HttpError } from '../edge/error-statuses';
import { callerOf, ownerFor, requireServer } from './connect-auth';
import { type ConnectContext, connectPage } from './connect-context';
import { CONNECT_LINK_PATH } from './connect-link';
import { connectPageSchema, createProjectSchema, createTokenSchema, setProjectWebhookSchema, updateProjectSchema, validateTokenSchema } from './connect-schemas';
import { regenerateKey, webhookView } from './connect-trigger-routes';
import { appView, projectView } from './connect-views';

/** Tokens, projects, the project environment's webhook. */
export function connectTokenRoutes(ctx: ConnectContext): Router {
  const router = Router();

  router.post('/tokens', async (req, res) => {
    requireServer(res, 'creating a Connect token');
    const input = parseParams(req, createTokenSchema);
    const owner = ownerFor(res, input.external_user_id);
    await ctx.connect.tenants.ensureUser(owner);
    const app = input.app_id?.replace(/^app_/, '') ?? null;
    const { token, claims } = await ctx.connect.projects.connectToken(owner, {
      allowed_origins: (input.allowed_origins ?? []).map((o) => new URL(o).origin),
      success_redirect_uri: input.success_redirect_uri ?? null,
      error_redirect_uri: input.error_redirect_uri ?? null,
      webhook_uri: input.webhook_uri ?? null,
      app,
      expires_in: input.expires_in,
    });
    const link = new URL(CONNECT_LINK_PATH, ctx.settings().url);
    link.searchParams.set('token', token);
    if (app) link.searchParams.set('app', app);
    const body: ConnectTokenAnswer = { token, expires_at: new Date(claims.exp * 1000).toISOString(), connect_link_url: link.toString() };
    res.json(body);
  });

  router.get('/tokens/:token/validate', async (req, res) => {
    const q = parseParams(req, validateTokenSchema);
    const claims = await ctx.connect.projects.verify(req.params.token);
    if (claims?.kind !== 'connect') return void res.json({ success: false, error: 'the Connect token is wrong or has expired' });
    const project = ctx.connect.projects.find(claims.project_id);
    const slug = (q.app_id ?? claims.app ?? '').replace(/^app_/, '');
    const app = slug ? await ctx.connect.catalog.find(slug) : undefined;
    if (slug && !app) return void res.json({ success: false, error: `app ${slug} has no components in the local registry` });
    res.json({
      success: true,
      project_id: claims.project_id,
      project_environment: claims.environment,
      ...(project?.app_name ? { project_app_name: project.app_name } : {}),
      ...(project?.support_email ? { project_support_email: project.support_email } : {}),
      ...(app ? { app: appView(app) } : {}),
      ...(claims.success_redirect_uri ? { success_redirect_uri: claims.success_redirect_uri } : {}),
      ...(claims.error_redirect_uri ? { error_redirect_uri: claims.error_redirect_uri } : {}),
    });
  });

  router.get('/projects/info', async (_req, res) => {
    res.json({ apps: (await ctx.connect.catalog.apps()).map((a) => ({ id: `app_${a.slug}`, name_slug: a.slug })) });
  });

  router.get('/projects', (req, res) => {
    requireServer(res, 'listing projects');
    const q = parseParams(req, connectPageSchema);
    res.json(connectPage(ctx.connect.projects.list(), q, (p) => p.id, projectView));
  });

  router.post('/projects', async (req, res) => {
    requireServer(res, 'creating a project');
    res.json(projectView(await ctx.connect.projects.create(parseParams(req, createProjectSchema))));
  });

  const project = (id: string) => {
    const found = ctx.connect.projects.find(id);
    if (!found) throw new HttpError(404, `project ${id} was not found`);
    return found;
  };

  router.get('/projects/:project_id', (req, res) => {
    requireServer(res, 'reading a project');
    res.json(projectView(project(req.params.project_id)));
  });

  router.patch('/projects/:project_id', async (req, res) => {
    requireServer(res, 'updating a project');
    const p = project(req.params.project_id);
    const input = parseParams(req, updateProjectSchema);
    Object.assign(p, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.app_name !== undefined ? { app_name: input.app_name } : {}),
      ...(input.support_email !== undefined ? { support_email: input.support_email } : {}),
      ...(input.allow_local_targets !== undefined ? { allow_local_targets: input.allow_local_targets } : {}),
      updated_at: Math.floor(Date.now() / 1000),
    });
    await ctx.metadata.write();
    // Its end users' webhooks are checked by the project's current rule.
    if (input.allow_local_targets !== undefined) ctx.delivery.syncWebhooks();
    res.json(projectView(p));
  });

  router.delete('/projects/:project_id', async (req, res) => {
    requireServer(res, 'deleting a project');
    const p = project(req.params.project_id);
    const data = ctx.metadata.data;
    const used = data.connect.users.some((u) => u.project_id === p.id) || data.sources.some((s) => s.connect?.project_id === p.id);
    if (used) throw new HttpError(409, `project ${p.id} has external users; delete them first (users.deleteExternalUser)`);
    data.connect.projects = data.connect.projects.filter((x) => x !== p);
    await ctx.metadata.write();
    res.status(204).end();
  });

  /** The project environment's webhook: where triggers deployed without a webhook_url deliver. */
  const envWebhook = (res: Parameters<typeof callerOf>[0]) => {
    const { project: p, environment } = callerOf(res);
    const id = p.webhooks?.[environment];
    return { p, environment, webhook: id ? ctx.metadata.data.webhooks.find((w) => w.id === id) : undefined };
  };

  router.get('/webhook', (_req, res) => {
    requireServer(res, "reading the project's webhook");
    const { webhook } = envWebhook(res);
    res.json(webhook ? { data: webhookView(ctx, webhook, false) } : {});
  });

  router.put('/webhook', async (req, res) => {
    requireServer(res, "setting the project's webhook");
    const input = parseParams(req, setProjectWebhookSchema);
    await requireDeliveryTarget(ctx, 'url', input.url);
    const { p, environment, webhook } = envWebhook(res);
    let secret: string | undefined;
    if (webhook) {
      webhook.url = input.url;
      webhook.updated_at = Math.floor(Date.now() / 1000);
    } else {
      const made = newWebhookRecord({ url: input.url, name: `${p.name} (${environment}) → ${input.url}`, description: `Connect project ${p.id} ${environment}: triggers deployed without a webhook_url` }, ctx.secrets, 'connect');
      ctx.metadata.data.webhooks.push(made.record);
      p.webhooks = { ...p.webhooks, [environment]: made.record.id };
      secret = made.secret;
    }
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
    const current = envWebhook(res).webhook;
    res.json({ data: { ...webhookView(ctx, current!, false), ...(secret ? { signing_key: secret } : {}) } });
  });

  router.delete('/webhook', async (_req, res) => {
    requireServer(res, "deleting the project's webhook");
    const { p, environment, webhook } = envWebhook(res);
    if (webhook) {
      const data = ctx.metadata.data;
      data.webhooks = data.webhooks.filter((w) => w !== webhook);
      data.subscriptions = data.subscriptions.filter((s) => s.listener_id !== webhook.id);
      const { [environment]: _gone, ...rest } = p.webhooks ?? {};
      p.webhooks = rest;
      await ctx.metadata.write();
      ctx.delivery.syncWebhooks();
    }
    res.status(204).end();
  });

  router.post('/webhook/regenerate_signing_key', async (_req, res) => {
    requireServer(res, "regenerating the project webhook's key");
    const { webhook } = envWebhook(res);
    if (!webhook) throw new HttpError(404, 'this project environment has no webhook; set one first (projectEnvironment.updateWebhook)');
    regenerateKey(ctx, webhook);
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
    res.json({ data: webhookView(ctx, webhook, true) });
  });

  return router;
}
