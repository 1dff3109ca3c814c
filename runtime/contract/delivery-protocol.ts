// Messages between the service and its delivery thread, and the delivery records they carry.
import type { ListResponse, PageQuery } from './page';

/**
 * Request header of a delivery: how many Spout webhook deliveries in a row led to this request,
 * itself included. An endpoint (`/e/`) hands it on to what its run emits, and refuses a request
 * past MAX_DELIVERY_HOPS: a webhook that leads back to a Spout endpoint ends there.
 */
export const HOPS_HEADER = 'x-spout-hops';

/** The most Spout deliveries in a row an endpoint runs; one more is refused (docs/security.md). */
export const MAX_DELIVERY_HOPS = 5;

/** How a delivery message stands. */
export type MessageStatus = 'pending' | 'delivered' | 'failing' | 'failed';

/** How a message is listed: a pending or failing message of a paused webhook is listed `paused` (held). */
export type ListedStatus = MessageStatus | 'paused';

/** Which of a webhook's messages a list or a bulk retry takes; absent fields take every message. */
export interface MessageFilter {
  /** Listed statuses (see ListedStatus); any of them. */
  statuses?: ListedStatus[] | undefined;
  /** The emitter (source or workflow) whose event it carries. */
  emitterId?: string | undefined;
  eventId?: string | undefined;
  /** The event's channel (its type); null is the default channel. */
  eventName?: string | null | undefined;
  /** Created at or after / at or before (epoch ms). */
  since?: number | undefined;
  until?: number | undefined;
}

/** One event to be delivered to one webhook. Its id is the `webhook-id` header, the same on every attempt. */
export interface Message {
  id: string;
  webhook_id: string;
  event_id: string;
  emitter_id: string;
  event_name: string | null;
  /** The request body, byte-for-byte the same on every attempt. */
  body: string;
  created_at: number;
  /** Its HOPS_HEADER: one more than the deliveries that led to its event's run. */
  hops: number;
  status: MessageStatus;
  attempts: Attempt[];
  /** When the next attempt is due (ms), or null when none is planned. */
  next_attempt_at: number | null;
  /** Scheduled attempts made so far: the position in the retry schedule (manual ones do not count). */
  scheduled_attempts: number;
  /** When a resend or recover asked for a manual attempt not yet made (ms), else null. */
  manual_at: number | null;
}

/**
 * One HTTP attempt to deliver a message. Of the request it keeps what changes from one attempt to
 * the next: with the message, its `webhook-timestamp` and `webhook-signature` give every header
 * it sent (`worker/request-headers.ts`). Both are null for attempts recorded before they were kept.
 */
export interface Attempt {
  /** The `webhook-timestamp` sent, in seconds. */
  timestamp: number | null;
  /** The `webhook-signature` sent: every signature of a rotation, as it was computed. */
  signature: string | null;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  /** Response headers, names in lower case (repeated ones joined with ", "); null without a response. */
  response_headers: Readonly<Record<string, string>> | null;
  error: string | null;
  trigger: 'scheduled' | 'manual';
  created_at: number;
}

/** An attempt as listed: its id (`{message id}.{n}`), and the headers and payload (the message's body) it sent, in order. */
export type ListedAttempt = Omit<Attempt, 'timestamp' | 'signature'> & { id: string; request_headers: Record<string, string> | null; request_body: string };

/** A message as created, before any attempt. */
export type NewMessage = Omit<Message, 'status' | 'attempts' | 'next_attempt_at' | 'scheduled_attempts' | 'manual_at'>;

/**
 * New messages as they cross to the delivery thread, message `i` at index `i` of each list. A
 * thread message copies each string on its own, and a batch holds up to a thousand messages a
 * run: names that repeat through a batch (webhook, emitter, channel) are sent once, in `names`,
 * and the bodies as one string that each message's body is a slice of (an event routed to several
 * webhooks is in it once). Built by delivery/message-batch.ts.
 */
export interface NewMessageBatch {
  id: string[];
  event_id: string[];
  created_at: number[];
  hops: number[];
  /** The webhook's index in `names`. */
  webhook: number[];
  /** The emitter's index in `names`. */
  emitter: number[];
  /** The channel's index in `names`, or -1 for the default channel (no name). */
  channel: number[];
  names: string[];
  bodies: string;
  /** Where each message's body starts in `bodies`, and where it ends. */
  body_start: number[];
  body_end: number[];
}

/**
 * The newest event of an emitter that has delivery messages, and the webhooks it has them for.
 * Messages are recorded in event order per emitter, so every older event has all of its own.
 */
export interface DeliveryMark {
  emitter_id: string;
  event_id: string;
  webhook_ids: string[];
}

/** What the delivery thread needs of a webhook: where to send, how to sign and how to retry. */
export interface WebhookTarget {
  id: string;
  url: string;
  /** The current signing secret, in clear. */
  secret: string;
  /** Secrets rotated out that still sign until `expires_at_ms` (newest first). */
  previous_secrets: Array<{ secret: string; expires_at_ms: number }>;
  active: boolean;
  /** Its queue is held: nothing is attempted until it is resumed (then the held ones go in creation order). */
  paused: boolean;
  /** Seconds between attempts for this webhook; null uses the service's schedule. */
  retry_schedule: readonly number[] | null;
  /** Failures before this time (ms) do not count toward disabling (set on re-enable and URL change). */
  failures_counted_from: number;
  /** The Connect project whose end user set it, when that project keeps deliveries off this machine (each connection is checked); else absent or null. */
  end_user_project?: string | null;
}

/** A message as listed: everything but its body and attempt details. */
export type MessageSummary = Omit<Message, 'body' | 'attempts' | 'scheduled_attempts' | 'manual_at' | 'hops' | 'status'> & { attempts: number; status: ListedStatus };

export type DeliveryQuery =
  | { kind: 'messages'; webhookId: string; page: PageQuery; filter: MessageFilter }
  | { kind: 'attempts'; webhookId: string; messageId: string; page: PageQuery }
  /** One manual attempt of a message, now; answers the message, or null if there is none. */
  | { kind: 'resend'; webhookId: string; messageId: string }
  /** One manual attempt of each message the filter takes (failed ones unless it says); answers how many. */
  | { kind: 'recover'; webhookId: string; filter: MessageFilter }
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
export type DeliveryAnswer = ListResponse<MessageSummary> | ListResponse<ListedAttempt> | MessageSummary | MessageSummary[] | { recovered: number } | Record<string, WebhookHealth> | null;

/** Main thread → delivery thread. */
export type ToDelivery = { type: 'webhooks'; webhooks: WebhookTarget[]; servicePort: number } | ({ type: 'rules' } & DeliveryRules) | { type: 'add'; seq: number; messages: NewMessageBatch } | { type: 'query'; seq: number; query: DeliveryQuery } | { type: 'stop' };

/** Delivery thread → main thread. */
export type FromDelivery =
  /** The outbox is open: its delivery marks tell which stored events may lack their messages. */
  | { type: 'ready'; marks: DeliveryMark[] }
  | { type: 'added'; seq: number; error: string | null }
  | { type: 'answer'; seq: number; answer: DeliveryAnswer; error?: string }
  /** The thread stopped delivering to a webhook (410 Gone, or failing too long): keep it disabled. */
  | { type: 'disable'; webhookId: string; reason: string }
  /** A damaged part of the outbox file, set aside as it was opened (for the start's report). */
  | { type: 'problem'; problem: { file: string; line?: number; message: string } };

/** The delivery rules the settings change while the thread runs (a `rules` message): each applies from the next attempt. */
export interface DeliveryRules {
  retrySchedule: readonly number[];
  timeoutMs: number;
  /** A webhook whose attempts have all failed for this long is disabled; 0 never. */
  disableAfterMs: number;
}

export interface DeliveryWorkerData extends DeliveryRules {
  dataDir: string;
  concurrencyPerWebhook: number;
}
