import { refusedTarget } from '../../delivery/target-policy';
import { HttpError } from '../edge/error-statuses';
import type { ApiContext } from './api-context';

/**
 * Refuses a webhook URL that deliveries may not go to (delivery/target-policy.ts) with a 4xx
 * naming `field` and the fix; `endUser` for a Connect token whose project keeps them off this machine.
 */
export function requireDeliveryTarget(ctx: ApiContext, field: string, url: string, endUser = false): void {
  const refused = refusedTarget(url, { servicePort: ctx.auth.port(), endUser });
  if (refused) throw new HttpError(refused.status, `${field}: ${refused.message}`);
}
