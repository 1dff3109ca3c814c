import type { Attempt, WebhookTarget } from '../../contract/delivery-protocol';
import { Fifo } from './fifo';
import type { Outbox } from './outbox';
import type { OutboxMessage } from './outbox-message';
import { requestHeaders } from './request-headers';
import { retryDelayMs } from './retry';
import { signMessage } from './signing';
import type { HttpSender, SendOutcome } from './webhook-sender';

export interface DispatcherOptions {
  /** Seconds between attempts; its length is the number of retries. A webhook may have its own. */
  retrySchedule: readonly number[];
  /** Most requests in flight to one webhook, so a slow receiver holds only its own slots. */
  concurrencyPerWebhook: number;
  /** A webhook whose attempts have all failed for this long is disabled; 0 never. */
  disableAfterMs: number;
  /** Called when a webhook must be disabled (a 410, or failing too long); it must stop being active. */
  onDisable: (webhookId: string, reason: string) => void;
}

const isSuccess = (code: number | null) => code !== null && code >= 200 && code < 300;

/** Readable durations for messages: `90 s`, `30 min`, `5 h`, `5 days`. */
export function describeDuration(ms: number): string {
  const s = ms / 1000;
  const round = (n: number) => String(Math.round(n * 10) / 10);
  if (s < 120) return `${round(s)} s`;
  if (s < 7200) return `${round(s / 60)} min`;
  if (s < 2 * 86400) return `${round(s / 3600)} h`;
  return `${round(s / 86400)} days`;
}

type Due = [at: number, message: OutboxMessage];

/** A min-heap of (due time, message). */
class DueQueue {
  private heap: Due[] = [];

  push(at: number, m: OutboxMessage): void {
    const h = this.heap;
    h.push([at, m]);
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if ((h[parent] as Due)[0] <= at) break;
      [h[i], h[parent]] = [h[parent] as Due, h[i] as Due];
      i = parent;
    }
  }

  peek(): Due | undefined {
    return this.heap[0];
  }

  pop(): Due | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && (h[l] as Due)[0] < (h[m] as Due)[0]) m = l;
        if (r < h.length && (h[r] as Due)[0] < (h[m] as Due)[0]) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m] as Due, h[i] as Due];
        i = m;
      }
    }
    return top;
  }
}

/** A webhook's ready messages and its requests in flight. */
interface Lane {
  queue: Fifo<OutboxMessage>;
  inFlight: number;
  /** Draining what a pause held: one request at a time, so they arrive in the order they were created. */
  inOrder: boolean;
}

/**
 * Sends outbox messages to their webhooks: each message on its own schedule, each webhook with its
 * own lane (queue and concurrency limit), so a failing message or a hanging receiver never holds
 * up the others. Scheduled attempts follow the retry schedule; manual ones (resend, recover) go
 * once, as soon as the webhook's lane has room.
 */
export class Dispatcher {
  private readonly due = new DueQueue();
  private readonly lanes = new Map<string, Lane>();
  /** Messages with a request in flight: one at a time per message. */
  private readonly sending = new Set<string>();
  /** Per webhook, when its current run of failed attempts began (ms); absent after a success. */
  private readonly failingSince = new Map<string, number>();
  private inFlight = 0;
  private onIdle: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private stopped = false;

  constructor(
    private readonly outbox: Outbox,
    private readonly sender: HttpSender,
    private readonly webhook: (id: string) => WebhookTarget | undefined,
    private readonly options: DispatcherOptions,
  ) {
    // Messages read back from a webhook's spill file as its window drains go out like new ones.
    outbox.onRefill = (messages) => this.enqueue(messages);
  }

  /** Changes the retry schedule and disable-after time: failures from now on are scheduled and judged by them. */
  setRules(rules: { retrySchedule: readonly number[]; disableAfterMs: number }): void {
    this.options.retrySchedule = rules.retrySchedule;
    this.options.disableAfterMs = rules.disableAfterMs;
  }

  /** Schedules every message the outbox still has to deliver (after a restart). */
  start(): void {
    this.restoreFailingSince();
    for (const m of this.outbox.messages.values()) {
      if (m.manual_at !== null) this.makeReady(m);
      else if (m.next_attempt_at !== null && (m.status === 'pending' || m.status === 'failing')) this.schedule(m, m.next_attempt_at);
    }
  }

  /** Schedules messages for delivery now. */
  enqueue(messages: OutboxMessage[]): void {
    for (const m of messages) this.makeReady(m);
  }

  /** Makes the manual attempts the outbox has recorded for these messages (resend, recover). */
  sendManual(messages: OutboxMessage[]): void {
    for (const m of messages) if (m.manual_at !== null) this.makeReady(m);
  }

  /** Re-examines a webhook's messages, e.g. after it was re-enabled. */
  wake(webhookId: string): void {
    const lane = this.lanes.get(webhookId);
    if (lane) this.pump(webhookId, lane);
  }

  /**
   * Sends what a paused webhook held: its waiting messages sorted by creation, one at a time until
   * they have all started, then at the usual concurrency.
   */
  resume(webhookId: string): void {
    const lane = this.lanes.get(webhookId);
    if (!lane) return;
    const held = new Map<string, OutboxMessage>();
    for (let m = lane.queue.take(); m; m = lane.queue.take()) if (m.kept) held.set(m.id, m);
    for (const m of [...held.values()].sort((a, b) => a.created_at - b.created_at)) lane.queue.push(m);
    lane.inOrder = true;
    this.pump(webhookId, lane);
  }

  /** Stops scheduling, aborts requests in flight and waits for them to unwind. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.sender.close();
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.onIdle = resolve));
  }

  /**
   * Rebuilds each webhook's run of failures from the attempt log: the earliest failed attempt after
   * its latest success.
   */
  private restoreFailingSince(): void {
    const lastSuccess = new Map<string, number>();
    for (const m of this.outbox.messages.values()) {
      for (const a of m.attempts) if (isSuccess(a.status_code) && a.created_at > (lastSuccess.get(m.webhook_id) ?? -Infinity)) lastSuccess.set(m.webhook_id, a.created_at);
    }
    for (const m of this.outbox.messages.values()) {
      const after = lastSuccess.get(m.webhook_id) ?? -Infinity;
      for (const a of m.attempts) {
        if (isSuccess(a.status_code) || a.created_at <= after) continue;
        if (a.created_at < (this.failingSince.get(m.webhook_id) ?? Infinity)) this.failingSince.set(m.webhook_id, a.created_at);
      }
    }
  }

  private schedule(m: OutboxMessage, at: number): void {
    if (at <= Date.now()) return this.makeReady(m);
    this.due.push(at, m);
    this.arm();
  }

  private makeReady(m: OutboxMessage): void {
    let lane = this.lanes.get(m.webhook_id);
    if (!lane) this.lanes.set(m.webhook_id, (lane = { queue: new Fifo(), inFlight: 0, inOrder: false }));
    lane.queue.push(m);
    this.pump(m.webhook_id, lane);
  }

  private arm(): void {
    const next = this.due.peek();
    if (!next || this.stopped) return;
    if (this.timer && this.timerAt <= next[0]) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next[0];
    this.timer = setTimeout(() => this.release(), Math.max(0, next[0] - Date.now()));
  }

  private release(): void {
    this.timer = null;
    this.timerAt = Infinity;
    const now = Date.now();
    for (let top = this.due.peek(); top && top[0] <= now; top = this.due.peek()) {
      this.due.pop();
      const m = top[1];
      if (m.kept && m.next_attempt_at !== null && m.next_attempt_at <= now) this.makeReady(m);
    }
    this.arm();
  }

  /**
   * Whether a message taken from a lane should be attempted now. A lane may hold a message more
   * than once (a retry and a resend, say); whatever attempt runs first changes the message, so the
   * other entries find nothing to do. One the outbox has forgotten is not sent.
   */
  private isDue(m: OutboxMessage, now: number): boolean {
    if (!m.kept || this.sending.has(m.id)) return false;
    if (m.manual_at !== null || m.status === 'pending') return true; // a pending message is due from its creation
    return m.status === 'failing' && m.next_attempt_at !== null && m.next_attempt_at <= now;
  }

  private pump(webhookId: string, lane: Lane): void {
    if (this.stopped) return;
    const target = this.webhook(webhookId);
    if (!target) {
      lane.queue = new Fifo(); // the webhook is gone, and its messages with it
      return;
    }
    if (!target.active || target.paused) return; // kept queued until the webhook is enabled or resumed
    const now = Date.now();
    if (lane.queue.size === 0) lane.inOrder = false;
    const limit = lane.inOrder ? 1 : this.options.concurrencyPerWebhook;
    while (lane.queue.size > 0 && lane.inFlight < limit) {
      const m = lane.queue.take() as OutboxMessage;
      if (!this.isDue(m, now)) continue;
      lane.inFlight++;
      this.inFlight++;
      this.sending.add(m.id);
      void this.attempt(m, target, lane);
    }
  }

  /** The `webhook-signature` value: the current secret's, then each rotated-out one still in its grace period. */
  private signature(target: WebhookTarget, m: OutboxMessage, timestamp: number): string {
    let value = signMessage(target.secret, m.id, timestamp, m.body);
    if (target.previous_secrets.length === 0) return value;
    const now = Date.now();
    for (const p of target.previous_secrets) if (p.expires_at_ms > now) value += ` ${signMessage(p.secret, m.id, timestamp, m.body)}`;
    return value;
  }

  private async attempt(m: OutboxMessage, target: WebhookTarget, lane: Lane): Promise<void> {
    const manual = m.manual_at !== null;
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = this.signature(target, m, timestamp);
      const created_at = Date.now();
      const outcome: SendOutcome = await this.sender.post(target.url, requestHeaders(m, timestamp, signature), m.body, target.end_user_project ?? null);
      // A request cut short by shutdown is not an attempt: the message resumes after restart.
      if (this.stopped) return;
      // The webhook was deleted meanwhile: its messages are gone.
      if (!m.kept) return;
      const attempt: Attempt = {
        timestamp,
        signature,
        status_code: outcome.status_code,
        duration_ms: outcome.duration_ms,
        response_body: outcome.response_body,
        response_headers: outcome.response_headers,
        error: outcome.error,
        trigger: manual ? 'manual' : 'scheduled',
        created_at,
      };
      const code = outcome.status_code;
      if (isSuccess(code)) {
        this.outbox.recordAttempt(m, attempt, 'delivered', null);
        this.failingSince.delete(target.id);
        return;
      }
      if (manual) {
        // A failed manual attempt leaves the message as it was, its schedule included.
        this.outbox.recordAttempt(m, attempt, m.status, m.next_attempt_at);
        if (m.next_attempt_at !== null && (m.status === 'pending' || m.status === 'failing')) this.schedule(m, m.next_attempt_at);
      } else {
        const schedule = target.retry_schedule ?? this.options.retrySchedule;
        const delay = retryDelayMs(schedule, m.scheduled_attempts + 1, code, outcome.response_headers?.['retry-after']);
        const next = delay === null ? null : Date.now() + delay;
        this.outbox.recordAttempt(m, attempt, next === null ? 'failed' : 'failing', next);
        if (next !== null) this.schedule(m, next);
      }
      this.noteFailure(target, code, created_at);
    } catch (err) {
      console.error(`delivery of ${m.id} to ${m.webhook_id}: ${(err as Error).message}`);
    } finally {
      this.sending.delete(m.id);
      lane.inFlight--;
      this.inFlight--;
      if (!this.stopped) {
        // A resend asked for while this attempt was in flight gets its own attempt.
        if (m.manual_at !== null && m.kept) lane.queue.push(m);
        this.pump(m.webhook_id, lane);
      } else if (this.inFlight === 0) this.onIdle?.();
    }
  }

  /** A 410 Gone disables the webhook at once; so does a run of failures longer than `disableAfterMs`. */
  private noteFailure(target: WebhookTarget, code: number | null, at: number): void {
    if (code === 410) {
      this.disable(target, `the receiver answered 410 Gone at ${new Date(at).toISOString()}`);
      return;
    }
    let since = this.failingSince.get(target.id);
    if (since === undefined || since < target.failures_counted_from) this.failingSince.set(target.id, (since = at));
    const limit = this.options.disableAfterMs;
    if (limit > 0 && Date.now() - since >= limit) {
      this.disable(target, `every delivery attempt failed for more than ${describeDuration(limit)} (since ${new Date(since).toISOString()})`);
    }
  }

  private disable(target: WebhookTarget, reason: string): void {
    if (!target.active) return;
    this.failingSince.delete(target.id);
    this.options.onDisable(target.id, reason);
  }
}
