import { Router } from 'express';
import { z } from 'zod';
import { newSigningSecret } from '../../delivery/signing';
import { newId } from '../../ids';
import type { WebhookRecord } from '../../store/metadata';
import type { ApiContext } from '../context';
import { paginate } from '../../pagination';
import { booleanParam, pageParams, parseParams } from '../params';
import { notFound } from '../problem';
import { attemptView, messageView, webhookView } from '../views';

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

const createSchema = z.object({
  url: webhookUrl,
  name: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
});

const updateSchema = z.object({
  url: webhookUrl.optional(),
  name: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  active: booleanParam.optional(),
});

/** Webhooks: create, list, read, update, delete (their subscriptions and pending messages go too). */
export function webhookRoutes(ctx: ApiContext): Router {
  const router = Router();
  const data = () => ctx.metadata.data;
  const find = (id: string): WebhookRecord => {
    const w = data().webhooks.find((x) => x.id === id);
    if (!w) throw notFound('webhook', id);
    return w;
  };

  router.post('/webhooks', async (req, res) => {
    const input = parseParams(req, createSchema);
    const secret = newSigningSecret();
    const now = Math.floor(Date.now() / 1000);
    const record: WebhookRecord = {
      id: newId('wh'),
      name: input.name ?? input.url,
      description: input.description ?? '',
      url: input.url,
      active: true,
      sealed_secret: ctx.secrets.seal(secret),
      created_at: now,
      updated_at: now,
    };
    data().webhooks.push(record);
    await ctx.metadata.write();
    ctx.delivery.syncWebhooks();
    res.json({ data: webhookView(record, secret) });
  });

  router.get('/users/me/webhooks', (req, res) => {
    res.json(paginate([...data().webhooks].reverse(), parseParams(req, pageParams), (w) => webhookView(w)));
  });

  router.get('/webhooks/:id', (req, res) => {
    res.json({ data: webhookView(find(req.params.id)) });
  });

  // The signing secret is shown at creation; this lets a user who lost it read it again.
  router.get('/webhooks/:id/secret', (req, res) => {
    res.json({ data: { signing_secret: ctx.secrets.open(find(req.params.id).sealed_secret) } });
  });

  router.put('/webhooks/:id', async (req, res) => {
    const w = find(req.params.id);
    const input = parseParams(req, updateSchema);
    Object.assign(w, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      updated_at: Math.floor(Date.now() / 1000),
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

  router.get('/webhooks/:id/messages', async (req, res) => {
    const w = find(req.params.id);
    const page = await ctx.delivery.messages(w.id, parseParams(req, pageParams));
    res.json({ ...page, data: page.data.map(messageView) });
  });

  router.get('/webhooks/:id/messages/:msg/attempts', async (req, res) => {
    const w = find(req.params.id);
    const page = await ctx.delivery.attempts(w.id, req.params.msg, parseParams(req, pageParams));
    if (!page) throw notFound('message', req.params.msg);
    res.json({ ...page, data: page.data.map(attemptView) });
  });

  return router;
}
