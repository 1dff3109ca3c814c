import type { Attempt, DeliveryMark, MessageStatus, NewMessage, NewMessageBatch } from '../../contract/delivery-protocol';
import { AppendLog } from '../../lib/append-log';
import type { ProblemSink } from '../../lib/file-problems';
import { LineArena, type LineSpan, type RawLines } from '../../lib/line-arena';
import { compareEventIds } from '../../store/event-id';
import { Fifo } from './fifo';
import { batchMessages, OutboxMessage } from './outbox-message';

/** `hops` is left out at 1 (and was absent before deliveries carried it). */
type MessageLine = Omit<NewMessage, 'body' | 'hops'> & { t: 'm'; body: unknown; hops?: number };
/**
 * An attempt and the state it left its message in. Lines written before the request was kept by
 * its timestamp and signature carry `request_headers` instead (null, or absent, before that).
 */
type AttemptLine = Partial<Pick<Attempt, 'timestamp' | 'signature'>> & Omit<Attempt, 'timestamp' | 'signature'> & { t: 'a'; message_id: string; status: MessageStatus; next_attempt_at: number | null; request_headers?: Record<string, string> | null };
/** A manual attempt asked for (resend, recover) at `at`; made durable before the request is answered. */
type ManualLine = { t: 'r'; message_id: string; at: number };
/** An emitter's delivery mark, written by compaction so that it outlives the messages it was read from. */
type MarkLine = { t: 'w' } & DeliveryMark;
type Line = MessageLine | AttemptLine | ManualLine | MarkLine;

const isString = (v: unknown) => typeof v === 'string';
/** A field a later version added: absent or null in older lines. */
const absentOr = (v: unknown, test: (v: unknown) => boolean) => v === undefined || v === null || test(v);

/** What is wrong with a line of `deliveries.jsonl`, or null for one of its lines. */
export function checkOutboxLine(value: unknown): string | null {
  const r = value as Record<string, unknown> | null;
  if (typeof r !== 'object' || r === null) return 'not a delivery line (a JSON object was expected)';
  const ok =
    (r.t === 'm' && isString(r.id) && isString(r.webhook_id) && isString(r.event_id) && isString(r.emitter_id) && typeof r.created_at === 'number' && absentOr(r.hops, Number.isInteger) && 'body' in r) ||
    (r.t === 'a' && isString(r.message_id) && isString(r.status) && typeof r.created_at === 'number' && isString(r.trigger) && absentOr(r.timestamp, Number.isFinite) && absentOr(r.signature, isString)) ||
    (r.t === 'r' && isString(r.message_id) && typeof r.at === 'number') ||
    (r.t === 'w' && isString(r.emitter_id) && isString(r.event_id) && Array.isArray(r.webhook_ids));
  return ok ? null : `not a delivery line (unknown kind or missing fields: ${JSON.stringify(r.t ?? null)})`;
}

/** Delivered messages kept per webhook for the attempt log; older ones are forgotten. */
const DELIVERED_KEPT_PER_WEBHOOK = 1000;

/**
 * The file is compacted once it holds twice the lines it needs and at least this much: below it
 * the lines a compaction drops cost little to keep, and under delivery load compacting a small
 * file every few thousand deliveries took 5% of the delivery thread (bench/profile.ts).
 */
const COMPACT_BYTES = 32 * 1024 * 1024;

/**
 * Attempt lines are written in batches at most this old: a write every few deliveries made the
 * delivery thread 12% slower (bench/ab.ts). A crash in that window loses only attempts, whose
 * messages are then sent again (at least once).
 */
const ATTEMPTS_WRITTEN_WITHIN_MS = 5;

const str = JSON.stringify;

// Lines are assembled by hand: this runs for every message and attempt, and a generic
// JSON.stringify of a fresh object costs several times more.
function messageLine(m: NewMessage): string {
  // The body is JSON made by JSON.stringify, a fixed point of parse-then-stringify: embedding it
  // unescaped keeps lines small and it reads back byte-for-byte.
  const hops = m.hops > 1 ? `,"hops":${m.hops}` : '';
  return `{"t":"m","id":${str(m.id)},"webhook_id":${str(m.webhook_id)},"event_id":${str(m.event_id)},"emitter_id":${str(m.emitter_id)},"event_name":${str(m.event_name)},"created_at":${m.created_at}${hops},"body":${m.body}}`;
}

/** The last response headers serialised, and their JSON: the sender hands out one record while a receiver's headers repeat. */
let lastHeaders: Attempt['response_headers'] = null;
let lastHeadersJson = 'null';

function headersJson(headers: Attempt['response_headers']): string {
  if (headers !== lastHeaders) {
    lastHeaders = headers;
    lastHeadersJson = str(headers);
  }
  return lastHeadersJson;
}

function attemptLine(messageId: string, a: Attempt, status: MessageStatus, next: number | null): string {
  return `{"t":"a","message_id":${str(messageId)},"timestamp":${a.timestamp},"signature":${str(a.signature)},"status_code":${a.status_code},"duration_ms":${a.duration_ms},"response_body":${str(a.response_body)},"response_headers":${headersJson(a.response_headers)},"error":${str(a.error)},"trigger":"${a.trigger}","created_at":${a.created_at},"status":"${status}","next_attempt_at":${next}}`;
}

/** The attempt a line records, whichever version wrote it. */
function attemptOf(r: AttemptLine): Attempt {
  const stamp = Number(r.request_headers?.['webhook-timestamp']);
  return {
    timestamp: r.timestamp ?? (Number.isFinite(stamp) ? stamp : null),
    signature: r.signature ?? r.request_headers?.['webhook-signature'] ?? null,
    status_code: r.status_code,
    duration_ms: r.duration_ms,
    response_body: r.response_body,
    // Lines written before response headers were kept lack them.
    response_headers: r.response_headers ?? null,
    error: r.error,
    trigger: r.trigger,
    created_at: r.created_at,
  };
}

function manualLine(messageId: string, at: number): string {
  return `{"t":"r","message_id":${str(messageId)},"at":${at}}`;
}

function markLine(m: DeliveryMark): string {
  return `{"t":"w","emitter_id":${str(m.emitter_id)},"event_id":${str(m.event_id)},"webhook_ids":${str(m.webhook_ids)}}`;
}

/**
 * The durable record of deliveries (`deliveries.jsonl`): a line when a message is created and a
 * line per attempt carrying the message's new state, so replaying the file restores every
 * message, its attempts and its schedule after a crash. Undelivered messages are all kept; of the
 * delivered ones, the latest 1000 per webhook (for the attempt log), in memory and, after
 * compaction, on disk.
 */
export class Outbox {
  readonly messages = new Map<string, OutboxMessage>();
  /** Delivered messages per webhook, oldest first. */
  private readonly delivered = new Map<string, Fifo<OutboxMessage>>();
  /** Lines a compacted file would hold: one per kept message and per kept attempt. */
  private liveLines = 0;
  /** Per emitter: the newest event with messages, and the webhooks it has them for. */
  private readonly marks = new Map<string, { event_id: string; webhook_ids: Set<string> }>();

  /** Set once the file is open (its lines are replayed as it is read). */
  private log!: AppendLog<Line>;

  private constructor() {}

  /** Opens the outbox file and replays it, line by line (damaged lines are reported and set aside). */
  static async open(file: string, report?: ProblemSink): Promise<Outbox> {
    const outbox = new Outbox();
    ({ log: outbox.log } = await AppendLog.open<Line>(file, { check: checkOutboxLine, report, onRecord: (r) => outbox.replay(r), unsyncedWithinMs: ATTEMPTS_WRITTEN_WITHIN_MS }));
    return outbox;
  }

  /** Records a batch of new messages; resolves with them once they are durable. */
  async add(batch: NewMessageBatch): Promise<OutboxMessage[]> {
    const created = batchMessages(batch);
    const lines: string[] = new Array(created.length);
    for (let i = 0; i < created.length; i++) {
      const m = created[i] as OutboxMessage;
      this.messages.set(m.id, m);
      lines[i] = messageLine(m);
      this.mark(m.emitter_id, m.event_id, m.webhook_id);
    }
    this.liveLines += created.length;
    await this.log.appendLines(lines);
    return created;
  }

  /**
   * Records an attempt and the state it leaves the message in. Not synced one by one: if the
   * service dies before the line is on disk, the message is simply sent again after restart
   * (at least once), which costs less than holding a delivery slot for every sync.
   */
  recordAttempt(message: OutboxMessage, attempt: Attempt, status: MessageStatus, next: number | null): void {
    this.apply(message, attempt, status, next);
    this.log.appendUnsynced([attemptLine(message.id, attempt, status, next)]);
    this.maybeCompact();
  }

  /**
   * Asks for one manual attempt of each message (resend, recover); resolves once that is durable,
   * so the attempt is made even if the service dies first. Requests made before an attempt starts
   * are answered by that one attempt; one made while it is in flight gets another.
   */
  async requestManual(messages: OutboxMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const at = Date.now();
    await this.log.appendLines(messages.map((m) => manualLine(m.id, at)));
    for (const m of messages) if (m.kept) m.manual_at = at;
  }

  /** Every emitter's delivery mark (see DeliveryMark). */
  deliveryMarks(): DeliveryMark[] {
    return [...this.marks].map(([emitter_id, m]) => ({ emitter_id, event_id: m.event_id, webhook_ids: [...m.webhook_ids] }));
  }

  /** Forgets every message of a deleted webhook. */
  dropWebhook(webhookId: string): void {
    for (const m of this.messages.values()) if (m.webhook_id === webhookId) this.forget(m);
    this.delivered.delete(webhookId);
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    return this.log.close();
  }

  /** Applies one line of the file to the state in memory. */
  private replay(r: Line): void {
    if (r.t === 'm') {
      this.messages.set(r.id, new OutboxMessage(r.id, r.webhook_id, r.event_id, r.emitter_id, r.event_name ?? null, JSON.stringify(r.body), r.created_at, r.hops ?? 1));
      this.liveLines++;
      this.mark(r.emitter_id, r.event_id, r.webhook_id);
    } else if (r.t === 'w') {
      for (const id of r.webhook_ids) this.mark(r.emitter_id, r.event_id, id);
    } else if (r.t === 'r') {
      const m = this.messages.get(r.message_id);
      if (m) m.manual_at = r.at;
    } else {
      const m = this.messages.get(r.message_id);
      if (!m) return;
      this.apply(m, attemptOf(r), r.status, r.next_attempt_at);
    }
  }

  private mark(emitterId: string, eventId: string, webhookId: string): void {
    const current = this.marks.get(emitterId);
    const order = current ? compareEventIds(eventId, current.event_id) : 1;
    if (order > 0) this.marks.set(emitterId, { event_id: eventId, webhook_ids: new Set([webhookId]) });
    else if (order === 0) current!.webhook_ids.add(webhookId);
  }

  private apply(m: OutboxMessage, attempt: Attempt, status: MessageStatus, next: number | null): void {
    const was = m.status;
    // Most messages have one attempt: a list of one, where a push onto the empty list reserves 17.
    if (m.attempts.length === 0) m.attempts = [attempt];
    else m.attempts.push(attempt);
    m.status = status;
    m.next_attempt_at = next;
    if (attempt.trigger === 'scheduled') m.scheduled_attempts++;
    // A manual attempt answers every request made before it started.
    else if (m.manual_at !== null && m.manual_at <= attempt.created_at) m.manual_at = null;
    this.liveLines++;
    if (status !== 'delivered' || was === 'delivered' || !m.kept) return;
    let done = this.delivered.get(m.webhook_id);
    if (!done) this.delivered.set(m.webhook_id, (done = new Fifo()));
    done.push(m);
    while (done.size > DELIVERED_KEPT_PER_WEBHOOK) this.forget(done.take() as OutboxMessage);
  }

  private forget(m: OutboxMessage): void {
    if (!m.kept) return;
    m.forget();
    this.messages.delete(m.id);
    this.liveLines -= 1 + m.attempts.length;
  }

  private maybeCompact(): void {
    if (this.log.lineCount >= 2 * this.liveLines + 10_000 && this.log.byteCount >= COMPACT_BYTES) this.log.compactInBackground(() => this.snapshot());
  }

  /**
   * What a compacted file holds, each line encoded into buffers as it is made: a list of tens of
   * thousands of lines outlived a few young collections and was copied into the old generation
   * (a seventh of what the delivery thread promoted), then joined and copied twice more.
   */
  private snapshot(): RawLines {
    const arena = new LineArena();
    let first: LineSpan | null = null;
    let count = 0;
    const add = (line: string) => {
      const span = arena.append(line);
      first ??= span;
      count++;
    };
    for (const mark of this.deliveryMarks()) add(markLine(mark));
    for (const m of this.messages.values()) {
      add(messageLine(m));
      for (const a of m.attempts) add(attemptLine(m.id, a, m.status, m.next_attempt_at));
      if (m.manual_at !== null) add(manualLine(m.id, m.manual_at));
    }
    return arena.linesFrom(first, count);
  }
}
