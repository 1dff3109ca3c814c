// Every run of a component, recorded: an append-only file per source (or action component) under
// DATA_DIR/invocations, kept in memory up to a retention limit, with an index by id and live
// listeners for the SSE stream. Memory keeps each record as its line, off the heap
// (lib/line-arena.ts), and the few fields lists filter on; a record is parsed again when read. The
// collector then traces two small objects a record, not dozens, and the heap stays small: a run
// costs the same however many are kept.
import type { InvocationStatus, InvocationTrigger, InvocationView } from '../contract/invocation-api';
import type { PageQuery } from '../contract/page';
import type { ProblemSink } from '../lib/file-problems';
import { KeyedListeners } from '../lib/keyed-listeners';
import { LineArena, type LineSpan } from '../lib/line-arena';
import { type Page, paginate } from '../lib/pagination';
import { RetainedLogs } from '../lib/retained-log';
import { byStart } from '../lib/start-order';
import type { LogLine } from './log-store';

/** Filters of `GET /v1/sources/{id}/invocations`. */
export interface InvocationQuery {
  status?: InvocationStatus;
  trigger?: InvocationTrigger;
  /** Started at or after (epoch ms). */
  since?: number;
  /** Started before (epoch ms). */
  until?: number;
  /** Case-insensitive text anywhere in the record (request, response, logs, error, event). */
  q?: string;
}

/** Log lines kept in one invocation's record, and their bytes (the source's log keeps every line). */
const MAX_LINES = 200;
const MAX_RECORD_LOG_BYTES = 1024 * 1024;
/** Bytes of records kept per owner: 32 MB, or 1 KB a record for a larger retention. Past it the oldest go first, however few are kept. */
export function invocationBytesKept(retention: number): number {
  return Math.max(32 * 1024 * 1024, retention * 1024);
}

/** What is wrong with a line of an invocations file, or null for a record. */
export function checkInvocationLine(value: unknown): string | null {
  const r = value as Partial<InvocationView> | null;
  if (typeof r !== 'object' || r === null) return 'not a run record (a JSON object was expected)';
  if (typeof r.id !== 'string' || typeof r.owner_id !== 'string' || typeof r.started_at !== 'number' || typeof r.status !== 'string' || typeof r.trigger !== 'string') {
    return 'not a run record (no id, owner_id, trigger, status or started_at)';
  }
  if (!Array.isArray(r.logs) || !Array.isArray(r.emits) || !Array.isArray(r.calls)) return 'not a run record (logs, emits or calls is not a list)';
  return null;
}
/** Invocations whose log lines may wait for their record at once; older ones are dropped. */
const MAX_WAITING = 2000;

/** A kept record: what lists filter on, and where its line (the record as JSON) is. */
export interface KeptRun extends LineSpan {
  id: string;
  trigger: InvocationTrigger;
  status: InvocationStatus;
  started_at: number;
  /** A step of a workflow's run: the stream shows it in the workflow's row, not as a row of its own. */
  in_workflow_run: boolean;
  /** The owner's lines. */
  arena: LineArena;
}

export class InvocationStore {
  private readonly logs: RetainedLogs<InvocationView, KeptRun>;
  private readonly byId = new Map<string, KeptRun>();
  private readonly arenas = new Map<string, LineArena>();
  private readonly listeners = new KeyedListeners<InvocationView>();
  private readonly allListeners = new Set<(record: InvocationView) => void>();
  /** Log lines of invocations not recorded yet, by invocation id, with their bytes. */
  private readonly waiting = new Map<string, { lines: InvocationView['logs']; bytes: number }>();

  constructor(dir: string, retention: number, report?: ProblemSink) {
    this.logs = new RetainedLogs<InvocationView, KeptRun>(
      dir,
      { count: retention, bytes: invocationBytesKept(retention) },
      {
        check: checkInvocationLine,
        report,
        keep: (r, line, owner) => {
          let arena = this.arenas.get(owner);
          if (!arena) this.arenas.set(owner, (arena = new LineArena()));
          return { id: r.id, trigger: r.trigger, status: r.status, started_at: r.started_at, in_workflow_run: typeof r.workflow_step?.run_id === 'string', arena, ...arena.append(line) };
        },
        onTrim: (owner, trimmed) => {
          for (const r of trimmed) this.byId.delete(r.id);
          const last = trimmed[trimmed.length - 1];
          if (last) this.arenas.get(owner)?.releaseThrough(last);
        },
      },
    );
  }

  /** Changes the runs kept per owner (the settings): applies at once. */
  setRetention(retention: number): void {
    this.logs.setRetention({ count: retention, bytes: invocationBytesKept(retention) });
  }

  /** Loads every owner's kept invocations (at start). */
  async openAll(): Promise<void> {
    for (const owner of await this.logs.ownersOnDisk()) await this.open(owner);
  }

  /** Loads an owner's kept invocations (at start, or when a source is deployed). */
  async open(owner: string): Promise<void> {
    for (const r of await this.logs.open(owner)) this.byId.set(r.id, r);
  }

  /** Keeps a log line for the record of the invocation it belongs to (the first 200 lines, up to 1 MB). */
  collect(line: LogLine): void {
    if (!line.invocation_id) return;
    let waiting = this.waiting.get(line.invocation_id);
    if (!waiting) {
      if (this.waiting.size >= MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value as string);
      this.waiting.set(line.invocation_id, (waiting = { lines: [], bytes: 0 }));
    }
    if (waiting.lines.length >= MAX_LINES || waiting.bytes > MAX_RECORD_LOG_BYTES) return;
    waiting.bytes += Buffer.byteLength(line.message);
    waiting.lines.push({ ts: line.ts, level: line.level, message: line.message });
    if (waiting.lines.length === MAX_LINES || waiting.bytes > MAX_RECORD_LOG_BYTES) {
      waiting.lines.push({ ts: line.ts, level: 'warn', message: `… a run's record keeps its first ${MAX_LINES} log lines (1 MB at most); the source's log has the rest` });
    }
  }

  /** The log lines collected for an invocation (and forgets them). */
  takeLogs(invocationId: string): InvocationView['logs'] {
    const lines = this.waiting.get(invocationId)?.lines ?? [];
    this.waiting.delete(invocationId);
    return lines;
  }

  /**
   * Records a finished invocation. Its line is written with the others of this turn (group commit);
   * whatever shows it (a list, a lookup, a follower) writes it first, so a run seen through the API
   * survives a process crash (docs/storage.md).
   */
  async add(record: InvocationView): Promise<void> {
    const [kept] = this.logs.appendOpen(record.owner_id, [record]) ?? (await this.logs.append(record.owner_id, [record]));
    this.byId.set(record.id, kept as KeptRun);
    if (this.listeners.has(record.owner_id)) this.logs.writeQueued(record.owner_id);
    this.listeners.emit(record.owner_id, record);
    for (const listener of this.allListeners) listener(record);
  }

  /** Calls `listener` with each new invocation of any owner; returns the unsubscribe function. */
  subscribeAll(listener: (record: InvocationView) => void): () => void {
    this.allListeners.add(listener);
    return () => this.allListeners.delete(listener);
  }

  /** The owners (sources, action components) whose runs are open. */
  owners(): string[] {
    return this.logs.openOwners();
  }

  /** An owner's kept runs, in the order they ended (oldest first), unread (written to the owner's file first, see `add`). */
  keptOf(owner: string): readonly KeptRun[] {
    this.logs.writeQueued(owner);
    return this.logs.list(owner);
  }

  /** An invocation by id, written to its file first (see `add`). */
  get(id: string): InvocationView | undefined {
    const kept = this.byId.get(id);
    if (!kept) return undefined;
    const record = read(kept);
    this.logs.writeQueued(record.owner_id);
    return record;
  }

  /** An owner's invocations matching the query, newest started first, as kept (see `read`), written to the owner's file first (see `add`). */
  list(owner: string, query: InvocationQuery = {}): KeptRun[] {
    this.logs.writeQueued(owner);
    const needle = query.q?.toLowerCase();
    const out: KeptRun[] = [];
    const all = byStart(this.logs.list(owner));
    for (let i = all.length - 1; i >= 0; i--) {
      const r = all[i] as KeptRun;
      if (query.status && r.status !== query.status) continue;
      if (query.trigger && r.trigger !== query.trigger) continue;
      if (query.since !== undefined && r.started_at < query.since) continue;
      if (query.until !== undefined && r.started_at >= query.until) continue;
      // The line is the record as JSON: the search sees what it always saw.
      if (needle && !lineOf(r).toLowerCase().includes(needle)) continue;
      out.push(r);
    }
    return out;
  }

  /** One page of an owner's invocations matching the query, newest first; only the page's records are read. */
  page(owner: string, query: InvocationQuery, page: PageQuery): Page<InvocationView> {
    return paginate(this.list(owner, query), page, read);
  }

  /** Calls `listener` with each new invocation of an owner; returns the unsubscribe function. */
  subscribe(owner: string, listener: (record: InvocationView) => void): () => void {
    return this.listeners.add(owner, listener);
  }

  /** The record a kept run holds (from its line, when read already). */
  read(kept: KeptRun, line?: string): InvocationView {
    return line === undefined ? read(kept) : (JSON.parse(line) as InvocationView);
  }

  /** Deletes an owner's invocations. */
  async remove(owner: string): Promise<void> {
    await this.logs.remove(owner);
    this.arenas.delete(owner);
  }

  async close(): Promise<void> {
    await this.logs.close();
  }
}

function lineOf(kept: KeptRun): string {
  return kept.arena.read(kept);
}

function read(kept: KeptRun): InvocationView {
  return JSON.parse(lineOf(kept)) as InvocationView;
}
