import express, { type Express, type Router } from 'express';
import { accountRoutes } from './api/account-routes';
import { actionRoutes } from './api/action-routes';
import { allowedMethods } from './api/allowed-methods';
import type { ApiContext } from './api/api-context';
import { cassetteRoutes } from './api/cassette-routes';
import { componentRoutes } from './api/component-routes';
import { dataStoreRoutes } from './api/data-store-routes';
import { invocationRoutes } from './api/invocation-routes';
import { mcpSettingsRoutes } from './api/mcp-settings-routes';
import { openApiDocument } from './api/openapi';
import { payloadRoutes } from './api/payload-routes';
import { registryRoutes } from './api/registry-routes';
import { settingsRoutes } from './api/settings-routes';
import { sourceRoutes } from './api/source-routes';
import { sseRoutes } from './api/sse-routes';
import { streamRoutes } from './api/stream-routes';
import { subscriptionRoutes } from './api/subscription-routes';
import { syncRoutes } from './api/sync-routes';
import { uiLinkRoutes } from './api/ui-link-routes';
import { webhookDeliveryRoutes } from './api/webhook-delivery-routes';
import { webhookRoutes } from './api/webhook-routes';
import { workflowRoutes } from './api/workflow-routes';
import { connectApi, isConnectRequest } from './connect-api/connect-app';
import { connectLinkRoutes } from './connect-api/connect-link';
import { connectSettingsRoutes } from './connect-api/connect-settings-routes';
import { requireAuth } from './edge/auth';
import { hostGuard, isolationHeaders, sessionWriteGuard } from './edge/browser-guards';
import { errorHandler, HttpError, notFound } from './edge/error-statuses';
import { jsonBody } from './edge/json-body';
import type { McpEndpoint } from './mcp/mcp-endpoint';
import { uiRoutes } from './ui-routes';

/**
 * Every /v1 route (behind the key and the JSON parser), ending in a 405 with `Allow` for a known
 * path called with another method, and the 404 for any other path.
 */
export function v1Routes(ctx: ApiContext): Router {
  const v1 = express.Router();
  v1.use(
    webhookRoutes(ctx),
    webhookDeliveryRoutes(ctx),
    subscriptionRoutes(ctx),
    sourceRoutes(ctx),
    accountRoutes(ctx),
    dataStoreRoutes(ctx),
    registryRoutes(ctx),
    componentRoutes(ctx),
    actionRoutes(ctx),
    workflowRoutes(ctx),
    settingsRoutes(ctx),
    mcpSettingsRoutes(ctx),
    invocationRoutes(ctx),
    payloadRoutes(ctx),
    cassetteRoutes(ctx),
    syncRoutes(ctx),
    connectSettingsRoutes(ctx),
    uiLinkRoutes(ctx),
    streamRoutes(ctx),
  );
  v1.get('/openapi.json', (req, res) => {
    res.json(openApiDocument(`${req.protocol}://${req.get('host') ?? 'localhost'}`, process.env.SPOUT_VERSION ?? 'dev'));
  });
  v1.use((req, res) => {
    const allowed = allowedMethods(v1, req.path);
    if (allowed.length === 0) throw notFound('route', `${req.method} /v1${req.path}`);
    res.setHeader('allow', allowed.join(', '));
    throw new HttpError(405, `/v1${req.path} does not take ${req.method}; it takes ${allowed.join(', ')}`);
  });
  return v1;
}

/**
 * The HTTP app of the service: the /v1 API, SSE, the MCP endpoint and the UI, all behind the Host
 * and Origin checks and the key. (HTTP interface endpoints under `/e/` are served before it, see
 * http/ingress/endpoint-handler.ts.)
 */
export function createApp(ctx: ApiContext, mcp: McpEndpoint): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');

  app.use(hostGuard(ctx.auth, isConnectRequest), isolationHeaders);

  // The Connect API has its own credentials and CORS (docs/connect.md).
  app.use('/v1', connectApi(ctx));

  app.use('/v1', requireAuth(ctx.auth), sessionWriteGuard(), jsonBody({ limit: '10mb', strict: false }), v1Routes(ctx));

  app.use('/sse', requireAuth(ctx.auth), sseRoutes(ctx), (req) => {
    throw notFound('stream', `${req.method} /sse${req.path}`);
  });
  app.use('/mcp', mcp.router());
  app.use(connectLinkRoutes(ctx));
  app.use(uiRoutes(ctx.auth));
  app.use((req) => {
    throw new HttpError(404, `${req.method} ${req.path} is not a route of this service: the API is under /v1, event streams under /sse, the MCP server at /mcp, endpoints under /e`);
  });
  app.use(errorHandler);
  return app;
}
