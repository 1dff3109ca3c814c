import { Router } from 'express';
import { z } from 'zod';
import type { AccountView } from '../../contract/component-api';
import { newId } from '../../lib/ids';
import { pageParams, paginate } from '../../lib/pagination';
import { MASK } from '../../props/secret/secret-values';
import type { AccountRecord } from '../../store/metadata';
import { requireBearer } from '../edge/auth';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { objectParam, parseParams } from './params';

export const createSchema = z.object({
  app: z.string().regex(/^[a-z0-9_]+(?:[-_][a-z0-9]+)*$/, 'must be an app name slug such as "github" or "google_sheets"'),
  name: z.string().min(1).max(200).optional(),
  credentials: objectParam,
});

/** Credentials never leave in clear: each value shows as the mask. */
function accountView(a: AccountRecord, ctx: ApiContext): AccountView {
  const keys = Object.keys(JSON.parse(ctx.secrets.open(a.sealed_credentials)) as Record<string, unknown>);
  return { id: a.id, app: a.app, name: a.name, credentials: Object.fromEntries(keys.map((k) => [k, MASK])), ...(a.connect ? { external_user_id: a.connect.external_user_id } : {}), created_at: a.created_at };
}

/** Connected accounts (`apn_…`): credentials that app props receive as `$auth`. */
export function accountRoutes(ctx: ApiContext): Router {
  const router = Router();
  const data = () => ctx.metadata.data;

  router.post('/accounts', async (req, res) => {
    const input = parseParams(req, createSchema);
    const record: AccountRecord = {
      id: newId('apn'),
      app: input.app,
      name: input.name ?? input.app,
      sealed_credentials: ctx.secrets.seal(JSON.stringify(input.credentials)),
      created_at: Math.floor(Date.now() / 1000),
    };
    data().accounts.push(record);
    await ctx.metadata.write();
    res.json({ data: accountView(record, ctx) });
  });

  router.get('/accounts', (req, res) => {
    res.json(paginate([...data().accounts].reverse(), parseParams(req, pageParams), (a) => accountView(a, ctx)));
  });

  router.get('/accounts/:id', (req, res) => {
    const account = data().accounts.find((a) => a.id === req.params.id);
    if (!account) throw notFound('account', req.params.id);
    res.json({ data: accountView(account, ctx) });
  });

  router.get('/accounts/:id/credentials', (req, res) => {
    requireBearer(req);
    const account = data().accounts.find((a) => a.id === req.params.id);
    if (!account) throw notFound('account', req.params.id);
    res.json({ data: { credentials: JSON.parse(ctx.secrets.open(account.sealed_credentials)) as Record<string, unknown> } });
  });

  router.delete('/accounts/:id', async (req, res) => {
    const account = data().accounts.find((a) => a.id === req.params.id);
    if (!account) throw notFound('account', req.params.id);
    const users = data().sources.filter((s) => Object.values(s.configured_props).some((v) => (v as { authProvisionId?: string } | null)?.authProvisionId === account.id));
    if (users.length > 0) {
      throw new HttpError(409, `account ${account.id} is used by ${users.map((s) => s.id).join(', ')}; reconfigure or delete those sources first`);
    }
    data().accounts = data().accounts.filter((a) => a !== account);
    await ctx.metadata.write();
    res.status(204).end();
  });

  return router;
}
