// Connect accounts and external users: an account belongs to one external user, and only server
// credentials read its credentials in clear (include_credentials).
import { type Response, Router } from 'express';
import { z } from 'zod';
import type { ConnectOwner } from '../../store/connect-records';
import type { AccountRecord } from '../../store/metadata';
import { parseJsonText, parseParams } from '../api/params';
import { HttpError } from '../edge/error-statuses';
import { callerOf, ownerFor, requireServer } from './connect-auth';
import { type ConnectContext, connectPage } from './connect-context';
import { requireAccountUrls } from './connect-local-targets';
import { accountQuerySchema, accountsListSchema, createAccountSchema, ownerQuerySchema, usersListSchema } from './connect-schemas';
import { dropTriggerDelivery } from './connect-trigger-webhooks';
import { accountView, maskedCredentials, userView } from './connect-views';

const cfmap = z.record(z.string(), z.unknown());

/** `…/accounts`, `…/apps/{app}/accounts`, `…/users…` */
export function connectAccountRoutes(ctx: ConnectContext): Router {
  const router = Router();
  const tenants = ctx.connect.tenants;

  /** An account as answered: credentials in clear only for server credentials that ask, else masked. */
  const view = async (res: Response, a: AccountRecord, include = false) => {
    const credentials = tenants.credentials(a);
    return accountView(a, await ctx.connect.catalog.find(a.app), include && !callerOf(res).token ? credentials : maskedCredentials(credentials));
  };
  /** The accounts the caller may see: a user's, or with server credentials and no user named, the project's. */
  const visible = (res: Response, externalUserId: string | undefined, app?: string): AccountRecord[] => {
    const { project, environment, token } = callerOf(res);
    if (token || externalUserId !== undefined) return tenants.accounts(ownerFor(res, externalUserId), app);
    return tenants.projectAccounts(project.id, environment, app);
  };
  const find = (res: Response, id: string, externalUserId?: string): AccountRecord => {
    const account = visible(res, externalUserId).find((a) => a.id === id);
    if (!account) throw new HttpError(404, `account ${id} was not found${callerOf(res).token || externalUserId ? ' for this external user' : ''}`);
    return account;
  };
  const remove = async (accounts: AccountRecord[]) => {
    const used = accounts.flatMap((a) => tenants.usersOf(a).map((s) => `${a.id} (by ${s.id})`));
    if (used.length > 0) throw new HttpError(409, `accounts in use by deployed triggers: ${used.join(', ')}; delete or reconfigure those triggers first`);
    await tenants.removeAccounts(accounts.map((a) => a.id));
  };

  router.get('/accounts', async (req, res) => {
    const q = parseParams(req, accountsListSchema);
    // No account is connected through an OAuth app offline (oauthApps.* answer 501): that filter keeps none.
    const accounts = q.oauth_app_id ? [] : [...visible(res, q.external_user_id, q.app)].reverse();
    const page = connectPage(
      accounts,
      q,
      (a) => a.id,
      (a) => a,
    );
    res.json({ ...page, data: await Promise.all(page.data.map((a) => view(res, a, q.include_credentials))) });
  });

  router.post('/accounts', async (req, res) => {
    const input = parseParams(req, createAccountSchema);
    if (input.app_override_id !== undefined) throw new HttpError(501, 'app_override_id: app overrides (appOverrides.*) are not available offline; connect the account with its fields alone (docs/connect.md)');
    const claims = await ctx.connect.projects.verify(input.connect_token);
    if (claims?.kind !== 'connect') throw new HttpError(400, 'connect_token: not a valid Connect token (wrong or expired); create one with tokens.create');
    const owner: ConnectOwner = { project_id: claims.project_id, environment: claims.environment, external_user_id: claims.external_user_id };
    if (owner.project_id !== callerOf(res).project.id) throw new HttpError(403, `the Connect token is for project ${owner.project_id}, not ${callerOf(res).project.id}`);
    if (input.external_user_id !== undefined && input.external_user_id !== owner.external_user_id) {
      throw new HttpError(400, `external_user_id "${input.external_user_id}" is not the user connect_token was made for ("${owner.external_user_id}"); make the token for that user`);
    }
    // A Connect token in the header acts only for its own user.
    ownerFor(res, owner.external_user_id);
    if (!(await ctx.connect.catalog.find(input.app_slug))) throw new HttpError(404, `app ${input.app_slug} was not found: no component of the local registry belongs to it`);
    let credentials: Record<string, unknown>;
    try {
      credentials = cfmap.parse(parseJsonText(input.cfmap_json, 'cfmap_json'));
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw new HttpError(400, 'cfmap_json: must be a JSON object of the account fields, e.g. {"api_key": "…"}');
    }
    // The fields come from the end user (the token's), whoever sends them.
    await requireAccountUrls(ctx, credentials, callerOf(res).project, 'cfmap_json');
    if (input.account_id === undefined) return void res.json(await view(res, await tenants.createAccount(owner, input.app_slug, input.name, credentials)));
    // A reconnect: the user's account of that app gets the new fields, and triggers using it see them.
    const existing = tenants.account(owner, input.account_id);
    if (!existing) throw new HttpError(404, `account_id: account ${input.account_id} was not found for external user "${owner.external_user_id}"`);
    if (existing.app !== input.app_slug) throw new HttpError(400, `account_id: account ${existing.id} is a ${existing.app} account, not ${input.app_slug}`);
    await tenants.reconnectAccount(existing, input.name, credentials);
    for (const source of tenants.usersOf(existing)) ctx.sources.reconfigure(source);
    res.json(await view(res, existing));
  });

  router.get('/accounts/:id', async (req, res) => {
    const q = parseParams(req, accountQuerySchema.extend(ownerQuerySchema.shape));
    res.json(await view(res, find(res, req.params.id, q.external_user_id), q.include_credentials));
  });

  router.delete('/accounts/:id', async (req, res) => {
    const q = parseParams(req, ownerQuerySchema);
    await remove([find(res, req.params.id, q.external_user_id)]);
    res.status(204).end();
  });

  router.delete('/apps/:app_id/accounts', async (req, res) => {
    const q = parseParams(req, ownerQuerySchema);
    const slug = req.params.app_id.replace(/^app_/, '');
    await remove(visible(res, q.external_user_id, slug));
    res.status(204).end();
  });

  router.get('/users/:external_user_id/accounts', async (req, res) => {
    const q = parseParams(req, accountQuerySchema);
    const accounts = tenants.accounts(ownerFor(res, req.params.external_user_id), q.app);
    res.json(await Promise.all(accounts.map((a) => view(res, a, q.include_credentials))));
  });

  router.get('/users', (req, res) => {
    requireServer(res, 'listing external users');
    const q = parseParams(req, usersListSchema);
    const { project, environment } = callerOf(res);
    const needle = q.q?.toLowerCase();
    const users = tenants.users(project.id, environment).filter((u) => !needle || u.external_user_id.toLowerCase().includes(needle));
    res.json(connectPage([...users].reverse(), q, (u) => u.id, userView));
  });

  router.delete('/users/:external_user_id', async (req, res) => {
    requireServer(res, 'deleting an external user');
    const owner = ownerFor(res, req.params.external_user_id);
    for (const source of tenants.triggers(owner)) {
      await ctx.sources.remove(source);
      dropTriggerDelivery(ctx, source.id);
    }
    await tenants.removeUser(owner);
    ctx.delivery.syncWebhooks();
    res.status(204).end();
  });

  return router;
}
