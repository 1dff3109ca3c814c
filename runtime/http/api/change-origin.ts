// Who sent a change, read from the request, and the version it was based on (docs/api.md "Versions").
import type { Request } from 'express';
import { z } from 'zod';
import { CHANGE_ORIGINS, type ChangeOrigin, CLIENT_HEADER } from '../../contract/change-api';
import type { ChangeBy } from '../../lib/record-versions';
import { UI_REQUEST_HEADER } from '../edge/browser-guards';

/** `base_version` of an update: the version the change was based on. */
export const baseVersionParam = z.coerce.number({ error: 'base_version must be a version number, as the resource\u2019s view shows it' }).int().min(1);

/** Who sent the request: the UI (its own header), the client it names in `x-spout-client`, else `api`. */
export function changeOrigin(req: Request): ChangeOrigin {
  if (req.headers[UI_REQUEST_HEADER] !== undefined) return 'ui';
  const named = req.headers[CLIENT_HEADER];
  return CHANGE_ORIGINS.find((o) => o === named) ?? 'api';
}

/** The change a request makes: who, and the version it was based on. */
export function changeOf(req: Request, baseVersion: number | undefined): ChangeBy {
  return { by: changeOrigin(req), ...(baseVersion !== undefined ? { base_version: baseVersion } : {}) };
}
