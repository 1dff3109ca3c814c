// Secrets read in clear, for `spout sync --with-secrets` only: the API key itself must ask. A UI
// session cookie is refused, so a page (or a script injected into one) cannot read them.
import type { Request } from 'express';
import { HttpError } from '../edge/error-statuses';

/** Refuses a request that is not signed with the API key as a bearer token. */
export function requireBearer(req: Request): void {
  // requireAuth has already checked a bearer header against the key when one is present.
  if (!(req.headers.authorization ?? '').startsWith('Bearer ')) {
    throw new HttpError(403, 'secrets are read in clear only with the API key ("Authorization: Bearer <key>"), never with a browser session; use spout sync --with-secrets');
  }
}
