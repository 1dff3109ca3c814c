import { Router } from 'express';
import { z } from 'zod';
import { newId } from '../../lib/ids';
import { pageParams, paginate } from '../../lib/pagination';
import type { SubscriptionRecord } from '../../store/metadata';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { parseParams } from './params';
import { subscriptionView } from './views';

export const subscriptionSchema = z.object({
  emitter_id: z.string().regex(/^(dc|p)_(\*|[A-Za-z0-9]+)$/, 'must be a source id (dc_…), a workflow id (p_…), or the glob dc_* or p_*'),
  listener_id: z.string().regex(/^(wh|dc|p)_[A-Za-z0-9]+$/, 'must be a webhook (wh_…), source (dc_…) or workflow (p_…) id'),
  event_name: z.string().min(1).max(200).optional(),
});

export const autoSchema = z.object({
  event_name: z.string().min(1).max(200),
  listener_id: subscriptionSchema.shape.listener_id,
});

/** Subscriptions link an emitter (or a glob of them) to a listener, on one channel. */
export function subscriptionRoutes(ctx: ApiContext): Router {
  const router = Router();
  const data = () => ctx.metadata.data;

  const check = (input: z.infer<typeof subscriptionSchema>) => {
    const { emitter_id, listener_id } = input;
    if (!emitter_id.endsWith('*')) {
      if (emitter_id.startsWith('p_') ? !ctx.workflows.find(emitter_id) : !ctx.sources.find(emitter_id)) {
        throw notFound(emitter_id.startsWith('p_') ? 'workflow' : 'source', emitter_id);
      }
    }
    checkListener(listener_id);
  };
  /** A listener must exist: a webhook, or a source or workflow that then runs with each event. */
  const checkListener = (listenerId: string) => {
    const kind = listenerId.startsWith('dc_') ? 'source' : listenerId.startsWith('p_') ? 'workflow' : 'webhook';
    const exists = kind === 'source' ? ctx.sources.find(listenerId) : kind === 'workflow' ? ctx.workflows.find(listenerId) : data().webhooks.find((w) => w.id === listenerId);
    if (!exists) throw notFound(kind, listenerId);
  };
  const same = (input: z.infer<typeof subscriptionSchema>) => (s: SubscriptionRecord) => s.emitter_id === input.emitter_id && s.listener_id === input.listener_id && s.event_name === (input.event_name ?? null);

  router.post('/subscriptions', async (req, res) => {
    const input = parseParams(req, subscriptionSchema);
    check(input);
    let sub = data().subscriptions.find(same(input));
    if (!sub) {
      sub = { id: newId('sub'), emitter_id: input.emitter_id, listener_id: input.listener_id, event_name: input.event_name ?? null, created_at: Math.floor(Date.now() / 1000) };
      data().subscriptions.push(sub);
      await ctx.metadata.write();
    }
    res.status(200).json({ data: subscriptionView(sub) });
  });

  router.delete('/subscriptions', async (req, res) => {
    const input = parseParams(req, subscriptionSchema);
    const sub = data().subscriptions.find(same(input));
    if (!sub) throw new HttpError(404, `no subscription of ${input.listener_id} to ${input.emitter_id}${input.event_name ? ` on ${input.event_name}` : ''}`);
    data().subscriptions = data().subscriptions.filter((s) => s !== sub);
    await ctx.metadata.write();
    res.status(204).end();
  });

  router.post('/auto_subscriptions', async (req, res) => {
    const input = parseParams(req, autoSchema);
    checkListener(input.listener_id);
    const auto = data().auto_subscriptions;
    let record = auto.find((a) => a.event_name === input.event_name && a.listener_id === input.listener_id);
    if (!record) {
      record = { id: newId('asub'), event_name: input.event_name, listener_id: input.listener_id, created_at: Math.floor(Date.now() / 1000) };
      auto.push(record);
      await ctx.metadata.write();
    }
    res.json({ data: record });
  });

  router.delete('/auto_subscriptions', async (req, res) => {
    const input = parseParams(req, autoSchema);
    const before = data().auto_subscriptions.length;
    data().auto_subscriptions = data().auto_subscriptions.filter((a) => !(a.event_name === input.event_name && a.listener_id === input.listener_id));
    if (data().auto_subscriptions.length === before) throw new HttpError(404, `no auto-subscription of ${input.listener_id} to ${input.event_name}`);
    await ctx.metadata.write();
    res.status(204).end();
  });

  router.get('/users/me/auto_subscriptions', (req, res) => {
    res.json(paginate([...data().auto_subscriptions].reverse(), parseParams(req, pageParams), (a) => a));
  });

  router.get('/users/me/subscriptions', (req, res) => {
    res.json(paginate([...data().subscriptions].reverse(), parseParams(req, pageParams), subscriptionView));
  });

  return router;
}
