import type { HttpSender, SendOutcome } from './http-sender';
import type { Attempt, Message, Outbox } from './outbox';
import { IdQueue } from './id-queue';
import type { WebhookTarget } from './protocol';
import { nextRetryDelayMs } from './retry';
import { signMessage } from './signing';

export interface DispatcherOptions {
  /** Seconds between attempts; its length is the number of retries. */
  retrySchedule: readonly number[];
  /** Most requests in flight to one webhook, so a slow receiver holds only its own slots. */
  concurrencyPerWebhook: number;
}

/** A min-heap of (due time, message id). */
class DueQueue {
  private heap: Array<[number, string]> = [];

  push(at: number, id: string): void {
    const h = this.heap;
    h.push([at, id]);
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if ((h[parent] as [number, string])[0] <= at) break;
      [h[i], h[parent]] = [h[parent] as [number, string], h[i] as [number, string]];
      i = parent;
    }
  }

  peek(): [number, string] | undefined {
    return this.heap[0];
  }

  pop(): [number, string] | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && (h[l] as [number, string])[0] < (h[m] as [number, string])[0]) m = l;
        if (r < h.length && (h[r] as [number, string])[0] < (h[m] as [number, string])[0]) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m] as [number, string], h[i] as [number, string]];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Sends outbox messages to their webhooks: each message on its own schedule, each webhook with its
 * own concurrency limit, so a failing message or a hanging receiver never holds up the others.
 */
/** A webhook's ready messages and its requests in flight. */
interface Lane {
  queue: IdQueue;
  inFlight: number;
}

export class Dispatcher {
  private readonly due = new DueQueue();
  private readonly lanes = new Map<string, Lane>();
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
  ) {}

  /** Schedules every message the outbox still has to deliver (after a restart). */
  start(): void {
    for (const m of this.outbox.messages.values()) {
      if (m.next_attempt_at !== null && (m.status === 'pending' || m.status === 'failing')) this.schedule(m, m.next_attempt_at);
    }
  }

  /** Schedules messages for delivery now. */
  enqueue(messages: Message[]): void {
    for (const m of messages) this.makeReady(m);
  }

  /** Re-examines a webhook's messages, e.g. after it was re-enabled. */
  wake(webhookId: string): void {
    const lane = this.lanes.get(webhookId);
    if (lane) this.pump(webhookId, lane);
  }

  /** Stops scheduling, aborts requests in flight and waits for them to unwind. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.sender.close();
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.onIdle = resolve));
  }

  private schedule(m: Message, at: number): void {
    if (at <= Date.now()) return this.makeReady(m);
    this.due.push(at, m.id);
    this.arm();
  }

  private makeReady(m: Message): void {
    let lane = this.lanes.get(m.webhook_id);
    if (!lane) this.lanes.set(m.webhook_id, (lane = { queue: new IdQueue(), inFlight: 0 }));
    lane.queue.push(m.id);
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
      const m = this.outbox.messages.get(top[1]);
      if (m && m.next_attempt_at !== null && m.next_attempt_at <= now) this.makeReady(m);
    }
    this.arm();
  }

  private pump(webhookId: string, lane: Lane): void {
    if (this.stopped) return;
    const target = this.webhook(webhookId);
    if (!target) {
      lane.queue = new IdQueue(); // the webhook is gone, and its messages with it
      return;
    }
    if (!target.active) return; // kept queued until the webhook is enabled again
    while (lane.queue.size > 0 && lane.inFlight < this.options.concurrencyPerWebhook) {
      const m = this.outbox.messages.get(lane.queue.take() as string);
      if (!m || m.status === 'delivered' || m.status === 'failed') continue;
      lane.inFlight++;
      this.inFlight++;
      void this.attempt(m, target, lane);
    }
  }

  private async attempt(m: Message, target: WebhookTarget, lane: Lane): Promise<void> {
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'Spout-Webhooks/1',
        'webhook-id': m.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signMessage(target.secret, m.id, timestamp, m.body),
        'x-spout-emitter-id': m.emitter_id,
        'x-spout-event-id': m.event_id,
        'x-spout-event-name': m.event_name ?? '',
      };
      const created_at = Date.now();
      const outcome: SendOutcome = await this.sender.post(target.url, headers, m.body);
      // A request cut short by shutdown is not an attempt: the message resumes after restart.
      if (this.stopped) return;
      const attempt: Attempt = {
        status_code: outcome.status_code,
        duration_ms: outcome.duration_ms,
        response_body: outcome.response_body,
        error: outcome.error,
        trigger: 'scheduled',
        created_at,
      };
      const code = outcome.status_code;
      if (code !== null && code >= 200 && code < 300) {
        this.outbox.recordAttempt(m, attempt, 'delivered', null);
        return;
      }
      const delay = nextRetryDelayMs(this.options.retrySchedule, m.attempts.length + 1);
      const next = delay === null ? null : Date.now() + delay;
      this.outbox.recordAttempt(m, attempt, next === null ? 'failed' : 'failing', next);
      if (next !== null) this.schedule(m, next);
    } catch (err) {
      console.error(`delivery of ${m.id} to ${m.webhook_id}: ${(err as Error).message}`);
    } finally {
      lane.inFlight--;
      this.inFlight--;
      if (!this.stopped) this.pump(m.webhook_id, lane);
      else if (this.inFlight === 0) this.onIdle?.();
    }
  }
}
