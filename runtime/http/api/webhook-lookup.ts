import type { WebhookRecord } from '../../store/metadata';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';

/** The webhook with this id, or a 404. */
export function findWebhook(ctx: ApiContext, id: string): WebhookRecord {
  const w = ctx.metadata.data.webhooks.find((x) => x.id === id);
  if (!w) throw notFound('webhook', id);
  return w;
}

/** Manual attempts go to active webhooks only: an inactive one sends nothing (a 409 saying how to enable it). */
export function requireActive(w: WebhookRecord, what: string): void {
  if (w.active) return;
  const why = w.disabled_reason ? ` (${w.disabled_reason})` : '';
  throw new HttpError(409, `webhook ${w.id} is disabled${why}; enable it with PUT /v1/webhooks/${w.id} {"active": true} before ${what}`);
}
