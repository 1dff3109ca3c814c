// One stream of runs and events across every source, action and workflow, newest first: each
// store's kept records are read as subjects (their cheap fields, the line read only when a term
// asks), matched against a filter, sorted together, and only the page's rows are built.
import { performance } from 'node:perf_hooks';
import type { MessageSummary } from '../../contract/delivery-protocol';
import type { InvocationView } from '../../contract/invocation-api';
import type { PageQuery } from '../../contract/page';
import type { StreamPage, StreamRow } from '../../contract/stream-api';
import type { WorkflowRunView } from '../../contract/workflow-api';
import { byStart } from '../../lib/start-order';
import type { EventStore, KeptEvent } from '../../store/event-store';
import { isSystemChannel } from '../../store/event-store';
import type { InvocationStore, KeptRun } from '../../store/invocation-store';
import type { RunLog } from '../../store/workflow-run-log';
import { parseFilter, type StreamFilter, usesDelivery } from './stream-filter';
import { Lane, mergeLanes, newestFirst, type RowKey } from './stream-lanes';
import { compileFilter, laneMayMatch, type StreamSubject, type SubjectDetail } from './stream-match';
import { deliveryState, type StreamTarget } from './stream-rows';
import { type EventSubject, once, StreamSubjects } from './stream-subjects';

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
/** Records a page's count may read (parse) past the page before it answers a lower bound: a few tens of ms. */
export const COUNT_READS = 2000;
/**
 * A count goes on in slices of this many ms, each followed by a pause as long: the requests that
 * come meanwhile are answered between slices, at half the loop's pace at worst, not queued behind it.
 */
const SLICE_MS = 8;
/** Counts a partial page starts in the background, at most, at once. */
const BACKGROUND_COUNTS = 1;

const NO_FILTER: StreamFilter = { expr: '', clauses: [] };

/** The cursor of a row: its time and id, in the order rows are listed. */
export function cursorOf(row: { ts: number; id: string }): string {
  return `${row.ts}:${row.id}`;
}

/** An event's place in the stream: its emit time (its id's first part) and id. */
function eventKey(kept: KeptEvent): RowKey {
  return { ts: Number(kept.id.slice(0, kept.id.indexOf('-'))), id: kept.id };
}

function parseCursor(cursor: string): { ts: number; id: string } {
  const i = cursor.indexOf(':');
  return { ts: Number(cursor.slice(0, i)), id: cursor.slice(i + 1) };
}

export class StreamReader {
  /** Runs and events as filters see them. */
  readonly subjects: StreamSubjects;
  /** Counts under way, by filter expression. */
  private readonly counting = new Map<string, Promise<number>>();

  constructor(private readonly deps: StreamDeps) {
    this.subjects = new StreamSubjects(deps);
  }

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

  /**
   * One page of the rows matching the filter, newest first; cursors are `page_info`'s. Its count
   * reads at most COUNT_READS records past the page: beyond, `total_count` is those counted so far
   * and `total_partial` is set (`count` counts them all).
   */
  async page(filter: StreamFilter, page: PageQuery): Promise<StreamPage> {
    if (!page.after && !usesDelivery(filter)) {
      // The usual call (a first page, or older ones): merged from the lanes, only up to the page read.
      const lanes = this.lanes(filter, compileFilter(filter));
      const slice = mergeLanes(lanes, page.limit, page.before ? parseCursor(page.before) : null);
      if (filter.clauses.length === 0) return this.answer(slice, this.countAll());
      // The count goes on from where the page stopped reading each lane, instead of reading it again.
      const budget = this.subjects.reads + COUNT_READS;
      let complete = true;
      for (const lane of lanes) if (!lane.count(() => this.subjects.reads >= budget)) complete = false;
      // Counted in the background (at most BACKGROUND_COUNTS at once): the body fields it reads are remembered for the next page.
      if (!complete && this.counting.size < BACKGROUND_COUNTS) this.count(filter).catch((err: Error) => console.error(`counting the stream for ${filter.expr}: ${err.message}`));
      return this.answer(
        slice,
        lanes.reduce((n, lane) => n + lane.passed, 0),
        complete,
      );
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
  private async answer(slice: StreamSubject[], total: number, complete = true): Promise<StreamPage> {
    const data = await this.rows(slice);
    const info = { total_count: total, count: data.length, start_cursor: data[0] ? cursorOf(data[0]) : null, end_cursor: data.length ? cursorOf(data[data.length - 1] as StreamRow) : null };
    return { page_info: complete ? info : { ...info, total_partial: true }, data };
  }

  /**
   * How many rows match the filter, counted a slice at a time with the service's other work in
   * between. Body fields it reads are remembered, so pages asked after it answer from memory. One
   * count runs per filter: a second ask joins it.
   */
  count(filter: StreamFilter): Promise<number> {
    let counting = this.counting.get(filter.expr);
    if (!counting) {
      counting = this.countSliced(filter).finally(() => this.counting.delete(filter.expr));
      this.counting.set(filter.expr, counting);
    }
    return counting;
  }

  private async countSliced(filter: StreamFilter): Promise<number> {
    if (filter.clauses.length === 0) return this.countAll();
    if (usesDelivery(filter)) return (await this.matching(filter)).length;
    const test = compileFilter(filter);
    // Records may be trimmed between slices: a lane holds a copy of its list and skips those gone.
    const lanes = this.lanes(filter, (s) => !s.gone?.() && test(s), true);
    for (const lane of lanes) {
      for (;;) {
        const until = performance.now() + SLICE_MS;
        let rows = 0;
        // The clock is read every 64 rows: rows from memory take well under a microsecond each.
        if (lane.count(() => (++rows & 63) === 0 && performance.now() >= until)) break;
        await new Promise((resolve) => setTimeout(resolve, SLICE_MS));
      }
    }
    return lanes.reduce((n, lane) => n + lane.passed, 0);
  }

  /** Those of an owner's kept runs that match the filter (`GET …/invocations?filter=`). */
  filterRuns(filter: StreamFilter, kept: readonly KeptRun[], owner: string): KeptRun[] {
    if (filter.clauses.length === 0) return [...kept];
    const test = compileFilter(filter);
    const target = this.deps.target(owner);
    return kept.filter((k) => test(this.subjects.runSubject(k, target)));
  }

  /** Those of an emitter's kept events that match the filter, delivery states looked up when it reads them (`GET …/event_summaries?filter=`). */
  async filterEvents(filter: StreamFilter, kept: readonly KeptEvent[], emitter: string): Promise<KeptEvent[]> {
    if (filter.clauses.length === 0) return [...kept];
    const test = compileFilter(filter);
    const target = this.deps.target(emitter);
    const runs = new Map<string, InvocationView | undefined>();
    const subjects = kept.map((k) => this.subjects.eventSubject(k, target, runs)).filter((s) => test(s, false));
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
      const base = run ? this.subjects.runSubject({ id: run.id, status: run.status, trigger: run.trigger, started_at: run.started_at } as KeptRun, target, run) : null;
      const detail = once((): SubjectDetail => {
        const d = base?.detail();
        const row: StreamRow = d?.row ?? { kind: 'run', id: line.id, ts: line.ts, target, status: null, trigger: null, method: null, path: null, response_status: null, size: null, emits: null, delivery: null, summary: null, run_id: null };
        return { row, headers: d?.headers ?? {}, body: d?.body ?? (() => undefined), text: () => line.message.toLowerCase() };
      });
      return test({ kind: 'run', id: line.id, ts: line.ts, target, status: base?.status ?? null, trigger: base?.trigger ?? null, line: null, detail, delivery: null });
    });
  }

  /** A lane for every store whose rows may match the filter, each passing `test`; `copy`: over copies of the stores' lists. */
  private lanes(filter: StreamFilter, test: (s: StreamSubject) => boolean, copy = false): Lane[] {
    const lanes: Lane[] = [];
    const runCache = new Map<string, InvocationView | undefined>();
    const { invocations, events, runs } = this.deps;
    const listed = <T>(list: readonly T[]) => (copy ? [...list] : list);
    for (const owner of invocations.owners()) {
      const target = this.deps.target(owner);
      if (!laneMayMatch(filter, 'run', target)) continue;
      const kept = byStart(listed(invocations.keptOf(owner)));
      // A workflow step's run is shown in its workflow's row.
      const at = (i: number) => ((kept[i] as KeptRun).in_workflow_run ? null : this.subjects.runSubject(kept[i] as KeptRun, target));
      lanes.push(new Lane(kept.length, at, test, (i) => ({ ts: (kept[i] as KeptRun).started_at, id: (kept[i] as KeptRun).id })));
    }
    for (const emitter of events.emitters()) {
      const target = this.deps.target(emitter);
      if (!laneMayMatch(filter, 'event', target)) continue;
      const kept = listed(events.keptOf(emitter));
      const at = (i: number) => (isSystemChannel((kept[i] as KeptEvent).name) ? null : this.subjects.eventSubject(kept[i] as KeptEvent, target, runCache));
      lanes.push(new Lane(kept.length, at, test, (i) => eventKey(kept[i] as KeptEvent)));
    }
    for (const workflowId of runs.workflowIds()) {
      const target = this.deps.target(workflowId);
      if (!laneMayMatch(filter, 'run', target)) continue;
      const trigger = this.deps.workflowTrigger(workflowId);
      // Oldest first by start (lanes read from the end); a workflow keeps at most 100.
      const list = runs.list(workflowId).sort((a, b) => -newestFirst({ ts: a.started_at_ms, id: a.id }, { ts: b.started_at_ms, id: b.id }));
      lanes.push(
        new Lane(
          list.length,
          (i) => this.subjects.workflowSubject(list[i] as WorkflowRunView, target, trigger),
          test,
          (i) => ({ ts: (list[i] as WorkflowRunView).started_at_ms, id: (list[i] as WorkflowRunView).id }),
        ),
      );
    }
    return lanes;
  }

  /** How many rows there are with no filter: counted, not read. */
  private countAll(): number {
    const { invocations, events, runs } = this.deps;
    let n = 0;
    for (const owner of invocations.owners()) for (const r of invocations.keptOf(owner)) if (!r.in_workflow_run) n++;
    for (const emitter of events.emitters()) for (const e of events.keptOf(emitter)) if (!isSystemChannel(e.name)) n++;
    for (const workflowId of runs.workflowIds()) n += runs.list(workflowId).length;
    return n;
  }

  /** Every subject matching the filter, newest first. */
  private async matching(filter: StreamFilter): Promise<StreamSubject[]> {
    const test = compileFilter(filter);
    const matched: StreamSubject[] = [];
    for (const lane of this.lanes(filter, (s) => test(s, false))) {
      while (lane.next) {
        const s = lane.take();
        if (s) matched.push(s);
      }
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
}

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
