import { z } from 'zod';
import { refusedTarget } from '../../delivery/target-policy';
import { resolvesToThisMachine } from '../../lib/local-addresses';
import { HttpError } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { booleanParam } from './params';

/** `PUT /v1/settings/connect`: the default project's `allow_local_targets` (Settings → Connect). */
export const localTargetsSchema = z.object({ allow_local_targets: booleanParam });

/**
 * Refuses a webhook URL that deliveries may not go to (delivery/target-policy.ts) with a 4xx
 * naming `field` and the fix; `endUser` for a Connect token whose project keeps them off this machine.
 * A host name is looked up: one that resolves to this machine counts as this machine.
 */
export async function requireDeliveryTarget(ctx: ApiContext, field: string, url: string, endUser = false): Promise<void> {
  const resolvesHere = await resolvesToThisMachine(new URL(url).hostname);
  const refused = refusedTarget(url, { servicePort: ctx.auth.port(), endUser, resolvesHere });
  if (refused) throw new HttpError(refused.status, `${field}: ${refused.message}`);
}
