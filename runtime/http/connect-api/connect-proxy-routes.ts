// `…/proxy/{url64}`: a request to an upstream API sent with an external user's account. Headers
// named `x-pd-proxy-<name>` are forwarded as `<name>`; the body is forwarded as is.
import express, { Router } from 'express';
import { proxyCall, proxyUrl, withCredentials } from '../../engine/connect/proxy-call';
import { parseParams } from '../api/params';
import { HttpError } from '../edge/error-statuses';
import { callerOf, ownerFor, requireServer } from './connect-auth';
import type { ConnectContext } from './connect-context';
import { proxyConnectionPolicy, requireProxyTarget } from './connect-local-targets';
import { proxyQuerySchema } from './connect-schemas';

const FORWARDED = 'x-pd-proxy-';

/** Response headers not passed back (the service frames its own answer). */
const DROPPED = new Set(['content-length', 'transfer-encoding', 'connection', 'content-encoding', 'keep-alive']);

/** The URL a proxy path names: base64 (URL-safe or not) of an absolute URL or of a path. */
function decodeUrl(url64: string): string {
  const text = Buffer.from(url64.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  if (!text || /[\s\u0000-\u001f]/.test(text)) throw new HttpError(400, 'the proxy path must be the base64 (URL-safe) encoding of the URL to call');
  return text;
}

/** The Connect proxy. */
export function connectProxyRoutes(ctx: ConnectContext): Router {
  const router = Router();
  router.all('/proxy/:url64', express.raw({ type: () => true, limit: '10mb' }), async (req, res) => {
    // As Pipedream's: the proxy is for the app's server; a page never sends with a user's credentials.
    requireServer(res, 'the proxy');
    const q = parseParams(req, proxyQuerySchema);
    const owner = ownerFor(res, q.external_user_id);
    const account = ctx.connect.tenants.account(owner, q.account_id);
    if (!account) throw new HttpError(404, `account ${q.account_id} was not found for external user "${owner.external_user_id}"`);
    const credentials = ctx.connect.tenants.credentials(account);
    let url: string;
    try {
      url = proxyUrl(decodeUrl(req.params.url64), credentials);
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw new HttpError(400, (err as Error).message);
    }
    const { project } = callerOf(res);
    requireProxyTarget(ctx, url, project);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (name.startsWith(FORWARDED) && typeof value === 'string') headers[name.slice(FORWARDED.length)] = value;
    }
    if (typeof req.headers['content-type'] === 'string' && !headers['content-type']) headers['content-type'] = req.headers['content-type'];
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const answer = await proxyCall(ctx.network, account.id, q.network_mode ?? 'live', credentials, { method: req.method, url, headers: withCredentials(headers, credentials), body }, proxyConnectionPolicy(ctx, project));
    if (answer.problem) throw new HttpError(answer.status, answer.problem);
    for (const [name, value] of Object.entries(answer.headers)) if (!DROPPED.has(name.toLowerCase())) res.setHeader(name, value);
    res.status(answer.status).send(answer.body);
  });
  return router;
}
