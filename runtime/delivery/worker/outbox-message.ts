import type { Attempt, Message, MessageStatus, NewMessageBatch } from '../../contract/delivery-protocol';

/**
 * A message as the outbox holds it. The dispatcher's queues hold these objects rather than ids, so
 * a delivery looks nothing up in a map of every waiting message (tens of thousands under load,
 * mostly out of the cache by the time their turn comes).
 */
export class OutboxMessage implements Message {
  status: MessageStatus = 'pending';
  attempts: Attempt[] = [];
  next_attempt_at: number | null;
  scheduled_attempts = 0;
  manual_at: number | null = null;
  /** False once the outbox has forgotten the message (its webhook was deleted, or it aged out of the attempt log). */
  kept = true;
  /** The batch string the body is a slice of, while it is one (see BatchBodies). */
  #batch: BatchBodies | null = null;

  constructor(
    readonly id: string,
    readonly webhook_id: string,
    readonly event_id: string,
    readonly emitter_id: string,
    readonly event_name: string | null,
    public body: string,
    readonly created_at: number,
    readonly hops: number,
  ) {
    this.next_attempt_at = created_at;
  }

  /** Marks the message forgotten; a batch string it held a slice of may then be let go. */
  forget(): void {
    this.kept = false;
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = null;
    batch.used -= this.body.length;
    if (batch.used * LEFT_IN_USE < batch.text.length) batch.letGo();
  }

  /** The message's body, sliced out of its batch's string. */
  sliceBody(batch: BatchBodies, start: number, end: number): void {
    this.body = batch.text.slice(start, end);
    if (end - start === batch.text.length) return; // the whole string: it holds no other body
    this.#batch = batch;
    batch.used += end - start;
    batch.members.push(this);
  }

  /** Gives the message a body of its own, so that it no longer holds its batch's string. */
  ownBody(): void {
    if (!this.#batch) return;
    this.#batch = null;
    // A new flat string; a JSON round trip keeps every code unit (UTF-8 would not keep a lone surrogate).
    this.body = JSON.parse(JSON.stringify(this.body)) as string;
  }
}

/** A batch's string stays held while the messages the outbox keeps use at least 1/LEFT_IN_USE of it. */
const LEFT_IN_USE = 8;

/**
 * The string a batch's bodies arrived in (NewMessageBatch). Each body is a slice of it, which V8
 * keeps as a pointer into it, not a copy: a waiting message holds a few dozen bytes on the heap
 * instead of its body, and a backlog of tens of thousands costs the collector that much less to
 * copy. But one slice holds the whole string: once the messages still kept use under an eighth
 * of it (its other messages delivered and aged out), those few get bodies of their own, so a
 * message that waits long (a failing or disabled webhook) never holds a batch's worth of others.
 */
export class BatchBodies {
  /** Characters of the string that kept messages still use. */
  used = 0;
  members: OutboxMessage[] = [];

  constructor(readonly text: string) {}

  letGo(): void {
    for (const m of this.members) m.ownBody();
    this.members = [];
  }
}

/** The messages of a batch, their names shared and their bodies slices of the batch's string. */
export function batchMessages(b: NewMessageBatch): OutboxMessage[] {
  const bodies = new BatchBodies(b.bodies);
  const out: OutboxMessage[] = new Array(b.id.length);
  for (let i = 0; i < out.length; i++) {
    const channel = b.channel[i] as number;
    const m = new OutboxMessage(b.id[i]!, b.names[b.webhook[i]!]!, b.event_id[i]!, b.names[b.emitter[i]!]!, channel < 0 ? null : b.names[channel]!, '', b.created_at[i]!, b.hops[i]!);
    m.sliceBody(bodies, b.body_start[i]!, b.body_end[i]!);
    out[i] = m;
  }
  return out;
}
