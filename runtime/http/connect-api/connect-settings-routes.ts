// `GET /v1/settings/connect`: what a server using `@pipedream/sdk` is configured with (the CLI's
// `spout connect credentials`, the Settings screen); `POST …/rotate` replaces the client id and secret.
import { Router } from 'express';
import type { ConnectCredentialsView } from '../../contract/connect-api';
import { DEFAULT_PROJECT_ID } from '../../engine/connect/connect-projects';
import type { ConnectContext } from './connect-context';

/** The project credentials, behind the /v1 API key. */
export function connectSettingsRoutes(ctx: ConnectContext): Router {
  const router = Router();
  const view = (c: { client_id: string; client_secret: string }): ConnectCredentialsView => ({ base_url: ctx.settings().url, project_id: DEFAULT_PROJECT_ID, ...c, environment: 'development' });

  router.get('/settings/connect', async (_req, res) => {
    res.json({ data: view(await ctx.connect.projects.credentials()) });
  });

  // Settings → Connect rotates with the UI's session, as it rotates the API key: the GET above shows
  // the secret to that session anyway, and a write with the cookie needs the UI's header and origin
  // (docs/security.md), which no other page can send.
  router.post('/settings/connect/rotate', async (_req, res) => {
    res.json({ data: view(await ctx.connect.projects.credentials(true)) });
  });

  return router;
}
