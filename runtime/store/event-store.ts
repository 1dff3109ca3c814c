import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppendLog } from '../lib/append-log';
import { makePrivateDir } from '../lib/private-files';
import { compareEventIds, EventIdClock } from './event-id';

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
  /** Oldest first, at most `retention` (plus a little slack before trimming). */
  events: StoredEvent[];
  listeners: Set<Listener>;
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
 * up to the retention limit. Appending costs the same however many events are stored: old
 * events are trimmed from memory in batches and the file is compacted once it holds twice the limit.
 */
export class EventStore {
  private readonly sources = new Map<string, SourceEvents>();
  private readonly clock = new EventIdClock();
  private readonly openHooks: OpenHook[] = [];

  constructor(
    private readonly dir: string,
    private readonly retention: number,
  ) {}

  /** Calls `hook` with the events already stored each time a source's log is opened. */
  onOpen(hook: OpenHook): void {
    this.openHooks.push(hook);
  }

  /** Opens (or creates) the event log of a source. */
  async openSource(sourceId: string): Promise<void> {
    if (this.sources.has(sourceId)) return;
    makePrivateDir(this.dir);
    const { log, records } = await AppendLog.open<EventLine>(this.file(sourceId));
    const all = records.map(fromLine);
    for (const e of all.slice(-1)) this.clock.observe(e.id);
    this.sources.set(sourceId, { log, events: all.slice(-this.retention), listeners: new Set() });
    if (all.length > 0) for (const hook of this.openHooks) hook(sourceId, all);
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
    // One push per event: spreading a run's events as arguments overflows the stack past ~100 000.
    for (const e of stored) source.events.push(e);
    const durable = source.log.appendLines(stored.map(toLine)).then(() => {
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
    source.events = source.events.filter((e) => !doomed(e));
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
    if (source.events.length > this.retention + slack) source.events.splice(0, source.events.length - this.retention);
    if (source.log.lineCount > 2 * this.retention + slack) {
      source.log.compactInBackground(() => source.events.slice(-this.retention).map(toLine));
    }
  }

  private file(sourceId: string): string {
    return path.join(this.dir, `${sourceId}.jsonl`);
  }
}

/** `$errors` and `$logs` carry a source's run errors and log lines: listed only when asked for by name. */
export function isSystemChannel(name: string | null | undefined): boolean {
  return typeof name === 'string' && name.startsWith('$');
}
