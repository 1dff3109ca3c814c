import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { newToken } from '../../lib/ids';
import { HttpError, sendProblem } from './error-statuses';
import type { SignInTokens } from './sign-in-tokens';

/** The service's credentials and the host names it answers to. */
export interface AuthConfig {
  apiKey: string;
  /** Host names (no port) a request may name in `Host`/`Origin`; guards against DNS rebinding. */
  allowedHosts: ReadonlySet<string>;
  /** Port the service listens on, to keep sessions of instances on other ports apart. */
  port: () => number;
  /** The one-time tokens of UI links (never the key itself). */
  signIn: SignInTokens;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Cookies of UI sessions start with this; the rest is the port. */
const SESSION_COOKIE_PREFIX = 'spout_session_';

/** Name of the UI session cookie; cookies ignore ports, so it carries the port. */
export function sessionCookieName(config: AuthConfig): string {
  return `${SESSION_COOKIE_PREFIX}${config.port()}`;
}

/**
 * A `Cookie` header without UI session cookies (this instance's or another's): the browser sends
 * them to endpoint URLs too, and component code must never see them. Undefined when nothing is left.
 */
export function withoutSessionCookies(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const kept = header.split(';').filter((part) => !part.trim().startsWith(SESSION_COOKIE_PREFIX));
  return kept.length > 0 ? kept.join(';').trim() : undefined;
}

/** True if a `Set-Cookie` value would set (or clear) a UI session cookie. */
export function setsSessionCookie(setCookie: string): boolean {
  return setCookie.trim().toLowerCase().startsWith(SESSION_COOKIE_PREFIX);
}

function sessionMac(apiKey: string, nonce: string): string {
  return createHmac('sha256', apiKey).update(`spout-session:${nonce}`).digest('base64url');
}

/** A new session value, signed with the API key: valid across restarts, void once the key changes. */
export function newSession(config: AuthConfig): string {
  const nonce = newToken(18);
  return `${nonce}.${sessionMac(config.apiKey, nonce)}`;
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** True if the request carries the API key as a bearer token or (unless `cookie` is false) a valid UI session cookie. */
export function isAuthorized(req: Request, config: AuthConfig, { cookie: sessions = true } = {}): boolean {
  const header = req.headers.authorization ?? '';
  if (header.startsWith('Bearer ')) return safeEqual(header.slice(7).trim(), config.apiKey);
  if (!sessions) return false;
  const session = cookie(req, sessionCookieName(config));
  if (!session) return false;
  const [nonce, mac] = session.split('.');
  return !!nonce && !!mac && safeEqual(mac, sessionMac(config.apiKey, nonce));
}

/** True if `token` is the API key. */
export function isApiKey(token: string, config: AuthConfig): boolean {
  return safeEqual(token, config.apiKey);
}

/** Sets the UI session cookie: HttpOnly, SameSite=Strict, so no other site can send it. */
export function setSessionCookie(res: Response, config: AuthConfig): void {
  res.cookie(sessionCookieName(config), newSession(config), { httpOnly: true, sameSite: 'strict', path: '/' });
}

/** Answers 401 unless the request is authorised; `cookie: false` takes the bearer key only (no UI session). */
export function requireAuth(config: AuthConfig, options: { cookie?: boolean } = {}): RequestHandler {
  return (req, res, next) => {
    if (isAuthorized(req, config, options)) return next();
    res.setHeader('WWW-Authenticate', 'Bearer realm="spout"');
    sendProblem(res, 401, 'missing or wrong API key: send "Authorization: Bearer <key>" (the key is in DATA_DIR/api-key)');
  };
}

/**
 * Refuses a request that is not signed with the API key as a bearer token, with `message` (403).
 * Secrets read in clear (`spout sync --with-secrets`) and UI sign-in links need the key itself: a UI
 * session cookie is refused, so a page (or a script injected into one) cannot get them.
 */
export function requireBearer(req: Request, message = 'secrets are read in clear only with the API key ("Authorization: Bearer <key>"), never with a browser session; use spout sync --with-secrets'): void {
  // requireAuth has already checked a bearer header against the key when one is present.
  if (!(req.headers.authorization ?? '').startsWith('Bearer ')) throw new HttpError(403, message);
}
