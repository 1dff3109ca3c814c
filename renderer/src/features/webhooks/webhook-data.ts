// The Webhooks screens' data: the webhook and its subscriptions, deliveries and attempts, and every
// change to them (each keeps the app's webhook list in step).
import { useEffect, useState } from 'react';
import type { MessageView, WebhookInput, WebhookUpdate, WebhookView } from '../../../../runtime/contract/webhook-api';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';
import { useApp } from '../../app/store';

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
 * A webhook's delivery messages, newest first: the first `pages` pages, asked for again every
 * 1.5 s, and how many there are in all; `more` loads the next page (until the end).
 */
export function useMessages(webhookId: string, status: MessageView['status'] | '', source = '') {
  const [pages, setPages] = useState(1);
  // Loading the next page keeps the rows shown until it answers.
  const [last, setLast] = useState<{ messages: MessageView[]; total: number } | null>(null);
  useEffect(() => {
    setPages(1);
    setLast(null);
  }, [webhookId, status, source]);
  const read = usePoll(
    `${webhookId}:${status}:${source}:${pages}`,
    async () => {
      const messages: MessageView[] = [];
      let total = 0;
      let before: string | undefined;
      for (let i = 0; i < pages; i++) {
        const page = await api.listMessages(webhookId, { status: status || undefined, source: source || undefined, before });
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
/** Sends every failed message since `since` (epoch s), of `source` if given, again; answers how many. */
export const recoverFailed = async (webhookId: string, since: number, source?: string) => (await api.recover(webhookId, { since, ...(source ? { source } : {}) })).recovered;

/** Holds or releases a webhook's queue; every view of the webhook shows the change once this resolves. */
export async function setPaused(id: string, paused: boolean): Promise<WebhookView> {
  const saved = await api.pauseWebhook(id, paused ? 'pause' : 'resume');
  await useApp.getState().loadWebhooks();
  return saved;
}
export const revealSecret = (webhookId: string) => api.webhookSecret(webhookId);
export const rotateSecret = (webhookId: string) => api.rotateSecret(webhookId);
