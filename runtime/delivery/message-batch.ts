import type { NewMessage, NewMessageBatch } from '../contract/delivery-protocol';

const emptyBatch = (): NewMessageBatch => ({ id: [], event_id: [], created_at: [], hops: [], webhook: [], emitter: [], channel: [], names: [], bodies: '', body_start: [], body_end: [] });

/** Collects new messages into the form they cross to the delivery thread in (see NewMessageBatch). */
export class MessageBatchBuilder {
  private batch = emptyBatch();
  private names = new Map<string, number>();
  private bodies: string[] = [];
  private length = 0;
  private lastBody: string | null = null;
  private lastStart = 0;

  /** Messages collected since the last take(). */
  get size(): number {
    return this.batch.id.length;
  }

  push(m: NewMessage): void {
    const b = this.batch;
    b.id.push(m.id);
    b.event_id.push(m.event_id);
    b.created_at.push(m.created_at);
    b.hops.push(m.hops);
    b.webhook.push(this.name(m.webhook_id));
    b.emitter.push(this.name(m.emitter_id));
    b.channel.push(m.event_name === null ? -1 : this.name(m.event_name));
    // One event's messages to several webhooks come one after another, with the same body.
    if (m.body !== this.lastBody) {
      this.lastBody = m.body;
      this.lastStart = this.length;
      this.bodies.push(m.body);
      this.length += m.body.length;
    }
    b.body_start.push(this.lastStart);
    b.body_end.push(this.lastStart + m.body.length);
  }

  /** The batch collected so far; the builder starts a new one. */
  take(): NewMessageBatch {
    const b = this.batch;
    b.bodies = this.bodies.join('');
    this.batch = emptyBatch();
    this.names = new Map();
    this.bodies = [];
    this.length = 0;
    this.lastBody = null;
    this.lastStart = 0;
    return b;
  }

  private name(value: string): number {
    let index = this.names.get(value);
    if (index === undefined) {
      index = this.batch.names.push(value) - 1;
      this.names.set(value, index);
    }
    return index;
  }
}
