// What keeps other web pages away from the API, the streams and the UI: the Host check (DNS
// rebinding), the Origin check (another page, another port), and the rules a browser session's
// writes must meet (CSRF). Bearer-key clients never carry an Origin and pass untouched.
import type { Request, RequestHandler } from 'express';
import type { UiRequestHeader } from '../../contract/settings-api';
import type { AuthConfig } from './auth';
import { sendProblem } from './error-statuses';

/** The header the UI sends on every /v1 call; a browser session's write without it is refused. */
export const UI_REQUEST_HEADER: UiRequestHeader = 'x-spout-ui';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostnameOf(hostHeader: string): string {
  // `[::1]:7620` → `[::1]`; `localhost:7620` → `localhost`
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(hostHeader.trim().toLowerCase());
  return m?.[1] ?? '';
}

/** The origin (`http://host:port`) a request was sent to, as the browser names it; null if `Host` is unusable. */
function servedOrigin(req: Request): string | null {
  try {
    return new URL(`http://${req.headers.host ?? ''}`).origin;
  } catch {
    return null;
  }
}

/** `Origin`/`Referer` reduced to an origin; null for `null`, an opaque or an unparsable one. */
function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Refuses requests whose `Host` is not a name of this service (a page elsewhere that re-points
 * its host name at 127.0.0.1 cannot reach the API or the UI), and requests a browser sent from
 * any other origin, another port of 127.0.0.1 or an opaque `Origin: null` included.
 */
export function hostGuard(config: AuthConfig, checkedElsewhere: (req: Request) => boolean = () => false): RequestHandler {
  return (req, res, next) => {
    if (!req.headers.host) return sendProblem(res, 400, `the request has no Host header; send "Host: 127.0.0.1:${config.port()}"`);
    if (!config.allowedHosts.has(hostnameOf(req.headers.host))) {
      return sendProblem(res, 403, `requests for host "${req.headers.host}" are refused; use http://127.0.0.1:${config.port()}`);
    }
    const origin = req.headers.origin;
    // Routes that check the origin themselves (the Connect API's CORS) skip the origin rule, not the Host rule.
    if (origin !== undefined && !checkedElsewhere(req)) {
      if (origin === 'null') return sendProblem(res, 403, 'requests from an opaque origin (Origin: null: a sandboxed frame, a local file, a redirect) are refused');
      if (originOf(origin) !== servedOrigin(req)) return sendProblem(res, 403, `requests from origin ${origin} are refused: only the Spout UI at ${servedOrigin(req)} may call this service from a browser`);
    }
    next();
  };
}

/**
 * CSRF guard of /v1 writes made with the UI's session cookie (the browser attaches it for any page
 * of the same host, whatever its port): the request must come from the served origin, by its
 * `Origin` or else its `Referer`, and carry the UI's header, which no page of another origin can
 * send without a CORS preflight this service never grants. Reads and bearer-key calls pass.
 */
export function sessionWriteGuard(): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || (req.headers.authorization ?? '').startsWith('Bearer ')) return next();
    const from = req.headers.origin ?? req.headers.referer;
    if (from === undefined || originOf(from) !== servedOrigin(req)) {
      return sendProblem(res, 403, `a browser session may change things only from the Spout UI at ${servedOrigin(req)} (this request names ${from === undefined ? 'no origin' : `origin ${from}`}); scripts send "Authorization: Bearer <key>" instead`);
    }
    if (!req.headers[UI_REQUEST_HEADER]) {
      return sendProblem(res, 403, `a browser session's write must carry the "${UI_REQUEST_HEADER}" header, as the Spout UI does; scripts send "Authorization: Bearer <key>" instead`);
    }
    next();
  };
}

/**
 * Headers on everything the app serves (API, streams, UI): no other origin may embed or sniff a
 * response, even one a `no-cors` request fetched with the session cookie.
 */
export const isolationHeaders: RequestHandler = (_req, res, next) => {
  res.set({ 'cross-origin-resource-policy': 'same-origin', 'x-content-type-options': 'nosniff' });
  next();
};
