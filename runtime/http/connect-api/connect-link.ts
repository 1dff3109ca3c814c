// The local Connect Link: the page a Connect token's `connect_link_url` opens, where the end user
// enters the fields an app's account holds, which makes the account for that external user (the
// offline stand-in for an OAuth sign-in). Server-rendered, with a strict CSP of its own.
import { randomBytes } from 'node:crypto';
import express, { type Response, Router } from 'express';
import { z } from 'zod';
import type { CatalogApp } from '../../engine/connect/connect-catalog';
import type { ConnectClaims } from '../../engine/connect/connect-tokens';
import type { ConnectContext } from './connect-context';
import { requireAccountUrls } from './connect-local-targets';
import { accountView } from './connect-views';

/** Where connect_link_url points. */
export const CONNECT_LINK_PATH = '/connect/link';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const formSchema = z.object({ token: z.string().min(1), app: z.string().min(1), account_name: z.string().max(200).optional() }).catchall(z.string().max(10_000));

/** A whole page: its own CSP (an inline style by nonce, no script, forms to this origin only). */
function page(res: Response, status: number, title: string, body: string): void {
  const nonce = randomBytes(12).toString('base64');
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} · Spout Connect</title>` +
        `<style nonce="${nonce}">body{font:15px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1e293b}label{display:block;margin:.8rem 0 .2rem;font-weight:600}input{width:100%;padding:.45rem;box-sizing:border-box}button{margin-top:1.2rem;padding:.5rem 1.2rem}.note{color:#64748b;font-size:13px}.error{color:#b91c1c}</style>` +
        `</head><body><h1>${escapeHtml(title)}</h1>${body}<p class="note">Spout's local Connect Link: the account is kept on this machine, encrypted.</p></body></html>`,
    );
}

/** The page that connects an account for the token's external user. */
export function connectLinkRoutes(ctx: ConnectContext): Router {
  const router = Router();

  const claimsOf = async (token: unknown): Promise<ConnectClaims | null> => {
    if (typeof token !== 'string') return null;
    const claims = await ctx.connect.projects.verify(token);
    return claims?.kind === 'connect' ? claims : null;
  };
  const expired = (res: Response) => page(res, 401, 'This link has expired', '<p class="error">The Connect token in this link is wrong or has expired. Ask the app that sent you here for a new link.</p>');

  const form = (res: Response, token: string, app: CatalogApp, error?: string) => {
    const fields = app.fields.length ? app.fields : [];
    const inputs = fields.map((f) => `<label for="f_${escapeHtml(f)}">${escapeHtml(f)}</label><input id="f_${escapeHtml(f)}" name="${escapeHtml(f)}" ${/secret|key|token|password/i.test(f) ? 'type="password"' : 'type="text"'} autocomplete="off" required>`).join('');
    page(
      res,
      error ? 400 : 200,
      `Connect ${app.name}`,
      `${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}<p>${fields.length ? `Enter the credentials of your ${escapeHtml(app.name)} account.` : `${escapeHtml(app.name)} needs no credentials.`}</p>` +
        `<form method="post" action="${CONNECT_LINK_PATH}"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="app" value="${escapeHtml(app.slug)}">` +
        `<label for="account_name">Account name</label><input id="account_name" name="account_name" type="text" placeholder="${escapeHtml(app.name)}">${inputs}<button type="submit">Connect</button></form>`,
    );
  };

  router.get(CONNECT_LINK_PATH, async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const claims = await claimsOf(token);
    if (!claims) return expired(res);
    const slug = (typeof req.query.app === 'string' ? req.query.app : claims.app) ?? '';
    const apps = await ctx.connect.catalog.apps();
    const app = apps.find((a) => a.slug === slug.replace(/^app_/, ''));
    if (app) return form(res, token, app);
    const links = apps
      .filter((a) => a.auth_type !== 'none')
      .map((a) => `<li><a href="${CONNECT_LINK_PATH}?token=${encodeURIComponent(token)}&amp;app=${encodeURIComponent(a.slug)}">${escapeHtml(a.name)}</a></li>`)
      .join('');
    page(res, slug ? 404 : 200, 'Connect an account', `${slug ? `<p class="error">No app ${escapeHtml(slug)} in the local registry.</p>` : ''}<p>Choose the app to connect:</p><ul>${links || '<li>No app of the local registry takes credentials.</li>'}</ul>`);
  });

  router.post(CONNECT_LINK_PATH, express.urlencoded({ extended: false, limit: '100kb' }), async (req, res) => {
    const parsed = formSchema.safeParse(req.body);
    const claims = parsed.success ? await claimsOf(parsed.data.token) : null;
    if (!parsed.success || !claims) return expired(res);
    const { token, app: slug, account_name, ...rest } = parsed.data;
    const app = await ctx.connect.catalog.find(slug);
    if (!app) return expired(res);
    const credentials = Object.fromEntries(app.fields.map((f) => [f, rest[f] ?? '']));
    const missing = app.fields.filter((f) => !credentials[f]);
    if (missing.length > 0) return form(res, token, app, `Fill in ${missing.join(', ')}.`);
    const project = ctx.connect.projects.find(claims.project_id);
    if (!project) return expired(res);
    try {
      await requireAccountUrls(ctx, credentials, project, 'account');
    } catch (err) {
      return form(res, token, app, (err as Error).message);
    }
    const owner = { project_id: claims.project_id, environment: claims.environment, external_user_id: claims.external_user_id };
    const account = await ctx.connect.tenants.createAccount(owner, app.slug, account_name || undefined, credentials);
    if (claims.webhook_uri) notify(claims.webhook_uri, { event: 'CONNECTION_SUCCESS', connect_token: token, environment: claims.environment, account: accountView(account, app) });
    if (claims.success_redirect_uri) return res.redirect(303, claims.success_redirect_uri);
    page(res, 200, `${app.name} connected`, `<p>Your ${escapeHtml(app.name)} account is connected (<code>${escapeHtml(account.id)}</code>). You can close this page.</p>`);
  });

  return router;
}

/** Posts a connection webhook once (a failure is logged: Connect's connection webhooks are a notice). */
function notify(url: string, payload: unknown): void {
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload), signal: AbortSignal.timeout(15_000) }).catch((err: Error) => console.error(`Connect webhook ${url}: ${err.message}`));
}
