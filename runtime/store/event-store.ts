// Events of each source: an append-only file per source, and in memory the newest within the
// retention. Memory keeps each event as its line, off the heap (lib/line-arena.ts), with the few
// fields lists filter on; an event is parsed again when read. Hundreds of thousands of kept events
// then cost the collector a few objects per megabyte, not half a dozen objects each, and an emit
// costs the same however many are kept.
import path from 'node:path';
import type { PageQuery } from '../contract/page';
import { AppendLog, type GenerationLimits } from '../lib/append-log';
import type { ProblemSink } from '../lib/file-problems';
import { LineArena, type LineSpan } from '../lib/line-arena';
import { removeLogFiles } from '../lib/log-generations';
import { type Page, paginate } from '../lib/pagination';
import { makePrivateDir } from '../lib/private-files';
import { compareEventIds, EventIdClock, isEventId } from './event-id';
import { eventLine } from './event-line';

export { eventLine };

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
  /** Spout webhook deliveries in a row that led to the run that emitted it (absent: none); its deliveries carry one more. */
  hops?: number;
}

/** An event about to be stored; the store assigns its id. */
export interface NewEvent {
  json: string;
  /** `id` defaults to the event id (no dedupe id given), `emit_id` likewise. */
  meta: Omit<EventMeta, 'emit_id' | 'id'> & { id?: string | number; emit_id?: string };
  deliver_to?: readonly string[];
  hops?: number;
}

/** A kept event: what lists filter on, and where its line is (read it with `EventStore.read`). */
export interface KeptEvent extends LineSpan {
  id: string;
  /** Its channel (`meta.name`). */
  name: string | null;
  /** Whether it was routed to webhooks (has `deliver_to`). */
  routed: boolean;
  /** The source's lines. */
  arena: LineArena;
}

/** Filters of an event list. */
export interface EventQuery {
  /** Cursors (exclusive): older than `before`, newer than `after`. */
  before?: string;
  after?: string;
  /** Only this channel; absent: every channel but `$errors`/`$logs`. */
  eventName?: string | null;
  /** Case-insensitive text in the event's data, its summary or its id. */
  q?: string;
}

type Listener = (event: StoredEvent) => void;

/** Told of a source's kept events (oldest first) each time its log is opened. */
export type OpenHook = (sourceId: string, events: readonly KeptEvent[]) => void;

interface EventLine {
  id: string;
  indexed_at_ms: number;
  emitter_id: string;
  meta: EventMeta;
  event: unknown;
  to?: string[];
  hops?: number;
}

interface SourceEvents {
  log: AppendLog<unknown>;
  /** Their lines, in the order of `events`. */
  arena: LineArena;
  /** Oldest first, within the retention (plus a little slack before trimming). */
  events: KeptEvent[];
  /** Bytes of their lines, newlines included. */
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
  if (line.hops !== undefined && !(Number.isInteger(line.hops) && line.hops > 0)) return 'not an event ("hops" is not a count of deliveries)';
  return null;
}

/** The event a line holds (its data re-serialised: JSON.stringify's output reads back the same). */
function fromLine(line: EventLine): StoredEvent {
  const e: StoredEvent = { id: line.id, indexed_at_ms: line.indexed_at_ms, emitter_id: line.emitter_id, meta: line.meta, json: JSON.stringify(line.event) };
  if (line.to) e.deliver_to = line.to;
  if (line.hops) e.hops = line.hops;
  return e;
}

/**
 * Events of each source, in an append-only file per source (`events/<dc_id>.jsonl`, and its
 * previous generation: lib/log-generations.ts) and in memory up to the retention limit (a count,
 * and eventBytesKept). Appending costs the same however many events are stored: old events are
 * trimmed from memory in batches, and once the file holds the whole limit a new generation starts.
 */
export class EventStore {
  private readonly sources = new Map<string, SourceEvents>();
  private readonly opening = new Map<string, Promise<void>>();
  private readonly clock = new EventIdClock();
  private readonly openHooks: OpenHook[] = [];
  private readonly allListeners = new Set<Listener>();

  constructor(
    private readonly dir: string,
    retention: number,
    /** Receives what was found damaged when a source's file is read. */
    private readonly report?: ProblemSink,
    /** The retention (events and eventBytesKept), also when a file becomes the previous generation; shared by every source's log, so a change applies to each. */
    private readonly limits: GenerationLimits = { lines: retention, bytes: eventBytesKept(retention) },
  ) {}

  /** Changes the events kept per source (the settings): memory is trimmed now, files at their next generation. */
  setRetention(retention: number): void {
    Object.assign(this.limits, { lines: retention, bytes: eventBytesKept(retention) });
    for (const source of this.sources.values()) this.trimMemory(source, 0);
  }

  /** Calls `hook` with the events already stored each time a source's log is opened. */
  onOpen(hook: OpenHook): void {
    this.openHooks.push(hook);
  }

  /**
   * Opens (or creates) the event log of a source, reading its file line by line: only the newest
   * events within the retention are kept, so a file of any length opens in the same memory.
   */
  openSource(sourceId: string): Promise<void> {
    if (this.sources.has(sourceId)) return Promise.resolve();
    // The file is read a chunk at a time: a second caller meanwhile waits for the same reading.
    let opening = this.opening.get(sourceId);
    if (!opening) this.opening.set(sourceId, (opening = this.readSource(sourceId).finally(() => this.opening.delete(sourceId))));
    return opening;
  }

  private async readSource(sourceId: string): Promise<void> {
    makePrivateDir(this.dir);
    const source: SourceEvents = { log: null as unknown as AppendLog<unknown>, arena: new LineArena(), events: [], bytes: 0, listeners: new Set() };
    ({ log: source.log } = await AppendLog.open<EventLine>(this.file(sourceId), {
      generations: this.limits,
      check: checkEventLine,
      report: this.report,
      onRecord: (line, _size, raw) => {
        keep(source, line.id, line.meta.name ?? null, line.to !== undefined && line.to.length > 0, raw);
        if (source.events.length > 2 * this.limits.lines || source.bytes > 2 * this.limits.bytes) this.trimMemory(source, 0);
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
      // Built field by field, in the order lines have always had: a spread of each event's meta took V8's slow path.
      const given = e.meta;
      const meta = { id: given.id ?? id, name: given.name, summary: given.summary, ts: given.ts } as EventMeta;
      if (given.invocation_id !== undefined) meta.invocation_id = given.invocation_id;
      meta.emit_id = given.emit_id ?? id;
      const stored: StoredEvent = { id, indexed_at_ms: ms, emitter_id: sourceId, json: e.json, meta };
      if (e.deliver_to?.length) stored.deliver_to = e.deliver_to;
      if (e.hops) stored.hops = e.hops;
      return stored;
    });
    let i = 0;
    // Each line is kept from the bytes staged for the file: encoded once, not twice.
    const durable = source.log
      .appendLines(stored.map(eventLine), (bytes) => {
        const e = stored[i++] as StoredEvent;
        keep(source, e.id, e.meta.name, e.deliver_to !== undefined, bytes);
      })
      .then(() => {
        for (const e of stored) {
          for (const listener of source.listeners) listener(e);
          for (const listener of this.allListeners) listener(e);
        }
      });
    // Trimming in batches of a tenth keeps the cost of each append constant.
    this.trimMemory(source, Math.max(1, Math.floor(this.limits.lines / 10)));
    return { stored, durable };
  }

  /** Kept events matching the query, newest first, as kept (see `read`); the newest `limit` when given. */
  kept(sourceId: string, query: EventQuery = {}, limit = Infinity): KeptEvent[] {
    const { events } = this.get(sourceId);
    const search = query.q ? textSearch(query.q) : null;
    const out: KeptEvent[] = [];
    for (let i = events.length - 1; i >= 0 && out.length < limit; i--) {
      const e = events[i] as KeptEvent;
      if (query.after && compareEventIds(e.id, query.after) <= 0) break;
      if (query.before && compareEventIds(e.id, query.before) >= 0) continue;
      if (query.eventName === undefined ? isSystemChannel(e.name) : e.name !== query.eventName) continue;
      if (search && !search(e)) continue;
      out.push(e);
    }
    return out;
  }

  /** Kept events matching the query, newest first, each read (for a page of them, `page`). */
  list(sourceId: string, query: EventQuery = {}): StoredEvent[] {
    return this.kept(sourceId, query).map(read);
  }

  /** One page of the events matching the query, newest first; only the page's events are read. */
  page<V>(sourceId: string, query: EventQuery, page: PageQuery, view: (event: StoredEvent) => V): Page<V> {
    return paginate(this.kept(sourceId, query), page, (e) => view(read(e)));
  }

  /** The newest `n` events (not `$errors`/`$logs`), newest first. */
  latest(sourceId: string, n: number): StoredEvent[] {
    return this.kept(sourceId, {}, n).map(read);
  }

  /** The event a kept one holds. */
  read(kept: KeptEvent): StoredEvent {
    return read(kept);
  }

  /** One retained event by id (ids are in order, so a binary search); undefined for a source gone. */
  find(sourceId: string, eventId: string): StoredEvent | undefined {
    const events = this.sources.get(sourceId)?.events ?? [];
    let lo = 0;
    let hi = events.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = events[mid] as KeptEvent;
      const c = compareEventIds(e.id, eventId);
      if (c === 0) return read(e);
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
    const doomed = (e: KeptEvent) => (range.startId === undefined || compareEventIds(e.id, range.startId) >= 0) && (range.endId === undefined || compareEventIds(e.id, range.endId) <= 0) && (range.eventName === undefined || e.name === range.eventName);
    const events = source.events;
    const left = events.filter((e) => !doomed(e));
    const deleted = events.length - left.length;
    if (deleted === 0) return 0;
    // The lines left are copied to a new arena, so that they lie together again, ready to write.
    source.arena = new LineArena();
    source.events = [];
    source.bytes = 0;
    for (const e of left) keep(source, e.id, e.name, e.routed, e.arena.read(e));
    await source.log.rewrite(() => source.arena.linesFrom(source.events[0], source.events.length));
    return deleted;
  }

  /** Calls `listener` with each event stored from now on; returns the unsubscribe function. */
  subscribe(sourceId: string, listener: Listener): () => void {
    const { listeners } = this.get(sourceId);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Calls `listener` with each event of any emitter stored from now on; returns the unsubscribe function. */
  subscribeAll(listener: Listener): () => void {
    this.allListeners.add(listener);
    return () => this.allListeners.delete(listener);
  }

  /** The emitters (sources, workflows) whose events are open. */
  emitters(): string[] {
    return [...this.sources.keys()];
  }

  /** An emitter's kept events, oldest first, unread (system channels included); empty when not open. */
  keptOf(emitterId: string): readonly KeptEvent[] {
    return this.sources.get(emitterId)?.events ?? [];
  }

  /** Closes the source's log and deletes its events. */
  async removeSource(sourceId: string): Promise<void> {
    const source = this.sources.get(sourceId);
    if (!source) return;
    this.sources.delete(sourceId);
    await source.log.close();
    await removeLogFiles(this.file(sourceId));
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

  /** Drops the oldest events past the retention (count and bytes), once they are `slack` over it. */
  private trimMemory(source: SourceEvents, slack: number): void {
    const byteSlack = slack > 0 ? this.limits.bytes / 10 : 0;
    if (source.events.length <= this.limits.lines + slack && source.bytes <= this.limits.bytes + byteSlack) return;
    const size = (i: number) => (source.events[i] as KeptEvent).bytes + 1;
    let drop = Math.max(0, source.events.length - this.limits.lines);
    let left = source.bytes;
    for (let i = 0; i < drop; i++) left -= size(i);
    while (left > this.limits.bytes && drop < source.events.length - 1) left -= size(drop++);
    const last = source.events[drop - 1];
    source.events.splice(0, drop);
    source.bytes = left;
    if (last) source.arena.releaseThrough(last);
  }

  private file(sourceId: string): string {
    return path.join(this.dir, `${sourceId}.jsonl`);
  }
}

/** Keeps an event's line (as written, or as read back) at the end of its source's events. */
function keep(source: SourceEvents, id: string, name: string | null, routed: boolean, line: string | Buffer): void {
  const span = source.arena.append(line);
  source.events.push({ id, name, routed, arena: source.arena, ...span });
  source.bytes += span.bytes + 1;
}

function read(kept: KeptEvent): StoredEvent {
  return fromLine(JSON.parse(kept.arena.read(kept)) as EventLine);
}

/** A test of whether an event matches a search: its data, or its summary and id, contain the text, ignoring case. Most searches are plain text, which appears in the line as it is: lines without it are passed over unread. */
function textSearch(q: string): (e: KeptEvent) => boolean {
  const needle = q.toLowerCase();
  // Characters JSON escapes, and the space that joins summary and id, may look different in the line.
  const plain = /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(needle);
  return (e) => {
    if (plain && !e.arena.read(e).toLowerCase().includes(needle)) return false;
    const event = read(e);
    return event.json.toLowerCase().includes(needle) || `${event.meta.summary ?? ''} ${event.meta.id}`.toLowerCase().includes(needle);
  };
}

/** `$errors` and `$logs` carry a source's run errors and log lines: listed only when asked for by name. */
export function isSystemChannel(name: string | null | undefined): boolean {
  return typeof name === 'string' && name.startsWith('$');
}
