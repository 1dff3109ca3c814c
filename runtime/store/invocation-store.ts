// Every run of a component, recorded: an append-only file per source (or action component) under
// DATA_DIR/invocations, kept in memory up to a retention limit, with an index by id and live
// listeners for the SSE stream.
import fsp from 'node:fs/promises';
import type { InvocationStatus, InvocationTrigger, InvocationView } from '../contract/invocation-api';
import type { LogLine } from './log-store';
import { RetainedLogs } from '../lib/retained-log';
import { KeyedListeners } from '../lib/keyed-listeners';

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

/** Log lines kept in one invocation's record. */
const MAX_LINES = 200;
/** Invocations whose log lines may wait for their record at once; older ones are dropped. */
const MAX_WAITING = 2000;

export class InvocationStore {
  private readonly logs: RetainedLogs<InvocationView>;
  private readonly byId = new Map<string, InvocationView>();
  private readonly listeners = new KeyedListeners<InvocationView>();
  /** Log lines of invocations not recorded yet, by invocation id. */
  private readonly waiting = new Map<string, InvocationView['logs']>();

  constructor(
    private readonly dir: string,
    retention: number,
  ) {
    this.logs = new RetainedLogs<InvocationView>(dir, retention, (_owner, trimmed) => {
      for (const r of trimmed) this.byId.delete(r.id);
    });
  }

  /** Loads every owner's kept invocations (at start). */
  async openAll(): Promise<void> {
    let files: string[] = [];
    try {
      files = await fsp.readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const file of files) if (file.endsWith('.jsonl')) await this.open(file.slice(0, -'.jsonl'.length));
  }

  /** Loads an owner's kept invocations (at start, or when a source is deployed). */
  async open(owner: string): Promise<void> {
    for (const r of await this.logs.open(owner)) this.byId.set(r.id, r);
  }

  /** Keeps a log line for the record of the invocation it belongs to. */
  collect(line: LogLine): void {
    if (!line.invocation_id) return;
    let lines = this.waiting.get(line.invocation_id);
    if (!lines) {
      if (this.waiting.size >= MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value as string);
      this.waiting.set(line.invocation_id, (lines = []));
    }
    if (lines.length < MAX_LINES) lines.push({ ts: line.ts, level: line.level, message: line.message });
  }

  /** The log lines collected for an invocation (and forgets them). */
  takeLogs(invocationId: string): InvocationView['logs'] {
    const lines = this.waiting.get(invocationId) ?? [];
    this.waiting.delete(invocationId);
    return lines;
  }

  /** Records a finished invocation. */
  async add(record: InvocationView): Promise<void> {
    if (!this.logs.appendOpen(record.owner_id, [record])) await this.logs.append(record.owner_id, [record]);
    this.byId.set(record.id, record);
    this.listeners.emit(record.owner_id, record);
  }

  /** An invocation by id. */
  get(id: string): InvocationView | undefined {
    return this.byId.get(id);
  }

  /** An owner's invocations matching the query, newest first. */
  list(owner: string, query: InvocationQuery = {}): InvocationView[] {
    const needle = query.q?.toLowerCase();
    const out: InvocationView[] = [];
    const all = this.logs.list(owner);
    for (let i = all.length - 1; i >= 0; i--) {
      const r = all[i] as InvocationView;
      if (query.status && r.status !== query.status) continue;
      if (query.trigger && r.trigger !== query.trigger) continue;
      if (query.since !== undefined && r.started_at < query.since) continue;
      if (query.until !== undefined && r.started_at >= query.until) continue;
      if (needle && !JSON.stringify(r).toLowerCase().includes(needle)) continue;
      out.push(r);
    }
    return out;
  }

  /** Calls `listener` with each new invocation of an owner; returns the unsubscribe function. */
  subscribe(owner: string, listener: (record: InvocationView) => void): () => void {
    return this.listeners.add(owner, listener);
  }

  /** Deletes an owner's invocations. */
  async remove(owner: string): Promise<void> {
    await this.logs.remove(owner);
  }

  async close(): Promise<void> {
    await this.logs.close();
  }
}
