import type { ChangeOrigin } from '../contract/change-api';
import type { WebhookTarget } from '../contract/delivery-protocol';
import { newId } from '../lib/ids';
import { firstVersion } from '../lib/record-versions';
import type { Metadata, WebhookRecord } from '../store/metadata';
import type { SecretBox } from '../store/secrets';
import { newSigningSecret } from './worker/signing';

/** A new webhook (its signing secret sealed), made by `by`, and the secret in clear to show once. */
export function newWebhookRecord(input: { url: string; name?: string; description?: string; retry_schedule?: number[] | null }, secrets: SecretBox, by: ChangeOrigin): { record: WebhookRecord; secret: string } {
  const secret = newSigningSecret();
  const now = Math.floor(Date.now() / 1000);
  const record: WebhookRecord = {
    id: newId('wh'),
    name: input.name ?? input.url,
    description: input.description ?? '',
    url: input.url,
    active: true,
    sealed_secret: secrets.seal(secret),
    retry_schedule: input.retry_schedule ?? null,
    ...firstVersion(by, now),
    created_at: now,
    updated_at: now,
  };
  return { record, secret };
}

/**
 * A webhook record as the delivery thread needs it: secrets opened, expired rotated-out ones left
 * out; `allowsLocal` tells whether the Connect project whose end user set it lets it reach this machine.
 */
export function webhookTarget(w: WebhookRecord, openSecret: (sealed: string) => string, allowsLocal: (projectId: string) => boolean = () => false, now = Date.now()): WebhookTarget {
  return {
    id: w.id,
    url: w.url,
    active: w.active,
    paused: w.paused === true,
    secret: openSecret(w.sealed_secret),
    previous_secrets: (w.previous_secrets ?? []).filter((p) => p.expires_at_ms > now).map((p) => ({ secret: openSecret(p.sealed_secret), expires_at_ms: p.expires_at_ms })),
    retry_schedule: w.retry_schedule ?? null,
    failures_counted_from: w.failures_counted_from ?? 0,
    end_user_project: w.end_user_project && !allowsLocal(w.end_user_project) ? w.end_user_project : null,
  };
}

/** Marks a webhook inactive because delivery gave up on it, keeping why; a no-op if it is gone or already inactive. */
export async function disableWebhook(metadata: Metadata, webhookId: string, reason: string): Promise<void> {
  const w = metadata.data.webhooks.find((x) => x.id === webhookId);
  if (!w?.active) return;
  w.active = false;
  w.disabled_reason = reason;
  w.updated_at = Math.floor(Date.now() / 1000);
  await metadata.write();
}
