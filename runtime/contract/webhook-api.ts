// /v1 shapes of webhooks, subscriptions and their deliveries.
import type { VersionFields } from './change-api';
import type { ListedAttempt } from './delivery-protocol';

export interface WebhookView extends VersionFields {
  id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  /** Its queue is held (POST …/pause): messages wait, listed `paused`, until POST …/resume. */
  paused: boolean;
  /** Why delivery disabled it (410 Gone, failing too long); null when active or disabled by hand. */
  disabled_reason: string | null;
  /** Seconds between delivery attempts for this webhook; null uses the service's schedule. */
  retry_schedule: number[] | null;
  /** Present only in the response that created the webhook. */
  signing_secret?: string;
  /** How its deliveries are going (list and read): epoch seconds, null for never. */
  health?: {
    state: 'healthy' | 'failing' | 'disabled' | 'idle';
    last_success_at: number | null;
    failing_since: number | null;
    pending: number;
    failing: number;
    failed: number;
  };
  created_at: number;
  updated_at: number;
}

export interface SubscriptionView {
  id: string;
  emitter_id: string;
  listener_id: string;
  event_name: string | null;
  created_at: number;
}

export interface MessageView {
  id: string;
  event_id: string;
  emitter_id: string;
  event_name: string | null;
  /** The event's summary and the emitter's name, for people reading the list (null when gone). */
  event_summary?: string | null;
  emitter_name?: string | null;
  /** The source whose Events tab shows the event (null for a workflow's event). */
  source_id?: string | null;
  /** The run (invocation) that emitted the event, when it was recorded. */
  run_id?: string | null;
  /** `paused`: held while the webhook is paused (waiting for its first attempt or a retry). */
  status: 'pending' | 'delivered' | 'failing' | 'failed' | 'paused';
  attempts: number;
  next_attempt_at: number | null;
  created_at: number;
}

/** One delivery attempt as /v1 shows it: the attempt as listed by the delivery thread. */
export type AttemptView = ListedAttempt;

/** The answer to a signing secret rotation. */
export interface SecretRotationView {
  /** The new secret; the old one keeps signing, alongside it, until `previous_secret_expires_at`. */
  signing_secret: string;
  /** Epoch seconds; null when the old secret stopped signing at once (`grace_seconds: 0`). */
  previous_secret_expires_at: number | null;
}

/** What `POST /v1/webhooks` takes. */
export interface WebhookInput {
  url: string;
  name?: string;
  description?: string;
  /** Seconds between attempts; null uses the service's schedule. */
  retry_schedule?: number[] | null;
}

/** What `PUT /v1/webhooks/{id}` takes: any field of a webhook, and `active`. */
export type WebhookUpdate = Partial<WebhookInput> & { active?: boolean; base_version?: number };
