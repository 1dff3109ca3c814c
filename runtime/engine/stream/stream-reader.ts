// One stream of runs and events across every source, action and workflow, newest first: each
// store's kept records are read as subjects (their cheap fields, the line read only when a term
// asks), matched against a filter, sorted together, and only the page's rows are built.
import type { MessageSummary } from '../../contract/delivery-protocol';
import type { InvocationView } from '../../contract/invocation-api';
import type { ListResponse, PageQuery } from '../../contract/page';
import type { StreamRow } from '../../contract/stream-api';
import type { WorkflowRunView } from '../../contract/workflow-api';
import type { EventStore, KeptEvent, StoredEvent } from '../../store/event-store';
import { isSystemChannel } from '../../store/event-store';
import type { InvocationStore, KeptRun } from '../../store/invocation-store';
import type { RunLog } from '../../store/workflow-run-log';
import { bodyField, fieldKnown } from './stream-body-fields';
import { parseFilter, type StreamFilter, usesDelivery } from './stream-filter';
import { byStart, Lane, mergeLanes, newestFirst } from './stream-lanes';
import { compileFilter, laneMayMatch, type StreamSubject, type SubjectDetail } from './stream-match';
import { type DeliveryState, deliveryState, eventRow, runRow, type StreamTarget, workflowRequest, workflowRunRow } from './stream-rows';

/** What the stream reads, and how it names what it reads. */
export interface StreamDeps {
  invocations: InvocationStore;
  events: EventStore;
  runs: RunLog;
  /** The source, action component or workflow behind an id. */
  target(id: string): StreamTarget;
  /** The trigger a workflow's runs have (http, timer, event, run_now). */
  workflowTrigger(workflowId: string): string | null;
  /** The delivery messages of events. */
  messagesFor(eventIds: string[]): Promise<MessageSummary[]>;
  webhookActive(webhookId: string): boolean;
}

/** Events whose delivery states are asked of the delivery thread at once. */
const DELIVERY_BATCH = 1000;

const NO_FILTER: StreamFilter = { expr: '', clauses: [] };

/** The cursor of a row: its time and id, in the order rows are listed. */
export function cursorOf(row: { ts: number; id: string }): string {
  return `${row.ts}:${row.id}`;
}

function parseCursor(cursor: string): { ts: number; id: string } {
  const i = cursor.indexOf(':');
  return { ts: Number(cursor.slice(0, i)), id: cursor.slice(i + 1) };
}

function lowerHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function jsonOf(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A recorded request's body as text, when it is whole UTF-8. */
function requestText(run: InvocationView | undefined): string | undefined {
  const r = run?.request;
  return r && r.body_encoding === 'utf8' && !r.body_truncated ? r.body : undefined;
}

function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

export class StreamReader {
  constructor(private readonly deps: StreamDeps) {}

  /** The source, action or workflow behind an id. */
  target(id: string): StreamTarget {
    return this.deps.target(id);
  }

  /** The trigger a workflow's runs have. */
  workflowTrigger(workflowId: string): string | null {
    return this.deps.workflowTrigger(workflowId);
  }

  /** Calls `listener` with each workflow run recorded from now on; returns the unsubscribe function. */
  subscribeWorkflowRuns(listener: (run: WorkflowRunView) => void): () => void {
    return this.deps.runs.subscribe(listener);
  }

  /** Parses a filter (throws FilterSyntaxError); an empty one matches everything. */
  parse(expr: string | undefined, now = Date.now()): StreamFilter {
    return expr?.trim() ? parseFilter(expr, now) : NO_FILTER;
  }

  /** One page of the rows matching the filter, newest first; cursors are `page_info`'s. */
  async page(filter: StreamFilter, page: PageQuery): Promise<ListResponse<StreamRow>> {
    if (!page.after && !usesDelivery(filter)) {
      // The usual call (a first page, or older ones): merged from the lanes, only up to the page read.
      const lanes = this.lanes(filter, compileFilter(filter));
      const slice = mergeLanes(lanes, page.limit, page.before ? parseCursor(page.before) : null);
      // The count goes on from where the page stopped reading each lane, instead of reading it again.
      const total = filter.clauses.length === 0 ? this.countAll() : lanes.reduce((n, lane) => n + lane.countAll(), 0);
      return this.answer(slice, total);
    }
    const matched = await this.matching(filter);
    let start = 0;
    let end = matched.length;
    if (page.before) {
      const c = parseCursor(page.before);
      start = firstAfter(matched, c);
    }
    if (page.after) {
      const c = parseCursor(page.after);
      end = firstAfter(matched, c);
      while (end > 0 && newestFirst(matched[end - 1] as StreamSubject, c) === 0) end--;
      start = Math.max(start, end - page.limit);
    }
    return this.answer(matched.slice(start, Math.min(end, start + page.limit)), matched.length);
  }

  /** The page of these subjects' rows. */
  private async answer(slice: StreamSubject[], total: number): Promise<ListResponse<StreamRow>> {
    const data = await this.rows(slice);
    return {
      page_info: { total_count: total, count: data.length, start_cursor: data[0] ? cursorOf(data[0]) : null, end_cursor: data.length ? cursorOf(data[data.length - 1] as StreamRow) : null },
      data,
    };
  }

  /** Those of an owner's kept runs that match the filter (`GET …/invocations?filter=`). */
  filterRuns(filter: StreamFilter, kept: readonly KeptRun[], owner: string): KeptRun[] {
    if (filter.clauses.length === 0) return [...kept];
    const test = compileFilter(filter);
    const target = this.deps.target(owner);
    return kept.filter((k) => test(this.runSubject(k, target)));
  }

  /** Those of an emitter's kept events that match the filter, delivery states looked up when it reads them (`GET …/event_summaries?filter=`). */
  async filterEvents(filter: StreamFilter, kept: readonly KeptEvent[], emitter: string): Promise<KeptEvent[]> {
    if (filter.clauses.length === 0) return [...kept];
    const test = compileFilter(filter);
    const target = this.deps.target(emitter);
    const runs = new Map<string, InvocationView | undefined>();
    const subjects = kept.map((k) => this.eventSubject(k, target, runs)).filter((s) => test(s, false));
    if (!usesDelivery(filter)) return subjects.map((s) => s.kept);
    await this.lookUpDelivery(subjects);
    return subjects.filter((s) => test(s)).map((s) => s.kept);
  }

  /** Log lines matching the filter: bare words search the message, since/until its time, other terms the run that wrote it. */
  filterLogs<L extends { id: string; ts: number; message: string; invocation_id: string | null }>(filter: StreamFilter, lines: readonly L[], owner: string): L[] {
    if (filter.clauses.length === 0) return [...lines];
    const test = compileFilter(filter);
    const target = this.deps.target(owner);
    const runs = new Map<string, InvocationView | undefined>();
    return lines.filter((line) => {
      const id = line.invocation_id;
      if (id && !runs.has(id)) runs.set(id, this.deps.invocations.get(id));
      const run = id ? runs.get(id) : undefined;
      const base = run ? this.runSubject({ id: run.id, status: run.status, trigger: run.trigger, started_at: run.started_at } as KeptRun, target, run) : null;
      const detail = once((): SubjectDetail => {
        const d = base?.detail();
        const row: StreamRow = d?.row ?? { kind: 'run', id: line.id, ts: line.ts, target, status: null, trigger: null, method: null, path: null, response_status: null, size: null, emits: null, delivery: null, summary: null, run_id: null };
        return { row, headers: d?.headers ?? {}, body: d?.body ?? (() => undefined), text: () => line.message.toLowerCase() };
      });
      return test({ kind: 'run', id: line.id, ts: line.ts, target, status: base?.status ?? null, trigger: base?.trigger ?? null, line: null, detail, delivery: null });
    });
  }

  /** A lane for every store whose rows may match the filter, each passing `test`. */
  private lanes(filter: StreamFilter, test: (s: StreamSubject) => boolean): Lane[] {
    const lanes: Lane[] = [];
    const runCache = new Map<string, InvocationView | undefined>();
    const { invocations, events, runs } = this.deps;
    for (const owner of invocations.owners()) {
      const target = this.deps.target(owner);
      if (!laneMayMatch(filter, 'run', target)) continue;
      const kept = byStart(invocations.keptOf(owner));
      lanes.push(new Lane(kept.length, (i) => this.runSubject(kept[i] as KeptRun, target), test));
    }
    for (const emitter of events.emitters()) {
      const target = this.deps.target(emitter);
      if (!laneMayMatch(filter, 'event', target)) continue;
      const kept = events.keptOf(emitter);
      lanes.push(new Lane(kept.length, (i) => (isSystemChannel((kept[i] as KeptEvent).name) ? null : this.eventSubject(kept[i] as KeptEvent, target, runCache)), test));
    }
    for (const workflowId of runs.workflowIds()) {
      const target = this.deps.target(workflowId);
      if (!laneMayMatch(filter, 'run', target)) continue;
      const trigger = this.deps.workflowTrigger(workflowId);
      // Oldest first by start (lanes read from the end); a workflow keeps at most 100.
      const list = runs.list(workflowId).sort((a, b) => a.started_at_ms - b.started_at_ms);
      lanes.push(new Lane(list.length, (i) => this.workflowSubject(list[i] as WorkflowRunView, target, trigger), test));
    }
    return lanes;
  }

  /** How many rows there are with no filter: counted, not read. */
  private countAll(): number {
    const { invocations, events, runs } = this.deps;
    let n = 0;
    for (const owner of invocations.owners()) n += invocations.keptOf(owner).length;
    for (const emitter of events.emitters()) for (const e of events.keptOf(emitter)) if (!isSystemChannel(e.name)) n++;
    for (const workflowId of runs.workflowIds()) n += runs.list(workflowId).length;
    return n;
  }

  /** Every subject matching the filter, newest first. */
  private async matching(filter: StreamFilter): Promise<StreamSubject[]> {
    const test = compileFilter(filter);
    const matched: StreamSubject[] = [];
    for (const lane of this.lanes(filter, (s) => test(s, false))) {
      for (; lane.head; lane.advance()) matched.push(lane.head);
    }
    matched.sort(newestFirst);
    if (!usesDelivery(filter)) return matched;
    await this.lookUpDelivery(matched.filter((s) => s.kind === 'event' && (s as EventSubject).kept.routed));
    for (const s of matched) if (s.kind === 'event' && !s.delivery) s.delivery = { state: 'none', attempts: 0 };
    return matched.filter((s) => test(s));
  }

  /** Builds the rows of subjects, with their events' delivery states. */
  private async rows(subjects: StreamSubject[]): Promise<StreamRow[]> {
    await this.lookUpDelivery(subjects.filter((s) => s.kind === 'event' && !s.delivery));
    return subjects.map((s) => {
      const row = s.detail().row;
      return s.delivery ? { ...row, delivery: s.delivery } : row;
    });
  }

  /** Sets the delivery state of event subjects from their messages. */
  private async lookUpDelivery(subjects: StreamSubject[]): Promise<void> {
    for (let i = 0; i < subjects.length; i += DELIVERY_BATCH) {
      const batch = subjects.slice(i, i + DELIVERY_BATCH);
      const byEvent = new Map<string, MessageSummary[]>();
      for (const m of await this.deps.messagesFor(batch.map((s) => s.id))) {
        const list = byEvent.get(m.event_id) ?? [];
        list.push(m);
        byEvent.set(m.event_id, list);
      }
      for (const s of batch)
        s.delivery = deliveryState(
          (byEvent.get(s.id) ?? []).filter((m) => m.emitter_id === s.target.id),
          (id) => this.deps.webhookActive(id),
        );
    }
  }

  /** A run as the filter sees it. */
  runSubject(kept: KeptRun, target: StreamTarget, record?: InvocationView): StreamSubject {
    const read = once(() => record ?? this.deps.invocations.read(kept));
    const detail = once((): SubjectDetail => {
      const run = read();
      const row = runRow(run, target);
      const text = requestText(run);
      const body = once(() => (run.request ? jsonOf(text) : run.event));
      return { row, headers: lowerHeaders(run.request?.headers), body, text: once(() => `${row.summary ?? ''} ${row.path ?? ''} ${text ?? JSON.stringify(run.event) ?? ''}`.toLowerCase()) };
    });
    const subject: StreamSubject = { kind: 'run', id: kept.id, ts: kept.started_at, target, status: kept.status === 'crashed' ? 'error' : kept.status, trigger: kept.trigger, line: null, detail, delivery: null };
    return record ? subject : storedSubject(subject, kept, () => detail().body());
  }

  /** An event as the filter sees it; `runs` caches the runs that emitted events, read once a query. */
  eventSubject(kept: KeptEvent, target: StreamTarget, runs: Map<string, InvocationView | undefined>, stored?: StoredEvent, delivery: DeliveryState | null = null): EventSubject {
    const read = once(() => stored ?? this.deps.events.read(kept));
    const detail = once((): SubjectDetail => {
      const event = read();
      const runId = event.meta.invocation_id;
      let run: InvocationView | undefined;
      if (runId) {
        if (!runs.has(runId)) runs.set(runId, this.deps.invocations.get(runId));
        run = runs.get(runId);
      }
      const row = eventRow(event, target, run, delivery ?? { state: 'none', attempts: 0 });
      return { row, headers: lowerHeaders(run?.request?.headers), body: once(() => jsonOf(event.json)), text: once(() => `${event.meta.summary ?? ''} ${event.json}`.toLowerCase()) };
    });
    const subject: EventSubject = { kind: 'event', id: kept.id, ts: Number(kept.id.slice(0, kept.id.indexOf('-'))), target, status: null, trigger: null, line: null, detail, delivery, kept };
    // An event's body is its own JSON: parsed from the line, without the run that emitted it.
    return stored ? subject : storedSubject(subject, kept, () => jsonOf(read().json));
  }

  /** A workflow's run as the filter sees it. */
  workflowSubject(run: WorkflowRunView, target: StreamTarget, trigger: string | null): StreamSubject {
    const detail = once((): SubjectDetail => {
      const row = workflowRunRow(run, target, trigger);
      const request = workflowRequest(run);
      const body = request ? request.body : run.event;
      const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
      return { row, headers: lowerHeaders(request?.headers), body: () => (typeof body === 'string' ? jsonOf(body) : body), text: once(() => `${row.summary ?? ''} ${row.path ?? ''} ${text}`.toLowerCase()) };
    });
    return { kind: 'run', id: run.id, ts: run.started_at_ms, target, status: run.status === 'error' ? 'error' : 'ok', trigger, line: null, detail, delivery: null };
  }
}

/** A subject of a stored record: its line, and its body fields remembered across requests. */
function storedSubject<S extends StreamSubject>(subject: S, kept: KeptRun | KeptEvent, body: () => unknown): S {
  subject.line = () => kept.arena.read(kept);
  subject.field = (path) => bodyField(kept, path, body);
  subject.fieldKnown = (path) => fieldKnown(kept, path);
  return subject;
}

/** An event subject, with what its store keeps of it. */
export type EventSubject = StreamSubject & { kept: KeptEvent };

/** The index of the first subject listed after the cursor (binary search over newest-first subjects). */
function firstAfter(subjects: readonly StreamSubject[], cursor: { ts: number; id: string }): number {
  let lo = 0;
  let hi = subjects.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (newestFirst(subjects[mid] as StreamSubject, cursor) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
