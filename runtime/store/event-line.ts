// An event's line in its source's file: built field by field, the emitted JSON embedded as it is.
import type { EventMeta, StoredEvent } from './event-store';

const str = JSON.stringify;

/** A number as JSON.stringify writes it (a non-finite one as null). */
function num(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/**
 * An event's meta as JSON, field by field in the order `append` builds it: the same text as
 * JSON.stringify of the object, which made an event's whole line take half as long again (it runs
 * for every event stored). A meta of another shape goes through JSON.stringify.
 */
function metaJson(m: EventMeta): string {
  const { id, name, summary, ts, invocation_id, emit_id } = m;
  const usual = (typeof id === 'string' || typeof id === 'number') && (name === null || typeof name === 'string') && (summary === null || typeof summary === 'string') && typeof ts === 'number' && (invocation_id === undefined || typeof invocation_id === 'string') && typeof emit_id === 'string';
  if (!usual) return str(m);
  const invocation = invocation_id === undefined ? '' : `,"invocation_id":${str(invocation_id)}`;
  return `{"id":${typeof id === 'number' ? num(id) : str(id)},"name":${name === null ? 'null' : str(name)},"summary":${summary === null ? 'null' : str(summary)},"ts":${num(ts)}${invocation},"emit_id":${str(emit_id)}}`;
}

/** Serialises one event as a log line, embedding the emitted JSON without re-encoding it. */
export function eventLine(e: StoredEvent): string {
  const to = e.deliver_to?.length ? `,"to":${str(e.deliver_to)}` : '';
  const hops = e.hops ? `,"hops":${e.hops}` : '';
  return `{"id":${str(e.id)},"indexed_at_ms":${e.indexed_at_ms},"emitter_id":${str(e.emitter_id)},"meta":${metaJson(e.meta)}${to}${hops},"event":${e.json}}`;
}

/** The emitted JSON value an event's line holds (parsed, without building the stored event). */
export function eventValueOf(line: string): unknown {
  return (JSON.parse(line) as { event?: unknown }).event;
}
