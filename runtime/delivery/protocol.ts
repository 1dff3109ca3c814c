import type { z } from 'zod';
import type { pageParams } from '../api/params';
import type { Page } from '../pagination';
import type { Attempt, DeliveryMark, Message, MessageStatus, NewMessage } from './outbox';

/** What the delivery thread needs of a webhook: where to send, how to sign and how to retry. */
export interface WebhookTarget {
  id: string;
  url: string;
  /** The current signing secret, in clear. */
  secret: string;
  /** Secrets rotated out that still sign until `expires_at_ms` (newest first). */
  previous_secrets: Array<{ secret: string; expires_at_ms: number }>;
  active: boolean;
  /** Seconds between attempts for this webhook; null uses the service's schedule. */
  retry_schedule: readonly number[] | null;
  /** Failures before this time (ms) do not count toward disabling (set on re-enable and URL change). */
  failures_counted_from: number;
}

/** A message as listed: everything but its body and attempt details. */
export type MessageSummary = Omit<Message, 'body' | 'attempts' | 'scheduled_attempts' | 'manual_at'> & { attempts: number };

/** `limit`, `before`, `after` of a list call. */
export type PageQuery = z.infer<typeof pageParams>;

export type DeliveryQuery =
  | { kind: 'messages'; webhookId: string; page: PageQuery; status?: MessageStatus | undefined }
  | { kind: 'attempts'; webhookId: string; messageId: string; page: PageQuery }
  /** One manual attempt of a message, now; answers the message, or null if there is none. */
  | { kind: 'resend'; webhookId: string; messageId: string }
  /** One manual attempt of each failed message created in [since, until] (ms); answers how many. */
  | { kind: 'recover'; webhookId: string; since: number; until: number }
  /** Each webhook's delivery health, from its messages' attempts. */
  | { kind: 'health' }
  /** The messages of these events, to any webhook (an invocation's deliveries). */
  | { kind: 'for-events'; eventIds: string[] };

/** How a webhook's deliveries are going: times are epoch ms (null: never). */
export interface WebhookHealth {
  last_success_at: number | null;
  last_failure_at: number | null;
  /** The first failed attempt after the last success, while failures continue. */
  failing_since: number | null;
  /** Messages waiting for their first attempt, being retried, and given up on. */
  pending: number;
  failing: number;
  failed: number;
}

/** Answers to queries; null when the message does not exist. */
export type DeliveryAnswer = Page<MessageSummary> | Page<Attempt & { id: string }> | MessageSummary | MessageSummary[] | { recovered: number } | Record<string, WebhookHealth> | null;

/** Main thread → delivery thread. */
export type ToDelivery =
  | { type: 'webhooks'; webhooks: WebhookTarget[] }
  | { type: 'add'; seq: number; messages: NewMessage[] }
  | { type: 'query'; seq: number; query: DeliveryQuery }
  | { type: 'stop' };

/** Delivery thread → main thread. */
export type FromDelivery =
  /** The outbox is open: its delivery marks tell which stored events may lack their messages. */
  | { type: 'ready'; marks: DeliveryMark[] }
  | { type: 'added'; seq: number; error: string | null }
  | { type: 'answer'; seq: number; answer: DeliveryAnswer; error?: string }
  /** The thread stopped delivering to a webhook (410 Gone, or failing too long): keep it disabled. */
  | { type: 'disable'; webhookId: string; reason: string };

export interface DeliveryWorkerData {
  dataDir: string;
  retrySchedule: readonly number[];
  timeoutMs: number;
  concurrencyPerWebhook: number;
  /** A webhook whose attempts have all failed for this long is disabled; 0 never. */
  disableAfterMs: number;
}
