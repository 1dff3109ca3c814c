// Runs, events and workflow runs as the stream's filter sees them (StreamSubject): their cheap
// fields at once, their records read only when a term or a row needs them, and counted when read.
import type { InvocationView } from '../../contract/invocation-api';
import type { WorkflowRunView } from '../../contract/workflow-api';
import { eventValueOf } from '../../store/event-line';
import type { EventStore, KeptEvent, StoredEvent } from '../../store/event-store';
import type { InvocationStore, KeptRun } from '../../store/invocation-store';
import { bodyField, fieldKnown } from './stream-body-fields';
import type { StreamSubject, SubjectDetail } from './stream-match';
import { type DeliveryState, eventRow, runRow, type StreamTarget, workflowRequest, workflowRunRow } from './stream-rows';

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

/** A value made on first ask, then kept. */
export function once<T>(make: () => T): () => T {
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

/** Builds subjects over the stores. */
export class StreamSubjects {
  /** Records read (parsed) so far, by every request: what a count's budget is measured in. */
  reads = 0;

  constructor(private readonly deps: { invocations: InvocationStore; events: EventStore }) {}

  /** A run as the filter sees it. */
  runSubject(kept: KeptRun, target: StreamTarget, record?: InvocationView): StreamSubject {
    const line = once(() => kept.arena.read(kept));
    const read = once(() => {
      if (record) return record;
      this.reads++;
      return this.deps.invocations.read(kept, line());
    });
    const body = once(() => {
      const run = read();
      return run.request ? jsonOf(requestText(run)) : run.event;
    });
    const detail = once((): SubjectDetail => {
      const run = read();
      const row = runRow(run, target);
      const text = requestText(run);
      return { row, headers: lowerHeaders(run.request?.headers), body, text: once(() => `${row.summary ?? ''} ${row.path ?? ''} ${text ?? JSON.stringify(run.event) ?? ''}`.toLowerCase()) };
    });
    const subject: StreamSubject = { kind: 'run', id: kept.id, ts: kept.started_at, target, status: kept.status === 'crashed' ? 'error' : kept.status, trigger: kept.trigger, line: null, detail, delivery: null };
    return record ? subject : storedSubject(subject, kept, line, body);
  }

  /** An event as the filter sees it; `runs` caches the runs that emitted events, read once a query. */
  eventSubject(kept: KeptEvent, target: StreamTarget, runs: Map<string, InvocationView | undefined>, stored?: StoredEvent, delivery: DeliveryState | null = null): EventSubject {
    const line = once(() => kept.arena.read(kept));
    const read = once(() => {
      if (stored) return stored;
      this.reads++;
      return this.deps.events.read(kept);
    });
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
    if (stored) return subject;
    // An event's body is its own JSON: read from the line, without the run that emitted it.
    return storedSubject(subject, kept, line, () => {
      this.reads++;
      return eventValueOf(line());
    });
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
function storedSubject<S extends StreamSubject>(subject: S, kept: KeptRun | KeptEvent, line: () => string, body: () => unknown): S {
  subject.line = line;
  subject.gone = () => !kept.arena.holds(kept);
  subject.field = (path) => bodyField(kept, path, body);
  subject.fieldKnown = (path) => fieldKnown(kept, path);
  return subject;
}

/** An event subject, with what its store keeps of it. */
export type EventSubject = StreamSubject & { kept: KeptEvent };
