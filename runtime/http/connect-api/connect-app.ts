// The local Pipedream Connect API (docs/connect.md): `/v1/oauth/token` and everything under
// `/v1/connect[/{project_id}]/…`, with its own credentials and CORS, mounted before the /v1 API.
import express, { type Request, Router } from 'express';
import type { OAuthTokenAnswer } from '../../contract/connect-api';
import { allowedMethods } from '../api/allowed-methods';
import { parseParams } from '../api/params';
import { HttpError } from '../edge/error-statuses';
import { jsonBody } from '../edge/json-body';
import { connectAccountRoutes } from './connect-account-routes';
import { connectAuth } from './connect-auth';
import { connectCatalogRoutes } from './connect-catalog-routes';
import type { ConnectContext } from './connect-context';
import { connectProxyRoutes } from './connect-proxy-routes';
import { connectRunRoutes } from './connect-run-routes';
import { oauthTokenSchema } from './connect-schemas';
import { connectTokenRoutes } from './connect-token-routes';
import { connectTriggerRoutes } from './connect-trigger-routes';
import { connectUnavailableRoutes } from './connect-unavailable';

/** Requests a page of another origin may make (they are checked by connectAuth instead of the Origin guard). */
export function isConnectRequest(req: Request): boolean {
  return req.path.startsWith('/v1/connect/');
}

/** `/oauth/token` and `/connect/…`, for mounting at /v1; other paths fall through. */
export function connectApi(ctx: ConnectContext): Router {
  const router = Router();

  router.post('/oauth/token', ...jsonBody({ limit: '100kb' }), express.urlencoded({ extended: false, limit: '100kb' }), async (req, res) => {
    const input = parseParams(req, oauthTokenSchema);
    const issued = await ctx.connect.projects.accessToken(input.client_id, input.client_secret);
    if (!issued) {
      // RFC 6749 5.2: a client that fails to authenticate is `invalid_client`.
      res.setHeader('WWW-Authenticate', 'Basic realm="spout"');
      return void res.status(401).json({ error: 'invalid_client', error_description: 'wrong client_id or client_secret; spout connect credentials prints them' });
    }
    const body: OAuthTokenAnswer = { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expires_in };
    res.set('cache-control', 'no-store').json(body);
  });

  const connect = Router();
  // `/v1/connect/{project_id}/…` and the project-less paths the browser SDK calls read the same.
  connect.use((req, res, next) => {
    const m = /^\/(proj_[A-Za-z0-9]+)(\/.*)?$/.exec(req.url);
    if (m) {
      res.locals.projectId = m[1];
      req.url = m[2] ?? '/';
    }
    next();
  });
  connect.use(connectAuth(ctx));
  // The proxy forwards bodies as they came: before the JSON parser.
  connect.use(connectProxyRoutes(ctx));
  connect.use(jsonBody({ limit: '10mb', strict: false }));
  const routes = Router();
  routes.use(connectUnavailableRoutes(), connectCatalogRoutes(ctx), connectRunRoutes(ctx), connectTriggerRoutes(ctx), connectAccountRoutes(ctx), connectTokenRoutes(ctx));
  connect.use(routes);
  connect.use((req, res) => {
    const allowed = allowedMethods(routes, req.path);
    if (allowed.length === 0) throw new HttpError(404, `${req.method} /v1/connect${req.path} is not an endpoint of the Connect API (docs/connect.md lists them)`);
    res.setHeader('allow', allowed.join(', '));
    throw new HttpError(405, `/v1/connect${req.path} does not take ${req.method}; it takes ${allowed.join(', ')}`);
  });
  router.use('/connect', connect);
  return router;
}
