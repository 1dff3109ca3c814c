import path from 'node:path';
import { Router } from 'express';
import { newToken } from '../../lib/ids';
import { writePrivateFileSync } from '../../lib/private-files';
import { settingsPatchSchema } from '../../store/service-settings';
import { setSessionCookie } from '../edge/auth';
import { HttpError } from '../edge/error-statuses';
import type { ApiContext } from './api-context';

/** `GET` and `PATCH /v1/settings`, and `POST /v1/settings/api-key/rotate`. */
export function settingsRoutes(ctx: ApiContext): Router {
  const router = Router();
  const settings = ctx.settings;

  router.get('/settings', (_req, res) => {
    res.json({ data: { ...settings(), api_key_hint: ctx.auth.apiKey.slice(-4) } });
  });

  // Saved in the data dir and applied at once; a value given by flag at start stays in force for this run.
  router.patch('/settings', (req, res) => {
    const patch = settingsPatchSchema.parse(req.body ?? {});
    ctx.savedSettings.update(patch);
    res.json({ data: { ...settings(), api_key_hint: ctx.auth.apiKey.slice(-4) } });
  });

  router.post('/settings/api-key/rotate', (_req, res) => {
    const current = settings();
    if (current.api_key_source !== 'data_dir') {
      const from = current.api_key_source === 'env' ? 'SPOUT_API_KEY' : '--api-key';
      throw new HttpError(409, `the API key comes from ${from}; change it there and restart the service (only a key kept in the data dir is rotated here)`);
    }
    const key = `spk_${newToken(24)}`;
    const file = path.join(current.data_dir, 'api-key');
    // Write then rename: the CLI reads this file to reach the service and must never see half a key.
    writePrivateFileSync(file, `${key}\n`);
    ctx.auth.apiKey = key;
    // Links made with the old key must not sign anyone in after it was replaced.
    ctx.auth.signIn.clear();
    // Sessions are signed with the key: this browser's is renewed, every other one ends.
    setSessionCookie(res, ctx.auth);
    res.json({ data: { api_key: key } });
  });

  return router;
}
