import fs from 'node:fs';
import path from 'node:path';
import { type Request, type Response, Router } from 'express';
import { rendererDir } from '../lib/paths';
import { type AuthConfig, isAuthorized, setSessionCookie } from './edge/auth';
import { sendProblem } from './edge/error-statuses';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // The code editor (monaco) writes style elements and style attributes at run time; scripts stay 'self' only.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const SIGN_IN_PAGE = `<!doctype html><meta charset="utf-8"><title>Spout</title>
<body style="font-family:system-ui;margin:3rem;max-width:40rem">
<h1>Spout</h1><p>This page needs a sign-in link: the one <code>spout serve</code> printed
(<code>UI: http://…/?token=…</code>), or a new one from <code>spout ui</code>. Each link signs in
one browser, once, within an hour; this browser then stays signed in.</p></body>`;

const ASSETS = path.join(rendererDir, 'assets');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
};

/** A name with a hash of the file's content (`app-5XQK3J2M.js`, scripts/build.js): it never changes. */
const HASHED = /-[A-Z0-9]{8}\.[a-z]+$/;

/**
 * One file of the renderer: the build's brotli or gzip copy when the browser takes it (the editor
 * is 4 MB as is, under 1 MB compressed), kept by the browser for a year when its name carries its
 * content's hash, else checked again each time. They stay behind the session cookie: `private`.
 */
function sendAsset(req: Request, res: Response): void {
  const file = String(req.params.file);
  const full = path.join(ASSETS, file);
  if (!/^[\w.-]+$/.test(file) || /\.(br|gz)$/.test(file) || !fs.existsSync(full)) return sendProblem(res, 404, `${req.originalUrl}: no such file of the UI (an old page after an update? reload it)`);
  const encoding = req.acceptsEncodings('br', 'gzip', 'identity');
  const copy = encoding === 'br' || encoding === 'gzip' ? `${full}.${encoding === 'br' ? 'br' : 'gz'}` : null;
  const compressed = copy !== null && fs.existsSync(copy);
  res.set({
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'cache-control': HASHED.test(file) ? 'private, max-age=31536000, immutable' : 'no-cache',
    vary: 'accept-encoding',
    ...(compressed ? { 'content-encoding': encoding } : {}),
  });
  res.sendFile(compressed ? copy : full, { acceptRanges: !compressed });
}

/**
 * 401 for the UI: the sign-in page for a browser navigating to it, a problem+json for any other
 * client (a script, a `fetch`), like every other error of the service.
 */
function signIn(req: Request, res: Response): void {
  if (req.accepts(['application/problem+json', 'text/html']) === 'text/html') return void res.status(401).type('html').send(SIGN_IN_PAGE);
  sendProblem(res, 401, 'not signed in: open a UI sign-in link in this browser (`spout ui` prints a new one; each works once, within an hour)');
}

/**
 * The renderer, served at `/` behind a session cookie. The first visit comes with `?token=<one-time
 * sign-in token>` (edge/sign-in-tokens.ts, never the API key): spent, it sets the cookie and
 * redirects to a clean URL, so the token stays in neither the address bar nor the history.
 */
export function uiRoutes(auth: AuthConfig): Router {
  const router = Router();
  const indexFile = path.join(rendererDir, 'index.html');

  router.use((req, res, next) => {
    res.set({ 'content-security-policy': CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
    const token = req.query.token;
    if (req.method === 'GET' && typeof token === 'string') {
      if (!auth.signIn.spend(token)) return signIn(req, res);
      setSessionCookie(res, auth);
      const clean = new URLSearchParams(req.query as Record<string, string>);
      clean.delete('token');
      const rest = clean.toString();
      return res.redirect(302, req.path + (rest ? `?${rest}` : ''));
    }
    if (!isAuthorized(req, auth)) return signIn(req, res);
    next();
  });
  router.use('/assets', (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    res.setHeader('allow', 'GET, HEAD');
    sendProblem(res, 405, `${req.method} ${req.originalUrl}: the UI's files only take GET`);
  });
  router.get('/assets/:file', sendAsset);
  // Every other GET is a client-side route of the single-page app.
  router.get('/{*path}', (_req, res) => {
    if (!fs.existsSync(indexFile)) return sendProblem(res, 503, 'the UI is not built: run `npm run build`');
    res.set('cache-control', 'no-store').sendFile(indexFile);
  });
  return router;
}
