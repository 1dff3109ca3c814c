// The Webhooks screens' data: the webhook and its subscriptions, deliveries and attempts, and every
// change to them (each keeps the app's webhook list in step).
import { useEffect, useState } from 'react';
import type { MessageView, WebhookInput, WebhookUpdate, WebhookView } from '../../../../runtime/contract/webhook-api';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';
import { useApp } from '../../app/store';
import { type MessageFilters, type MessageQuery, messageQuery, retryStatus } from './message-filters';

/** The webhooks list, loaded now and every 5 s (health changes as deliveries go). */
export function useWebhookList(): { webhooks: WebhookView[]; loaded: boolean } {
  const { webhooks, webhooksLoaded, loadWebhooks } = useApp();
  useEffect(() => {
    void loadWebhooks();
    const timer = setInterval(() => void loadWebhooks(), 5000);
    return () => clearInterval(timer);
  }, [loadWebhooks]);
  return { webhooks, loaded: webhooksLoaded };
}

/**
 * One webhook as the app's webhook list has it (refreshed every 5 s by the screen, and after every
 * change), so its health badge here and in the list always agree; `missing` says why there is none.
 */
export function useWebhook(id: string) {
  const { webhooks, webhooksLoaded, error } = useApp();
  const webhook = webhooks.find((w) => w.id === id) ?? null;
  const missing = webhook ? null : webhooksLoaded ? `Webhook ${id} does not exist (any more).` : error;
  return { webhook, missing };
}

/** The subscriptions that deliver to a webhook. */
export function useSubscriptions(webhookId: string) {
  const subs = usePoll(webhookId, async () => (await api.listSubscriptions()).filter((s) => s.listener_id === webhookId));
  return { subscriptions: subs.data ?? [], error: subs.error, reload: subs.reload };
}

/**
 * A webhook's delivery messages matching `filters`, newest first: the first `pages` pages, asked for
 * again every 1.5 s (a span back from now moves with it), and how many match in all; `more` loads
 * the next page (until the end).
 */
export function useMessages(webhookId: string, filters: MessageFilters) {
  const [pages, setPages] = useState(1);
  const key = `${webhookId}:${JSON.stringify(filters)}`;
  // Loading the next page keeps the rows shown until it answers.
  const [last, setLast] = useState<{ messages: MessageView[]; total: number } | null>(null);
  useEffect(() => {
    setPages(1);
    setLast(null);
  }, [key]);
  const read = usePoll(
    `${key}:${pages}`,
    async () => {
      const query = messageQuery(filters, Math.floor(Date.now() / 1000));
      const messages: MessageView[] = [];
      let total = 0;
      let before: string | undefined;
      for (let i = 0; i < pages; i++) {
        const page = await api.listMessages(webhookId, { ...query, before });
        messages.push(...page.data);
        total = page.page_info.total_count;
        before = page.page_info.end_cursor ?? undefined;
        if (!before || page.data.length === 0) break;
      }
      return { messages, total };
    },
    1500,
  );
  useEffect(() => {
    if (read.data) setLast(read.data);
  }, [read.data]);
  const data = read.data ?? last;
  return { messages: data?.messages ?? [], total: data?.total ?? 0, loaded: data !== null, error: read.error, reload: read.reload, more: () => setPages((p) => p + 1) };
}

/** A bulk retry about to be made: the filters as the API takes them, up to `until` (fixed when counted), and how many messages match. */
export interface RetryPlan {
  query: MessageQuery & { status: 'failed' | 'failing'; until: number };
  count: number;
}

/** Counts the messages a bulk retry with `filters` would take now (failed ones, or failing ones when the list shows those); null when the list's status is never retried. */
export async function planRetry(webhookId: string, filters: MessageFilters): Promise<RetryPlan | null> {
  const status = retryStatus(filters);
  if (!status) return null;
  const nowS = Math.floor(Date.now() / 1000);
  const base = messageQuery(filters, nowS);
  // The count and the retry cover the same range: messages that fail after this are not retried unseen.
  const query = { ...base, status, until: base.until ?? nowS };
  const page = await api.listMessages(webhookId, { ...query, limit: 1 });
  return { query, count: page.page_info.total_count };
}

/** Makes the bulk retry counted by `planRetry` (`POST …/recover`, as `spout webhooks recover` does); answers how many were queued. */
export const retryPlanned = async (webhookId: string, plan: RetryPlan) => (await api.recover(webhookId, { ...plan.query, since: plan.query.since ?? 0 })).recovered;

/** A message's attempts while `open`, asked for again every 1.5 s. */
export function useAttempts(webhookId: string, messageId: string, open: boolean) {
  return usePoll(open ? `${webhookId}:${messageId}` : null, async () => (await api.listAttempts(webhookId, messageId)).data, 1500).data;
}

/** Creates a webhook; the answer carries its signing secret, shown once. */
export async function createWebhook(body: WebhookInput): Promise<WebhookView> {
  const created = await api.createWebhook(body);
  void useApp.getState().loadWebhooks();
  return created;
}

/** Changes a webhook; the list (and every view of it) shows it as it is now once this resolves, with the answer. */
export async function updateWebhook(id: string, body: WebhookUpdate): Promise<WebhookView> {
  const saved = await api.updateWebhook(id, body);
  await useApp.getState().loadWebhooks();
  return saved;
}

export async function deleteWebhook(id: string): Promise<void> {
  await api.deleteWebhook(id);
  void useApp.getState().loadWebhooks();
}

export const subscribe = (emitterId: string, webhookId: string, channel?: string) => api.subscribe(emitterId, webhookId, channel);
export const unsubscribe = (emitterId: string, webhookId: string, channel: string | null) => api.unsubscribe(emitterId, webhookId, channel);
export const resendMessage = (webhookId: string, messageId: string) => api.resendMessage(webhookId, messageId);

/** Holds or releases a webhook's queue; every view of the webhook shows the change once this resolves. */
export async function setPaused(id: string, paused: boolean): Promise<WebhookView> {
  const saved = await api.pauseWebhook(id, paused ? 'pause' : 'resume');
  await useApp.getState().loadWebhooks();
  return saved;
}
export const revealSecret = (webhookId: string) => api.webhookSecret(webhookId);
export const rotateSecret = (webhookId: string) => api.rotateSecret(webhookId);
