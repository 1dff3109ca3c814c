import fs from 'node:fs';
import path from 'node:path';
import type { Attempt, DeliveryMark, MessageStatus, NewMessageBatch } from '../../contract/delivery-protocol';
import { AppendLog } from '../../lib/append-log';
import type { ProblemSink } from '../../lib/file-problems';
import { LineArena, type LineSpan, type RawLines } from '../../lib/line-arena';
import { compareEventIds } from '../../store/event-id';
import { SpillFile } from './backlog-spill';
import { Fifo } from './fifo';
import { attemptLine, attemptOf, checkOutboxLine, type Line, lineEventId, lineId, manualLine, markLine, messageLine, messageOf, messageOfLine, waiting } from './outbox-lines';
import { batchMessages, type OutboxMessage } from './outbox-message';

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

/**
 * Undelivered messages (pending or failing) a webhook keeps in memory; those past it wait in its
 * spill file (backlog-spill.ts) and are read back in order as these are delivered. Per webhook, so
 * a dead receiver's backlog never takes the room another webhook delivers from: memory is bounded
 * by this times the webhooks, whatever the backlog.
 */
export const BACKLOG_WINDOW = 2048;

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
  /** Per webhook, its undelivered messages in memory (at most about BACKLOG_WINDOW). */
  private readonly inWindow = new Map<string, number>();
  /** Per webhook, the messages past its window, once it had some. */
  private readonly spills = new Map<string, SpillFile>();
  /** Spill files made so far: the next one's name. */
  private spillFiles = 0;
  /**
   * While the file is replayed: lines about messages not in memory, by message id. Such a message
   * is in a spill file (the replay's window was fuller than the run's that wrote the line) or
   * forgotten; its lines are applied once it is read back, and those left are dropped at the end.
   */
  private orphans: Map<string, Line[]> | null = new Map();
  /** Receives messages read back from a spill file as the window drained (the dispatcher's enqueue). */
  onRefill: (messages: OutboxMessage[]) => void = () => {};

  private constructor(
    private readonly spillDir: string,
    private readonly window: number,
  ) {}

  /**
   * Opens the outbox file and replays it, line by line (damaged lines are reported and set aside);
   * undelivered messages past a webhook's window go to its spill file, in `<file>.backlog/`, as
   * the replay meets them, so a start holds the window, not the backlog.
   */
  static async open(file: string, report?: ProblemSink, window = BACKLOG_WINDOW): Promise<Outbox> {
    const spillDir = `${file}.backlog`;
    // Spill files are rebuilt from the durable record: what a previous run left is stale.
    fs.rmSync(spillDir, { recursive: true, force: true });
    fs.mkdirSync(spillDir, { recursive: true, mode: 0o700 });
    const outbox = new Outbox(spillDir, window);
    ({ log: outbox.log } = await AppendLog.open<Line>(file, { check: checkOutboxLine, report, onRecord: (r) => outbox.replay(r), unsyncedWithinMs: ATTEMPTS_WRITTEN_WITHIN_MS }));
    outbox.adoptOrphans();
    return outbox;
  }

  /** Undelivered messages of a webhook held in memory (its window), for tests and figures. */
  heldInMemory(webhookId: string): number {
    return this.inWindow.get(webhookId) ?? 0;
  }

  /** Messages of a webhook waiting in its spill file. */
  spilledCount(webhookId: string): number {
    return this.spills.get(webhookId)?.size ?? 0;
  }

  /**
   * Records a batch of new messages; resolves, once they are durable, with those taken into their
   * webhook's window (the others wait in its spill file).
   */
  async add(batch: NewMessageBatch): Promise<OutboxMessage[]> {
    const created = batchMessages(batch);
    const lines: string[] = new Array(created.length);
    const kept: OutboxMessage[] = [];
    for (let i = 0; i < created.length; i++) {
      const m = created[i] as OutboxMessage;
      const line = messageLine(m);
      lines[i] = line;
      this.mark(m.emitter_id, m.event_id, m.webhook_id);
      if (this.place(m, line)) kept.push(m);
    }
    for (const spill of this.spills.values()) spill.flush();
    this.liveLines += created.length;
    await this.log.appendLines(lines);
    return kept;
  }

  /**
   * Calls `visit` with each message waiting in a webhook's spill file, oldest first, until it
   * answers false; `want`, given a line's message id and event id, leaves others unread.
   */
  scanSpilled(webhookId: string, visit: (m: OutboxMessage) => boolean, want?: (id: string, eventId: string) => boolean): void {
    this.spills.get(webhookId)?.scan(lineId, (line) => (want && !want(lineId(line), lineEventId(line))) || visit(messageOfLine(line)));
  }

  /** The webhooks with messages in a spill file. */
  spilledWebhooks(): string[] {
    return [...this.spills].filter(([, spill]) => spill.size > 0).map(([id]) => id);
  }

  /** Takes a spilled message (from scanSpilled) into memory before its turn, for a resend or recover. */
  takeSpilled(m: OutboxMessage): OutboxMessage {
    const known = this.messages.get(m.id);
    if (known) return known;
    this.spills.get(m.webhook_id)?.take(m.id);
    this.messages.set(m.id, m);
    this.inWindow.set(m.webhook_id, this.heldInMemory(m.webhook_id) + 1);
    return m;
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
    const spill = this.spills.get(webhookId);
    if (spill) {
      this.liveLines -= spill.size;
      spill.remove();
      this.spills.delete(webhookId);
    }
    for (const m of this.messages.values()) if (m.webhook_id === webhookId) this.forget(m);
    this.delivered.delete(webhookId);
    this.inWindow.delete(webhookId);
  }

  /** Flushes and closes the file; then removes the spill files (a compaction under way still reads them). */
  async close(): Promise<void> {
    await this.log.close();
    for (const spill of this.spills.values()) spill.remove();
    this.spills.clear();
  }

  private spillOf(webhookId: string): SpillFile {
    let spill = this.spills.get(webhookId);
    if (!spill) this.spills.set(webhookId, (spill = new SpillFile(path.join(this.spillDir, `${this.spillFiles++}.jsonl`))));
    return spill;
  }

  /**
   * Takes a new message into its webhook's window, or, past it, appends its line to the webhook's
   * spill file (false). Once a webhook spills, its new messages queue behind the spilled ones, to
   * keep their order.
   */
  private place(m: OutboxMessage, line: string): boolean {
    const count = this.heldInMemory(m.webhook_id);
    if (count >= this.window || this.spilledCount(m.webhook_id) > 0) {
      this.spillOf(m.webhook_id).append(line);
      m.forget();
      return false;
    }
    this.inWindow.set(m.webhook_id, count + 1);
    this.messages.set(m.id, m);
    return true;
  }

  /**
   * After the replay: messages in a spill file that later lines were about (attempts, a manual
   * request) are taken into memory with those lines applied; lines about forgotten messages are dropped.
   */
  private adoptOrphans(): void {
    const orphans = this.orphans as Map<string, Line[]>;
    for (const spill of this.spills.values()) {
      if (orphans.size === 0) break;
      const found: OutboxMessage[] = [];
      spill.scan(lineId, (line) => (orphans.has(lineId(line)) && found.push(messageOfLine(line)), true));
      for (const m of found) spill.take(m.id);
      for (const m of found) {
        this.messages.set(m.id, m);
        this.inWindow.set(m.webhook_id, this.heldInMemory(m.webhook_id) + 1);
        this.adopt(m);
      }
    }
    this.orphans = null;
  }

  /** Applies the lines the replay set aside for a message now in memory. */
  private adopt(m: OutboxMessage): void {
    const lines = this.orphans?.get(m.id);
    if (!lines) return;
    this.orphans!.delete(m.id);
    for (const line of lines) this.applyLine(m, line);
  }

  /** Reads spilled messages back into a webhook's window once a quarter of it is free. */
  private refill(webhookId: string): void {
    const spill = this.spills.get(webhookId);
    const count = this.heldInMemory(webhookId);
    if (!spill || spill.size === 0 || this.window - count < Math.min(spill.size, Math.ceil(this.window / 4))) return;
    const back: OutboxMessage[] = [];
    for (const line of spill.read(this.window - count, lineId)) {
      const m = messageOfLine(line);
      this.messages.set(m.id, m);
      back.push(m);
    }
    this.inWindow.set(webhookId, count + back.length);
    if (this.orphans) for (const m of back) this.adopt(m);
    if (back.length > 0) this.onRefill(back);
  }

  /** Applies one line of the file to the state in memory. */
  private replay(r: Line): void {
    if (r.t === 'm') {
      const m = messageOf(r);
      this.liveLines++;
      this.mark(r.emitter_id, r.event_id, r.webhook_id);
      this.place(m, messageLine(m));
    } else if (r.t === 'w') {
      for (const id of r.webhook_ids) this.mark(r.emitter_id, r.event_id, id);
    } else {
      const m = this.messages.get(r.message_id);
      if (m) return this.applyLine(m, r);
      const orphans = this.orphans as Map<string, Line[]>;
      const lines = orphans.get(r.message_id);
      if (lines) lines.push(r);
      else orphans.set(r.message_id, [r]);
    }
  }

  /** Applies a line about a message (an attempt, a manual request) to it. */
  private applyLine(m: OutboxMessage, r: Line): void {
    if (r.t === 'r') m.manual_at = r.at;
    else if (r.t === 'a') this.apply(m, attemptOf(r), r.status, r.next_attempt_at);
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
    if (m.kept && waiting(m) === false && (was === 'pending' || was === 'failing')) {
      this.inWindow.set(m.webhook_id, this.heldInMemory(m.webhook_id) - 1);
      this.refill(m.webhook_id);
    }
    if (status !== 'delivered' || was === 'delivered' || !m.kept) return;
    let done = this.delivered.get(m.webhook_id);
    if (!done) this.delivered.set(m.webhook_id, (done = new Fifo()));
    done.push(m);
    while (done.size > DELIVERED_KEPT_PER_WEBHOOK) this.forget(done.take() as OutboxMessage);
  }

  private forget(m: OutboxMessage): void {
    if (!m.kept) return;
    if (waiting(m)) this.inWindow.set(m.webhook_id, this.heldInMemory(m.webhook_id) - 1);
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
    // Spilled messages are in the record too: their lines are copied as they are (for the length
    // of the compaction, the arena holds them).
    for (const spill of this.spills.values()) spill.scan(lineId, (line) => (add(line), true));
    return arena.linesFrom(first, count);
  }
}
