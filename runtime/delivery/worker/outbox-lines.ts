import type { Attempt, DeliveryMark, MessageStatus, NewMessage } from '../../contract/delivery-protocol';
import { OutboxMessage } from './outbox-message';

/** `hops` is left out at 1 (and was absent before deliveries carried it). */
export type MessageLine = Omit<NewMessage, 'body' | 'hops'> & { t: 'm'; body: unknown; hops?: number };
/**
 * An attempt and the state it left its message in. Lines written before the request was kept by
 * its timestamp and signature carry `request_headers` instead (null, or absent, before that).
 */
export type AttemptLine = Partial<Pick<Attempt, 'timestamp' | 'signature'>> & Omit<Attempt, 'timestamp' | 'signature'> & { t: 'a'; message_id: string; status: MessageStatus; next_attempt_at: number | null; request_headers?: Record<string, string> | null };
/** A manual attempt asked for (resend, recover) at `at`; made durable before the request is answered. */
export type ManualLine = { t: 'r'; message_id: string; at: number };
/** An emitter's delivery mark, written by compaction so that it outlives the messages it was read from. */
export type MarkLine = { t: 'w' } & DeliveryMark;
export type Line = MessageLine | AttemptLine | ManualLine | MarkLine;

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

const str = JSON.stringify;

/** A message line's id (lines are written by messageLine: the id is the second field). */
export const lineId = (line: string) => line.slice(15, line.indexOf('"', 15));

/** A message line's event id, read without parsing the line (ids are written unescaped: letters, digits, `-`, `_`). */
export function lineEventId(line: string): string {
  const at = line.indexOf('"event_id":"') + 12;
  return line.slice(at, line.indexOf('"', at));
}

/**
 * The message a line written by messageLine records, its body taken as it is in the line: it is
 * the last field, and JSON.stringify's output, so parsing and writing it again would give it back
 * unchanged at several times the cost (a backlog read back from a spill file is read this way).
 */
export function messageOfLine(line: string): OutboxMessage {
  // `,"body":` cannot occur inside an earlier field: a quote in a string is escaped.
  const at = line.indexOf(',"body":');
  const r = JSON.parse(`${line.slice(0, at)}}`) as MessageLine;
  return new OutboxMessage(r.id, r.webhook_id, r.event_id, r.emitter_id, r.event_name ?? null, line.slice(at + 8, -1), r.created_at, r.hops ?? 1);
}

/** The message a line of the file (or of a spill file) records. */
export function messageOf(r: MessageLine): OutboxMessage {
  return new OutboxMessage(r.id, r.webhook_id, r.event_id, r.emitter_id, r.event_name ?? null, JSON.stringify(r.body), r.created_at, r.hops ?? 1);
}

export const waiting = (m: OutboxMessage) => m.status === 'pending' || m.status === 'failing';

// Lines are assembled by hand: this runs for every message and attempt, and a generic
// JSON.stringify of a fresh object costs several times more.
export function messageLine(m: NewMessage): string {
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

export function attemptLine(messageId: string, a: Attempt, status: MessageStatus, next: number | null): string {
  return `{"t":"a","message_id":${str(messageId)},"timestamp":${a.timestamp},"signature":${str(a.signature)},"status_code":${a.status_code},"duration_ms":${a.duration_ms},"response_body":${str(a.response_body)},"response_headers":${headersJson(a.response_headers)},"error":${str(a.error)},"trigger":"${a.trigger}","created_at":${a.created_at},"status":"${status}","next_attempt_at":${next}}`;
}

/** The attempt a line records, whichever version wrote it. */
export function attemptOf(r: AttemptLine): Attempt {
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

export function manualLine(messageId: string, at: number): string {
  return `{"t":"r","message_id":${str(messageId)},"at":${at}}`;
}

export function markLine(m: DeliveryMark): string {
  return `{"t":"w","emitter_id":${str(m.emitter_id)},"event_id":${str(m.event_id)},"webhook_ids":${str(m.webhook_ids)}}`;
}
