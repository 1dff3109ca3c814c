import { Worker } from 'node:worker_threads';
import type { DeliveryAnswer, DeliveryMark, DeliveryQuery, DeliveryRules, DeliveryWorkerData, FromDelivery, ListedAttempt, MessageFilter, MessageSummary, ToDelivery, WebhookHealth, WebhookTarget } from '../contract/delivery-protocol';
import type { PageQuery } from '../contract/page';
import { SETTING_DEFAULTS } from '../contract/settings-api';
import type { DeliveryPort } from '../engine/events/emission';
import { type ProblemSink, printProblem } from '../lib/file-problems';
import { newId } from '../lib/ids';
import type { Page } from '../lib/pagination';
import { deliveryWorkerScript } from '../lib/paths';
import { compareEventIds } from '../store/event-id';
import type { KeptEvent, StoredEvent } from '../store/event-store';
import { MessageBatchBuilder } from './message-batch';

export interface DeliveryOptions {
  dataDir: string;
  retrySchedule: readonly number[];
  /** A receiver that has not answered within this is a failed attempt. */
  timeoutMs: number;
  /** A webhook whose attempts have all failed for this long is disabled; 0 never. Default 5 days. */
  disableAfterMs?: number;
  /** The current webhooks, with their secrets in clear; read again on every `syncWebhooks()`. */
  webhooks: () => WebhookTarget[];
  /** The port this service listens on, which no delivery connection may reach on this machine; sent with the webhooks. */
  servicePort?: () => number;
  /**
   * Marks a webhook inactive, keeping `reason`, because delivery gave up on it (410 Gone, or failing
   * too long); the webhook table is sent to the thread again once it resolves.
   */
  onDisable: (webhookId: string, reason: string) => Promise<void>;
  /** Receives what was found damaged when the outbox file was opened. */
  report?: ProblemSink;
}

/** Svix's: a webhook whose every attempt failed for 5 days is disabled. */
export const DEFAULT_DISABLE_AFTER_MS = SETTING_DEFAULTS.disable_after_seconds * 1000;

/** What `deliver()` answers when there is nothing to deliver. */
const DELIVERED = Promise.resolve();

/** Most requests in flight to one webhook, so a slow receiver holds only its own slots. */
const CONCURRENCY_PER_WEBHOOK = 16;

/** The delivery thread's young generation, MB (V8's default is 3 × 16 MB semi-spaces). */
const YOUNG_GENERATION_MB = 4;

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (err: Error) => void;
}

/**
 * Webhook delivery, run on its own thread (delivery-worker.ts) that owns the durable outbox and
 * sends from it with retries and signatures. This side hands it new messages, in one batch per
 * tick, and resolves once they are durable; it also keeps the thread's view of webhooks current
 * and answers the API's questions about messages. A thread that dies is started again: the
 * outbox on disk has every message it had accepted.
 */
export class DeliveryService implements DeliveryPort {
  private worker!: Worker;
  private seq = 0;
  private readonly adds = new Map<number, Waiter<void>>();
  private readonly queries = new Map<number, Waiter<DeliveryAnswer>>();
  private readonly batch = new MessageBatchBuilder();
  /** Settles when the batch being collected is durable: every `deliver()` of one tick shares it. */
  private batchDone: { promise: Promise<void>; waiter: Waiter<void> } | null = null;
  private stopping = false;
  /** Delivery marks of the outbox as the service started, by emitter, until deliverUnrecorded() used them. */
  private readonly marks = new Map<string, DeliveryMark>();
  /**
   * Until the thread first reports ready (its outbox replayed): the deliveries asked for, in order.
   * They need the delivery marks the replay finds, and must reach the outbox in the order asked.
   */
  private beforeReady: Array<(lost?: Error) => void> | null = [];

  private constructor(private readonly options: DeliveryOptions) {}

  /**
   * Starts the delivery thread without waiting for it to replay its outbox (a big backlog takes
   * seconds): what is asked of it meanwhile waits for it. `ready` settles once it has resumed the
   * deliveries left pending.
   */
  static start(options: DeliveryOptions): { service: DeliveryService; ready: Promise<void> } {
    const service = new DeliveryService(options);
    return { service, ready: service.spawn() };
  }

  /** Creates one message per webhook for the event; resolves once they are durable. */
  deliver(event: StoredEvent, webhookIds: readonly string[]): Promise<void> {
    if (webhookIds.length === 0) return DELIVERED;
    if (this.beforeReady) return this.afterReady(() => this.deliver(event, webhookIds));
    const created_at = Date.now();
    const hops = (event.hops ?? 0) + 1;
    for (const webhook_id of webhookIds) {
      this.batch.push({ id: newId('msg', 20), webhook_id, event_id: event.id, emitter_id: event.emitter_id, event_name: event.meta.name, body: event.json, created_at, hops });
    }
    if (!this.batchDone) {
      let waiter!: Waiter<void>;
      const promise = new Promise<void>((resolve, reject) => (waiter = { resolve, reject }));
      this.batchDone = { promise, waiter };
      queueMicrotask(() => this.flush());
    }
    return this.batchDone.promise;
  }

  /**
   * Mends a crash that fell between storing events and recording their delivery messages: of an
   * emitter's kept events (oldest first), those past its delivery mark get the messages they
   * lack, for the webhooks they were routed to that still exist. Resolves with how many were made,
   * once they are durable. Meant for the first opening of an emitter's events after a start; only
   * the events routed to webhooks are read.
   */
  async deliverUnrecorded(emitterId: string, events: readonly KeptEvent[], read: (kept: KeptEvent) => StoredEvent): Promise<number> {
    if (this.beforeReady) return this.afterReady(() => this.deliverUnrecorded(emitterId, events, read));
    const mark = this.marks.get(emitterId);
    this.marks.delete(emitterId);
    let start = events.length;
    while (start > 0 && (!mark || compareEventIds((events[start - 1] as KeptEvent).id, mark.event_id) >= 0)) start--;
    const webhooks = new Set(this.options.webhooks().map((w) => w.id));
    const made: Array<Promise<void>> = [];
    let count = 0;
    // Oldest first: messages must reach the outbox in event order (see DeliveryMark).
    for (let i = start; i < events.length; i++) {
      if (!(events[i] as KeptEvent).routed) continue;
      const event = read(events[i] as KeptEvent);
      const done = mark && event.id === mark.event_id ? mark.webhook_ids : [];
      const missing = (event.deliver_to ?? []).filter((id) => webhooks.has(id) && !done.includes(id));
      if (missing.length === 0) continue;
      count += missing.length;
      made.push(this.deliver(event, missing));
    }
    await Promise.all(made);
    return count;
  }

  /** Tells the thread the webhooks as they are now (after a create, update or delete). */
  syncWebhooks(): void {
    this.send({ type: 'webhooks', webhooks: this.options.webhooks(), servicePort: this.options.servicePort?.() ?? 0 });
  }

  /** Every webhook's delivery health (webhooks without messages are absent). */
  health(): Promise<Record<string, WebhookHealth>> {
    return this.ask({ kind: 'health' }) as Promise<Record<string, WebhookHealth>>;
  }

  /** A page of a webhook's messages the filter takes, newest first. */
  messages(webhookId: string, page: PageQuery, filter: MessageFilter = {}): Promise<Page<MessageSummary>> {
    return this.ask({ kind: 'messages', webhookId, page, filter }) as Promise<Page<MessageSummary>>;
  }

  /**
   * Asks for one manual attempt of a message, now, with its original webhook-id and body; resolves
   * (with the message) once the request is durable. Null if the webhook has no such message.
   */
  resend(webhookId: string, messageId: string): Promise<MessageSummary | null> {
    return this.ask({ kind: 'resend', webhookId, messageId }) as Promise<MessageSummary | null>;
  }

  /**
   * Asks for one manual attempt of every message of a webhook the filter takes (give it statuses:
   * `failed`, say); resolves with how many once the requests are durable.
   */
  async recover(webhookId: string, filter: MessageFilter): Promise<number> {
    const answer = (await this.ask({ kind: 'recover', webhookId, filter })) as { recovered: number };
    return answer.recovered;
  }

  /** The messages (to any webhook) of these events. */
  messagesFor(eventIds: string[]): Promise<MessageSummary[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    return this.ask({ kind: 'for-events', eventIds }) as Promise<MessageSummary[]>;
  }

  /** A page of a message's attempts, newest first; null if the webhook has no such message. */
  attempts(webhookId: string, messageId: string, page: PageQuery): Promise<Page<ListedAttempt> | null> {
    return this.ask({ kind: 'attempts', webhookId, messageId, page }) as Promise<Page<ListedAttempt> | null>;
  }

  /** Runs `work` once the thread is ready, after what was asked before it. */
  private afterReady<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.beforeReady!.push((lost) => (lost ? reject(lost) : void work().then(resolve, reject))));
  }

  private ask(query: DeliveryQuery): Promise<DeliveryAnswer> {
    const seq = this.seq++;
    return new Promise((resolve, reject) => {
      this.queries.set(seq, { resolve, reject });
      this.send({ type: 'query', seq, query });
    });
  }

  /** Stops the thread: requests in flight are aborted and resume after the next start. */
  async stop(): Promise<void> {
    this.stopping = true;
    const stopped = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.send({ type: 'stop' });
    await stopped;
  }

  private flush(): void {
    const messages = this.batch.take();
    const done = this.batchDone as { waiter: Waiter<void> };
    this.batchDone = null;
    const seq = this.seq++;
    this.adds.set(seq, done.waiter);
    this.send({ type: 'add', seq, messages });
  }

  /** Changes the retry schedule, request timeout and disable-after time of the running thread (the settings). */
  setRules(rules: DeliveryRules): void {
    Object.assign(this.options, rules);
    this.send({ type: 'rules', ...rules });
  }

  private send(message: ToDelivery): void {
    this.worker.postMessage(message);
  }

  private spawn(): Promise<void> {
    const data: DeliveryWorkerData = {
      dataDir: this.options.dataDir,
      retrySchedule: this.options.retrySchedule,
      timeoutMs: this.options.timeoutMs,
      concurrencyPerWebhook: CONCURRENCY_PER_WEBHOOK,
      disableAfterMs: this.options.disableAfterMs ?? DEFAULT_DISABLE_AFTER_MS,
    };
    // The service's flags (a loader, --input-type, …) are not the thread's business, but a profile
    // of the service (`--cpu-prof`, `--heap-prof`) covers the thread too.
    const execArgv = process.execArgv.filter((flag) => /^--(cpu|heap)-prof/.test(flag));
    // A small young generation: the thread's garbage is short-lived (a message's request and its
    // lines), and V8's default lets it grow by tens of MB under a backlog (docs/performance.md).
    const worker = new Worker(deliveryWorkerScript, { workerData: data, execArgv, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    this.worker = worker;
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: FromDelivery) => {
        switch (message.type) {
          case 'ready': {
            this.marks.clear();
            for (const mark of message.marks) this.marks.set(mark.emitter_id, mark);
            const waiting = this.beforeReady ?? [];
            this.beforeReady = null;
            for (const work of waiting) work();
            resolve();
            break;
          }
          case 'added': {
            const waiter = this.adds.get(message.seq);
            this.adds.delete(message.seq);
            if (message.error) waiter?.reject(new Error(`storing delivery messages failed: ${message.error}`));
            else waiter?.resolve();
            break;
          }
          case 'answer': {
            const waiter = this.queries.get(message.seq);
            this.queries.delete(message.seq);
            if (message.error) waiter?.reject(new Error(`the delivery thread could not answer: ${message.error}`));
            else waiter?.resolve(message.answer);
            break;
          }
          case 'problem':
            (this.options.report ?? printProblem)(message.problem);
            break;
          case 'disable':
            this.options
              .onDisable(message.webhookId, message.reason)
              .catch((err: Error) => console.error(`disabling webhook ${message.webhookId} failed: ${err.message}`))
              .finally(() => {
                if (!this.stopping) this.syncWebhooks();
              });
            break;
        }
      });
      worker.on('error', (err) => {
        console.error(`the delivery thread failed: ${err.stack ?? err.message}`);
        reject(err);
      });
      worker.on('exit', () => {
        const lost = new Error('the delivery thread stopped before answering');
        for (const w of [...this.adds.values(), ...this.queries.values()]) w.reject(lost);
        this.adds.clear();
        this.queries.clear();
        // Stopped before it was ready: what waited for it will not be done.
        if (this.stopping) for (const work of this.beforeReady?.splice(0) ?? []) work(lost);
        if (!this.stopping) setTimeout(() => void this.spawn().catch(() => undefined), 1000).unref();
      });
    });
    this.syncWebhooks();
    return ready;
  }
}
