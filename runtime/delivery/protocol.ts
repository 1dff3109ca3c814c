import type { z } from 'zod';
import type { pageParams } from '../api/params';
import type { Page } from '../pagination';
import type { Attempt, Message, NewMessage } from './outbox';

/** What the delivery thread needs of a webhook: where to send and the secret to sign with. */
export interface WebhookTarget {
  id: string;
  url: string;
  secret: string;
  active: boolean;
}

/** A message as listed: everything but its body and attempt details. */
export type MessageSummary = Omit<Message, 'body' | 'attempts'> & { attempts: number };

/** `limit`, `before`, `after` of a list call. */
export type PageQuery = z.infer<typeof pageParams>;

export type DeliveryQuery =
  | { kind: 'messages'; webhookId: string; page: PageQuery }
  | { kind: 'attempts'; webhookId: string; messageId: string; page: PageQuery };

/** Answers to queries; null when the message does not exist. */
export type DeliveryAnswer = Page<MessageSummary> | Page<Attempt & { id: string }> | null;

/** Main thread → delivery thread. */
export type ToDelivery =
  | { type: 'webhooks'; webhooks: WebhookTarget[] }
  | { type: 'add'; seq: number; messages: NewMessage[] }
  | { type: 'query'; seq: number; query: DeliveryQuery }
  | { type: 'stop' };

/** Delivery thread → main thread. */
export type FromDelivery =
  | { type: 'ready' }
  | { type: 'added'; seq: number; error: string | null }
  | { type: 'answer'; seq: number; answer: DeliveryAnswer };

export interface DeliveryWorkerData {
  dataDir: string;
  retrySchedule: readonly number[];
  timeoutMs: number;
  concurrencyPerWebhook: number;
}
