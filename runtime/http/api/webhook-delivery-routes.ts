import { Router } from 'express';
import { z } from 'zod';
import type { ListedStatus, MessageFilter, MessageSummary } from '../../contract/delivery-protocol';
import { pageParams } from '../../lib/pagination';
import { notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { parseParams } from './params';
import { attemptView, messageView, webhookView } from './views';
import { findWebhook, requireActive } from './webhook-lookup';

const LISTED: readonly ListedStatus[] = ['pending', 'delivered', 'failing', 'failed', 'paused'];

/** One status or several, comma-separated (`failed,failing`), each among `allowed`. */
const statusList = (allowed: readonly ListedStatus[]) => {
  const hint = `status must be one of ${allowed.join(', ')} (or several, comma-separated)`;
  return z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()) : v), z.array(z.enum(allowed as [ListedStatus, ...ListedStatus[]], { error: hint }), { error: hint }).min(1, hint));
};

/** A time as epoch seconds, or an ISO 8601 date (`2026-11-28T09:00:00Z`), read as epoch seconds. */
const timeParam = (name: string) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string' || v.trim() === '' || Number.isFinite(Number(v))) return v;
      const ms = Date.parse(v);
      return Number.isNaN(ms) ? v : ms / 1000;
    },
    z.coerce
      .number({ error: `${name} must be epoch seconds (e.g. ${Math.floor(Date.now() / 1000) - 3600}) or an ISO 8601 time such as 2026-11-28T09:00:00Z` })
      .finite()
      .min(0, `${name} must be epoch seconds (not negative)`),
  );

/** The filters a message list and a bulk retry share: source, event, channel, time range. */
const filterFields = {
  source: z.string().min(1, 'source must be a source or workflow id (dc_… or p_…)').optional(),
  event_id: z.string().min(1, 'event_id must be an event id').optional(),
  /** The event's channel; `$default` (or empty) is the default channel. */
  event_name: z.string().optional(),
  since: timeParam('since').optional(),
  until: timeParam('until').optional(),
};
const untilAfterSince = (r: { since?: number | undefined; until?: number | undefined }) => r.since === undefined || r.until === undefined || r.until >= r.since;
const UNTIL_BEFORE_SINCE = { message: 'until must not be before since', path: ['until'] };

export const messagesSchema = pageParams.extend({ status: statusList(LISTED).optional(), ...filterFields }).refine(untilAfterSince, UNTIL_BEFORE_SINCE);

export const recoverSchema = z.object({ ...filterFields, since: timeParam('since'), status: statusList(['failed', 'failing']).default(['failed']) }).refine(untilAfterSince, UNTIL_BEFORE_SINCE);

/** Whole seconds cover their whole second, as message times are shown in whole seconds. */
const untilMs = (until: number) => (Number.isInteger(until) ? until * 1000 + 999 : until * 1000);

/** The delivery thread's filter from parsed parameters. */
interface FilterInput {
  status?: ListedStatus[] | undefined;
  source?: string | undefined;
  event_id?: string | undefined;
  event_name?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
}

function filterOf(input: FilterInput, untilDefault?: number): MessageFilter {
  const eventName = input.event_name === undefined ? undefined : input.event_name === '' || input.event_name === '$default' ? null : input.event_name;
  return {
    statuses: input.status,
    emitterId: input.source,
    eventId: input.event_id,
    eventName,
    since: input.since === undefined ? undefined : input.since * 1000,
    until: input.until === undefined ? untilDefault : untilMs(input.until),
  };
}

/** A webhook's delivery queue: its messages (filtered), their attempts, resend, bulk retry, pause and resume. */
export function webhookDeliveryRoutes(ctx: ApiContext): Router {
  const router = Router();
  const data = () => ctx.metadata.data;

  /** Rows people read and follow: the event's summary, the emitter's name, and where the event and its run are. */
  const describe = (m: MessageSummary) => {
    const isSource = m.emitter_id.startsWith('dc_');
    const meta = isSource || m.emitter_id.startsWith('p_') ? ctx.events.find(m.emitter_id, m.event_id)?.meta : undefined;
    return {
      event_summary: typeof meta?.summary === 'string' ? meta.summary : null,
      emitter_name: data().sources.find((s) => s.id === m.emitter_id)?.name ?? data().workflows.find((x) => x.id === m.emitter_id)?.name ?? null,
      source_id: isSource ? m.emitter_id : null,
      run_id: meta?.invocation_id ?? null,
    };
  };

  router.get('/webhooks/:id/messages', async (req, res) => {
    const w = findWebhook(ctx, req.params.id);
    const { limit, before, after, ...filters } = parseParams(req, messagesSchema);
    const found = await ctx.delivery.messages(w.id, { limit, before, after }, filterOf(filters));
    res.json({ ...found, data: found.data.map((m) => messageView(m, describe(m))) });
  });

  // One manual attempt now, with the message's original webhook-id and body; durable once answered.
  router.post('/webhooks/:id/messages/:msg/resend', async (req, res) => {
    const w = findWebhook(ctx, req.params.id);
    requireActive(w, 'resending');
    const m = await ctx.delivery.resend(w.id, req.params.msg);
    if (!m) throw notFound('message', req.params.msg);
    res.status(202).json({ data: messageView(m, describe(m)) });
  });

  // One manual attempt of every message the filters take (failed ones by default); durable once answered.
  router.post('/webhooks/:id/recover', async (req, res) => {
    const w = findWebhook(ctx, req.params.id);
    const input = parseParams(req, recoverSchema);
    requireActive(w, 'recovering');
    const recovered = await ctx.delivery.recover(w.id, filterOf(input, Date.now()));
    res.status(202).json({ data: { recovered } });
  });

  router.get('/webhooks/:id/messages/:msg/attempts', async (req, res) => {
    const w = findWebhook(ctx, req.params.id);
    const page = await ctx.delivery.attempts(w.id, req.params.msg, parseParams(req, pageParams));
    if (!page) throw notFound('message', req.params.msg);
    res.json({ ...page, data: page.data.map(attemptView) });
  });

  // Holding a queue is delivery state, not configuration: it keeps the webhook's version, so an
  // edit begun before a pause still saves.
  for (const [action, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    router.post(`/webhooks/:id/${action}`, async (req, res) => {
      const w = findWebhook(ctx, req.params.id);
      if ((w.paused === true) !== paused) {
        w.paused = paused;
        await ctx.metadata.write();
        ctx.delivery.syncWebhooks();
      }
      res.json({ data: webhookView(w, undefined, (await ctx.delivery.health())[w.id] ?? null) });
    });
  }

  return router;
}
