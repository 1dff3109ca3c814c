import { Router } from 'express';
import type { SignInLinkView } from '../../contract/settings-api';
import { requireBearer } from '../edge/auth';
import { signInLink } from '../edge/sign-in-tokens';
import type { ApiContext } from './api-context';

/** `POST /v1/ui/sign-in-links` (`spout ui`, the desktop app): a new one-time UI link, for the API key only. */
export function uiLinkRoutes(ctx: ApiContext): Router {
  const router = Router();
  router.post('/ui/sign-in-links', (req, res) => {
    // A page signed in with the cookie must not mint links that sign other browsers in.
    requireBearer(req, 'UI sign-in links are made with the API key ("Authorization: Bearer <key>"), never with a browser session; run spout ui');
    const { token, expiresAt } = ctx.auth.signIn.issue();
    const data: SignInLinkView = { url: signInLink(`${req.protocol}://${req.get('host') ?? 'localhost'}`, token), token, expires_at: new Date(expiresAt).toISOString() };
    res.json({ data });
  });
  return router;
}
