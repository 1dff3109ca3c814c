// Who calls the Connect API, for which project and environment, and from which browser origin.
// Three credentials are taken, all as `Authorization: Bearer …`: the service's API key and an
// OAuth access token (server side, the whole instance), and a Connect token (one external user,
// usable from the browser origins it names).
import type { Request, RequestHandler, Response } from 'express';
import { DEFAULT_PROJECT_ID } from '../../engine/connect/connect-projects';
import type { ConnectClaims } from '../../engine/connect/connect-tokens';
import type { ConnectEnvironment, ConnectOwner, ConnectProjectRecord } from '../../store/connect-records';
import { isApiKey } from '../edge/auth';
import { HttpError } from '../edge/error-statuses';
import type { ConnectContext } from './connect-context';

/** What a request to the Connect API is allowed to see. */
export interface ConnectCaller {
  project: ConnectProjectRecord;
  environment: ConnectEnvironment;
  /** The Connect token's claims; null for server credentials (API key, access token). */
  token: ConnectClaims | null;
}

/** The caller of a request that passed connectAuth. */
export function callerOf(res: Response): ConnectCaller {
  return res.locals.connect as ConnectCaller;
}

/**
 * The external user a call acts for: a Connect token's own user (a different `external_user_id`
 * is refused), or with server credentials the one the request names.
 */
export function ownerFor(res: Response, externalUserId: string | undefined): ConnectOwner {
  const { project, environment, token } = callerOf(res);
  if (token) {
    if (externalUserId !== undefined && externalUserId !== token.external_user_id) {
      throw new HttpError(403, `this Connect token is for external user "${token.external_user_id}", not "${externalUserId}"`);
    }
    return { project_id: token.project_id, environment: token.environment, external_user_id: token.external_user_id };
  }
  if (!externalUserId) throw new HttpError(400, 'external_user_id: required; name the end user this call acts for');
  return { project_id: project.id, environment, external_user_id: externalUserId };
}

/** Refuses a Connect token: the call needs the project's server credentials. */
export function requireServer(res: Response, what: string): void {
  if (callerOf(res).token) throw new HttpError(403, `${what} needs server credentials (an OAuth access token or the API key), not a Connect token`);
}

/** The origin (`http://host:port`) the request was sent to. */
function servedOrigin(req: Request): string {
  return `http://${req.headers.host ?? ''}`.toLowerCase();
}

/** The environment a server call names (`x-pd-environment`), development when it names none. */
function environmentOf(req: Request): ConnectEnvironment {
  const named = req.headers['x-pd-environment'];
  if (named === undefined || named === '') return 'development';
  if (named === 'development' || named === 'production') return named;
  throw new HttpError(400, `x-pd-environment: "${String(named)}" is not an environment; send development or production`);
}

/** Headers a browser may send to the Connect API (what the frontend SDK sends). */
const ALLOWED_HEADERS = 'authorization, content-type, x-pd-environment, x-fern-language, x-fern-sdk-name, x-fern-sdk-version, x-fern-runtime, x-fern-runtime-version';

/**
 * Authenticates a Connect request and sets its caller (res.locals.connect); answers CORS
 * preflights. A request from another browser origin must carry a Connect token that lists that
 * origin in `allowed_origins`: server credentials never work from a page.
 */
export function connectAuth(ctx: ConnectContext): RequestHandler {
  return async (req, res, next) => {
    try {
      const origin = req.headers.origin;
      const foreign = origin !== undefined && origin.toLowerCase() !== servedOrigin(req);
      if (foreign) res.vary('Origin');
      if (req.method === 'OPTIONS') {
        // A preflight carries no credentials: it may go ahead, the request itself is checked.
        if (foreign && origin !== 'null') {
          res.set({ 'access-control-allow-origin': origin, 'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE', 'access-control-allow-headers': ALLOWED_HEADERS, 'access-control-max-age': '600' });
        }
        return void res.status(204).end();
      }
      const header = req.headers.authorization ?? '';
      const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
      if (!bearer) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="spout"');
        throw new HttpError(401, 'missing credentials: send "Authorization: Bearer <token>" with an OAuth access token (POST /v1/oauth/token), a Connect token, or the API key');
      }
      const claims = isApiKey(bearer, ctx.auth) ? null : await ctx.connect.projects.verify(bearer);
      if (!isApiKey(bearer, ctx.auth) && !claims) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="spout", error="invalid_token"');
        throw new HttpError(401, 'the bearer token is not valid here: it is wrong or has expired; get a new one (POST /v1/oauth/token, or tokens.create for a Connect token)');
      }
      const token = claims?.kind === 'connect' ? claims : null;
      if (foreign) {
        if (!token) throw new HttpError(403, `requests from origin ${origin} need a Connect token; server credentials (client secret, access token, API key) are never used from a browser page`);
        if (!token.allowed_origins.includes(origin as string)) {
          throw new HttpError(403, `this Connect token does not allow origin ${origin}; create it with allowed_origins: ["${origin}"]`);
        }
        res.set({ 'access-control-allow-origin': origin, 'access-control-expose-headers': 'content-type' });
      }
      const named = res.locals.projectId as string | undefined;
      const projectId = token ? token.project_id : (named ?? DEFAULT_PROJECT_ID);
      if (token && named !== undefined && named !== token.project_id) throw new HttpError(403, `this Connect token is for project ${token.project_id}, not ${named}`);
      const project = ctx.connect.projects.find(projectId);
      if (!project)
        throw new HttpError(
          404,
          `project ${projectId} was not found; this Spout's projects: ${ctx.connect.projects
            .list()
            .map((p) => p.id)
            .join(', ')} (spout connect credentials prints the one to use)`,
        );
      const caller: ConnectCaller = { project, environment: token ? token.environment : environmentOf(req), token };
      res.locals.connect = caller;
      next();
    } catch (err) {
      next(err);
    }
  };
}
