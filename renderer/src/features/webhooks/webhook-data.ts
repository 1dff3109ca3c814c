// The Webhooks screens' data: the webhook and its subscriptions, deliveries and attempts, and every
// change to them (each keeps the app's webhook list in step).
import { useEffect } from 'react';
import type { MessageView, WebhookInput, WebhookUpdate, WebhookView } from '../../../../runtime/contract/webhook-api';
import { api } from '../../api/v1';
import { usePoll } from '../../api/use-poll';
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

/** One webhook, read from the list answer; `missing` says why there is none. */
export function useWebhook(id: string) {
  const found = usePoll(id, async () => ({ webhook: (await api.listWebhooks()).data.find((w) => w.id === id) ?? null }));
  const missing = found.error ?? (found.data && !found.data.webhook ? `Webhook ${id} does not exist (any more).` : null);
  return { webhook: found.data?.webhook ?? null, missing, set: (webhook: WebhookView) => found.set({ webhook }) };
}

/** The subscriptions that deliver to a webhook. */
export function useSubscriptions(webhookId: string) {
  const subs = usePoll(webhookId, async () => (await api.listSubscriptions()).data.filter((s) => s.listener_id === webhookId));
  return { subscriptions: subs.data ?? [], error: subs.error, reload: subs.reload };
}

/** A webhook's delivery messages, newest first, asked for again every 1.5 s. */
export function useMessages(webhookId: string, status: MessageView['status'] | '') {
  const page = usePoll(`${webhookId}:${status}`, async () => (await api.listMessages(webhookId, status || undefined)).data, 1500);
  return { messages: page.data ?? [], loaded: page.data !== null, error: page.error, reload: page.reload };
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

/** Changes a webhook; answers it as it is now. */
export async function updateWebhook(id: string, body: WebhookUpdate): Promise<WebhookView> {
  const updated = await api.updateWebhook(id, body);
  void useApp.getState().loadWebhooks();
  return updated;
}

export async function deleteWebhook(id: string): Promise<void> {
  await api.deleteWebhook(id);
  void useApp.getState().loadWebhooks();
}

export const subscribe = (emitterId: string, webhookId: string, channel?: string) => api.subscribe(emitterId, webhookId, channel);
export const unsubscribe = (emitterId: string, webhookId: string, channel: string | null) => api.unsubscribe(emitterId, webhookId, channel);
export const resendMessage = (webhookId: string, messageId: string) => api.resendMessage(webhookId, messageId);
/** Sends every failed message since `since` (epoch s) again; answers how many. */
export const recoverFailed = async (webhookId: string, since: number) => (await api.recover(webhookId, since)).recovered;
export const revealSecret = (webhookId: string) => api.webhookSecret(webhookId);
export const rotateSecret = (webhookId: string) => api.rotateSecret(webhookId);
