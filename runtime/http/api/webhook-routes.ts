import { Router } from 'express';
import { z } from 'zod';
import type { SecretRotationView } from '../../contract/webhook-api';
import { newWebhookRecord } from '../../delivery/webhook-targets';
import { MAX_RETRY_SECONDS } from '../../delivery/worker/retry';
import { newSigningSecret } from '../../delivery/worker/signing';
import { pageParams, paginate } from '../../lib/pagination';
import { nextVersion, requireBase } from '../../lib/record-versions';
import type { WebhookRecord } from '../../store/metadata';
import type { ApiContext } from './api-context';
import { baseVersionParam, changeOrigin } from './change-origin';
import { requireDeliveryTarget } from './delivery-target-check';
import { booleanParam, parseParams } from './params';
import { webhookView } from './views';
import { findWebhook } from './webhook-lookup';

const webhookUrl = z.string().refine(
  (value) => {
    try {
      const u = new URL(value);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  },
  { message: 'must be an http(s) URL with a host, such as http://127.0.0.1:4000/hook' },
);

const RETRY_SCHEDULE_HINT = `give seconds between attempts as a list such as [5, 300, 1800] (or "5,300,1800" in a query string), each 0 to ${MAX_RETRY_SECONDS}, at most 50 of them; null uses the service's schedule`;

/** A webhook's own retry schedule: a list of seconds (JSON) or `1,2,5` (query string); null for the service's. */
const retrySchedule = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const text = v.trim();
    if (text === 'null') return null;
    if (text === '') return [];
    if (text.startsWith('[')) {
      try {
        return JSON.parse(text);
      } catch {
        return v;
      }
    }
    return text.split(',').map((p) => (p.trim() === '' ? NaN : Number(p)));
  },
  z
    .array(z.number({ error: 'each entry must be a number of seconds' }).finite().min(0, 'each entry must be 0 seconds or more').max(MAX_RETRY_SECONDS, `each entry must be at most ${MAX_RETRY_SECONDS} seconds (a week)`), { error: RETRY_SCHEDULE_HINT })
    .max(50, 'at most 50 retries')
    .nullable(),
);

export const createSchema = z.object({
  url: webhookUrl,
  name: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  retry_schedule: retrySchedule.optional(),
});

export const updateSchema = z.object({
  url: webhookUrl.optional(),
  name: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  active: booleanParam.optional(),
  retry_schedule: retrySchedule.optional(),
  /** The version this change was based on: another is refused with 409 (docs/api.md "Versions"). */
  base_version: baseVersionParam.optional(),
});

/** Grace period of a rotation: 24 h unless given, at most a week. */
const DEFAULT_GRACE_SECONDS = 24 * 3600;
export const rotateSchema = z.object({
  grace_seconds: z.coerce
    .number({ error: 'grace_seconds must be a number of seconds' })
    .finite()
    .min(0, 'grace_seconds must not be negative')
    .max(7 * 24 * 3600, 'grace_seconds is at most a week (604800)')
    .default(DEFAULT_GRACE_SECONDS),
});

/** Rotated-out secrets kept signing at once, at most. */
const MAX_PREVIOUS_SECRETS = 5;

/** Webhooks: create, list, read, update, delete (their subscriptions and pending messages go too). */
export function webhookRoutes(ctx: ApiContext): Router {
  const router = Router();
  const data = () => ctx.metadata.data;
  const find = (id: string): WebhookRecord => findWebhook(ctx, id);

  router.post('/webhooks', async (req, res) => {
    const input = parseParams(req, createSchema);
    await requireDeliveryTarget(ctx, 'url', input.url);
    const { record, secret } = newWebhookRecord(input, ctx.secrets, changeOrigin(req));
    data().webhooks.push(record);
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
    res.json({ data: webhookView(record, secret) });
  });

  router.get('/users/me/webhooks', async (req, res) => {
    const page = parseParams(req, pageParams);
    const health = await ctx.delivery.health();
    res.json(paginate([...data().webhooks].reverse(), page, (w) => webhookView(w, undefined, health[w.id] ?? null)));
  });

  router.get('/webhooks/:id', async (req, res) => {
    const w = find(req.params.id);
    res.json({ data: webhookView(w, undefined, (await ctx.delivery.health())[w.id] ?? null) });
  });

  // The signing secret is shown at creation; this lets a user who lost it read it again.
  router.get('/webhooks/:id/secret', (req, res) => {
    res.json({ data: { signing_secret: ctx.secrets.open(find(req.params.id).sealed_secret) } });
  });

  // A new signing secret, shown once here; the old one keeps signing beside it for the grace period.
  router.post('/webhooks/:id/secret/rotate', async (req, res) => {
    const w = find(req.params.id);
    const input = parseParams(req, rotateSchema);
    const now = Date.now();
    const secret = newSigningSecret();
    // A grace of 0 (a leaked secret, say) stops every earlier secret at once.
    const expires = input.grace_seconds > 0 ? now + Math.round(input.grace_seconds * 1000) : null;
    const previous = expires === null ? [] : (w.previous_secrets ?? []).filter((p) => p.expires_at_ms > now);
    if (expires !== null) previous.unshift({ sealed_secret: w.sealed_secret, expires_at_ms: expires });
    w.sealed_secret = ctx.secrets.seal(secret);
    w.previous_secrets = previous.slice(0, MAX_PREVIOUS_SECRETS);
    w.updated_at = Math.floor(now / 1000);
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
    const view: SecretRotationView = { signing_secret: secret, previous_secret_expires_at: expires === null ? null : Math.floor(expires / 1000) };
    res.json({ data: view });
  });

  router.put('/webhooks/:id', async (req, res) => {
    const w = find(req.params.id);
    const input = parseParams(req, updateSchema);
    const change = { by: changeOrigin(req), base_version: input.base_version };
    requireBase('webhook', w, change);
    if (input.url !== undefined) await requireDeliveryTarget(ctx, 'url', input.url);
    // Checked again after the wait: another change may have landed meanwhile.
    requireBase('webhook', w, change);
    // Failures before a re-enable or a new URL do not count toward disabling it again.
    const fresh = (input.active === true && !w.active) || (input.url !== undefined && input.url !== w.url);
    const now = Math.floor(Date.now() / 1000);
    Object.assign(w, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(input.active === true ? { disabled_reason: null } : {}),
      ...(input.retry_schedule !== undefined ? { retry_schedule: input.retry_schedule } : {}),
      ...(fresh ? { failures_counted_from: Date.now() } : {}),
      ...nextVersion(w, change.by, now),
      updated_at: now,
    });
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
    res.json({ data: webhookView(w) });
  });

  router.delete('/webhooks/:id', async (req, res) => {
    const w = find(req.params.id);
    data().webhooks = data().webhooks.filter((x) => x.id !== w.id);
    data().subscriptions = data().subscriptions.filter((s) => s.listener_id !== w.id);
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
    res.status(204).end();
  });

  return router;
}
