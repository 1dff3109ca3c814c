// `GET /v1/settings/connect`: what a server using `@pipedream/sdk` is configured with (the CLI's
// `spout connect credentials`, the Settings screen); `POST …/rotate` replaces the client id and secret;
// `PUT` changes the default project's settings (whether its end users may reach this machine).
import { Router } from 'express';
import type { ConnectCredentialsView } from '../../contract/connect-api';
import { DEFAULT_PROJECT_ID } from '../../engine/connect/connect-projects';
import { localTargetsSchema } from '../api/delivery-target-check';
import { parseParams } from '../api/params';
import type { ConnectContext } from './connect-context';

/** The project credentials, behind the /v1 API key. */
export function connectSettingsRoutes(ctx: ConnectContext): Router {
  const router = Router();
  const project = () => ctx.connect.projects.find(DEFAULT_PROJECT_ID)!;
  const view = (c: { client_id: string; client_secret: string }): ConnectCredentialsView => ({
    base_url: ctx.settings().url,
    project_id: DEFAULT_PROJECT_ID,
    ...c,
    environment: 'development',
    allow_local_targets: project().allow_local_targets === true,
  });

  router.get('/settings/connect', async (_req, res) => {
    res.json({ data: view(await ctx.connect.projects.credentials()) });
  });

  // Settings → Connect's switch; the same as PATCH /v1/connect/projects/proj_local.
  router.put('/settings/connect', async (req, res) => {
    const input = parseParams(req, localTargetsSchema);
    Object.assign(project(), { allow_local_targets: input.allow_local_targets, updated_at: Math.floor(Date.now() / 1000) });
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
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
