import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppendLog } from '../lib/append-log';
import type { ProblemSink } from '../lib/file-problems';
import { makePrivateDir } from '../lib/private-files';
import { compareEventIds, EventIdClock, isEventId } from './event-id';

/** Metadata of a stored event (the `metadata` of an event summary, less `emitter_id`). */
export interface EventMeta {
  emit_id: string;
  id: string | number;
  name: string | null;
  summary: string | null;
  ts: number;
  /** The run that emitted it (absent for events stored before runs were recorded). */
  invocation_id?: string;
}

/** An event as the store keeps it: `json` is the emitted data exactly as serialised at `$emit`. */
export interface StoredEvent {
  id: string;
  indexed_at_ms: number;
  emitter_id: string;
  json: string;
  meta: EventMeta;
  /**
   * The webhooks it was routed to when stored, kept on its line so that a crash between storing
   * it and recording its deliveries can be mended on the next start (see DeliveryService.deliverUnrecorded).
   */
  deliver_to?: readonly string[];
}

/** An event about to be stored; the store assigns its id. */
export interface NewEvent {
  json: string;
  /** `id` defaults to the event id (no dedupe id given), `emit_id` likewise. */
  meta: Omit<EventMeta, 'emit_id' | 'id'> & { id?: string | number; emit_id?: string };
  deliver_to?: readonly string[];
}

type Listener = (event: StoredEvent) => void;

/** Told of a source's stored events (oldest first) each time its log is opened. */
export type OpenHook = (sourceId: string, events: readonly StoredEvent[]) => void;

interface EventLine {
  id: string;
  indexed_at_ms: number;
  emitter_id: string;
  meta: EventMeta;
  event: unknown;
  to?: string[];
}

interface SourceEvents {
  log: AppendLog<unknown>;
  /** Oldest first, within the retention (plus a little slack before trimming). */
  events: StoredEvent[];
  /** Size of each event's line, in step with `events`. */
  sizes: number[];
  bytes: number;
  listeners: Set<Listener>;
}

/** Bytes of events kept in memory per source: 64 MB, or 1 KB an event for a larger retention. Past it the oldest go first, however few are kept. */
export function eventBytesKept(retention: number): number {
  return Math.max(64 * 1024 * 1024, retention * 1024);
}

/** What is wrong with a line of an events file, or null for an event. */
export function checkEventLine(value: unknown): string | null {
  const line = value as Partial<EventLine> | null;
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return 'not an event (a JSON object was expected)';
  if (typeof line.id !== 'string' || !isEventId(line.id)) return 'not an event (no "<ms>-<seq>" id)';
  if (typeof line.indexed_at_ms !== 'number' || typeof line.emitter_id !== 'string') return 'not an event (no indexed_at_ms or emitter_id)';
  if (typeof line.meta !== 'object' || line.meta === null || !('event' in line)) return 'not an event (no meta or event)';
  if (line.to !== undefined && !(Array.isArray(line.to) && line.to.every((id) => typeof id === 'string'))) return 'not an event ("to" is not a list of webhook ids)';
  return null;
}

/** Serialises one event as a log line, embedding the emitted JSON without re-encoding it. */
function toLine(e: StoredEvent): string {
  const to = e.deliver_to?.length ? `,"to":${JSON.stringify(e.deliver_to)}` : '';
  return `{"id":${JSON.stringify(e.id)},"indexed_at_ms":${e.indexed_at_ms},"emitter_id":${JSON.stringify(e.emitter_id)},"meta":${JSON.stringify(e.meta)}${to},"event":${e.json}}`;
}

function fromLine(line: EventLine): StoredEvent {
  const e: StoredEvent = { id: line.id, indexed_at_ms: line.indexed_at_ms, emitter_id: line.emitter_id, meta: line.meta, json: JSON.stringify(line.event) };
  if (line.to) e.deliver_to = line.to;
  return e;
}

/**
 * Events of each source, in an append-only file per source (`events/<dc_id>.jsonl`) and in memory
 * up to the retention limit (a count, and eventBytesKept). Appending costs the same however many
 * events are stored: old events are trimmed from memory in batches and the file is compacted once
 * it holds twice the limit.
 */
export class EventStore {
  private readonly sources = new Map<string, SourceEvents>();
  private readonly clock = new EventIdClock();
  private readonly openHooks: OpenHook[] = [];

  constructor(
    private readonly dir: string,
    private readonly retention: number,
    /** Receives what was found damaged when a source's file is read. */
    private readonly report?: ProblemSink,
    private readonly bytesKept = eventBytesKept(retention),
  ) {}

  /** Calls `hook` with the events already stored each time a source's log is opened. */
  onOpen(hook: OpenHook): void {
    this.openHooks.push(hook);
  }

  /**
   * Opens (or creates) the event log of a source, reading its file line by line: only the newest
   * events within the retention are kept, so a file of any length opens in the same memory.
   */
  async openSource(sourceId: string): Promise<void> {
    if (this.sources.has(sourceId)) return;
    makePrivateDir(this.dir);
    const source: SourceEvents = { log: null as unknown as AppendLog<unknown>, events: [], sizes: [], bytes: 0, listeners: new Set() };
    ({ log: source.log } = await AppendLog.open<EventLine>(this.file(sourceId), {
      check: checkEventLine,
      report: this.report,
      onRecord: (line, size) => {
        source.events.push(fromLine(line));
        source.sizes.push(size);
        source.bytes += size;
        if (source.events.length > 2 * this.retention || source.bytes > 2 * this.bytesKept) this.trimMemory(source, 0);
      },
    }));
    this.trimMemory(source, 0);
    for (const e of source.events.slice(-1)) this.clock.observe(e.id);
    this.sources.set(sourceId, source);
    // Those kept: a crash falls between the newest events and their deliveries, not the oldest.
    if (source.events.length > 0) for (const hook of this.openHooks) hook(sourceId, source.events);
  }

  /**
   * Stores the events of one run in order. Ids are assigned at once; `durable` resolves when the
   * events are on disk, and only then are stream listeners told of them.
   */
  append(sourceId: string, batch: NewEvent[], now = Date.now()): { stored: StoredEvent[]; durable: Promise<void> } {
    const source = this.get(sourceId);
    const stored = batch.map((e): StoredEvent => {
      const { id, ms } = this.clock.next(now);
      const meta: EventMeta = { ...e.meta, id: e.meta.id ?? id, emit_id: e.meta.emit_id ?? id };
      const stored: StoredEvent = { id, indexed_at_ms: ms, emitter_id: sourceId, json: e.json, meta };
      if (e.deliver_to?.length) stored.deliver_to = e.deliver_to;
      return stored;
    });
    const lines = stored.map(toLine);
    // One push per event: spreading a run's events as arguments overflows the stack past ~100 000.
    for (let i = 0; i < stored.length; i++) {
      const size = Buffer.byteLength(lines[i] as string) + 1;
      source.events.push(stored[i] as StoredEvent);
      source.sizes.push(size);
      source.bytes += size;
    }
    const durable = source.log.appendLines(lines).then(() => {
      for (const e of stored) for (const listener of source.listeners) listener(e);
    });
    this.trim(source);
    return { stored, durable };
  }

  /** Retained events, newest first, filtered by channel and bounded by cursors (exclusive). */
  list(sourceId: string, query: { before?: string; after?: string; eventName?: string | null } = {}): StoredEvent[] {
    const { events } = this.get(sourceId);
    const out: StoredEvent[] = [];
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i] as StoredEvent;
      if (query.after && compareEventIds(e.id, query.after) <= 0) break;
      if (query.before && compareEventIds(e.id, query.before) >= 0) continue;
      if (query.eventName === undefined ? isSystemChannel(e.meta.name) : e.meta.name !== query.eventName) continue;
      out.push(e);
    }
    return out;
  }

  /** One retained event by id (ids are in order, so a binary search); undefined for a source gone. */
  find(sourceId: string, eventId: string): StoredEvent | undefined {
    const events = this.sources.get(sourceId)?.events ?? [];
    let lo = 0;
    let hi = events.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = events[mid] as StoredEvent;
      const c = compareEventIds(e.id, eventId);
      if (c === 0) return e;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Retained events newer than `afterId`, oldest first (SSE resume). */
  since(sourceId: string, afterId: string): StoredEvent[] {
    return this.list(sourceId, { after: afterId }).reverse();
  }

  /**
   * Deletes a source's events from `startId` to `endId` (inclusive; either open), only those of
   * `eventName` when given; answers how many went. The file is rewritten without them.
   */
  async delete(sourceId: string, range: { startId?: string; endId?: string; eventName?: string | null }): Promise<number> {
    const source = this.get(sourceId);
    const doomed = (e: StoredEvent) =>
      (range.startId === undefined || compareEventIds(e.id, range.startId) >= 0) &&
      (range.endId === undefined || compareEventIds(e.id, range.endId) <= 0) &&
      (range.eventName === undefined || e.meta.name === range.eventName);
    const before = source.events.length;
    const sizes: number[] = [];
    source.events = source.events.filter((e, i) => {
      if (doomed(e)) return false;
      sizes.push(source.sizes[i] as number);
      return true;
    });
    source.sizes = sizes;
    source.bytes = sizes.reduce((n, size) => n + size, 0);
    const deleted = before - source.events.length;
    if (deleted > 0) await source.log.rewrite(() => source.events.map(toLine));
    return deleted;
  }

  /** Calls `listener` with each event stored from now on; returns the unsubscribe function. */
  subscribe(sourceId: string, listener: Listener): () => void {
    const { listeners } = this.get(sourceId);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Closes the source's log and deletes its events. */
  async removeSource(sourceId: string): Promise<void> {
    const source = this.sources.get(sourceId);
    if (!source) return;
    this.sources.delete(sourceId);
    await source.log.close();
    await fsp.rm(this.file(sourceId), { force: true });
  }

  /** Flushes and closes every log. */
  async close(): Promise<void> {
    await Promise.all([...this.sources.values()].map((s) => s.log.close()));
    this.sources.clear();
  }

  private get(sourceId: string): SourceEvents {
    const source = this.sources.get(sourceId);
    if (!source) throw new Error(`no event log is open for ${sourceId}`);
    return source;
  }

  private trim(source: SourceEvents): void {
    // Trimming in batches of a tenth keeps the cost of each append constant.
    const slack = Math.max(1, Math.floor(this.retention / 10));
    this.trimMemory(source, slack);
    const { log } = source;
    if (log.lineCount > 2 * this.retention + slack || log.byteCount > 2 * this.bytesKept) {
      log.compactInBackground(() => source.events.slice(-this.retention).map(toLine));
    }
  }

  /** Drops the oldest events past the retention (count and bytes), once they are `slack` over it. */
  private trimMemory(source: SourceEvents, slack: number): void {
    const byteSlack = slack > 0 ? this.bytesKept / 10 : 0;
    if (source.events.length <= this.retention + slack && source.bytes <= this.bytesKept + byteSlack) return;
    let drop = Math.max(0, source.events.length - this.retention);
    let left = source.bytes;
    for (let i = 0; i < drop; i++) left -= source.sizes[i] as number;
    while (left > this.bytesKept && drop < source.events.length - 1) left -= source.sizes[drop++] as number;
    source.events.splice(0, drop);
    source.sizes.splice(0, drop);
    source.bytes = left;
  }

  private file(sourceId: string): string {
    return path.join(this.dir, `${sourceId}.jsonl`);
  }
}

/** `$errors` and `$logs` carry a source's run errors and log lines: listed only when asked for by name. */
export function isSystemChannel(name: string | null | undefined): boolean {
  return typeof name === 'string' && name.startsWith('$');
}
