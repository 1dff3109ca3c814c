// Running a deployed source and recording the run: an invocation of its sandbox (a run or a
// lifecycle hook), its emits deduped and stored, its failure sent to `$errors`, and its record.

import type { EndpointExchange } from '../../contract/endpoint-exchange';
import type { EmitPayload, InvocationTarget } from '../../contract/host-protocol';
import type { InvocationView } from '../../contract/invocation-api';
import { HookError, SourceUnavailable } from '../../lib/error-kinds';
import type { InvocationResult } from '../../sandbox/sandbox-options';
import type { StoredEvent } from '../../store/event-store';
import type { InvocationStore } from '../../store/invocation-store';
import type { LogStore } from '../../store/log-store';
import type { ComponentRecord, SourceRecord } from '../../store/metadata';
import type { Deduper } from '../events/dedupe';
import { type Emission, MAX_LISTENER_HOPS } from '../events/emission';
import { baseRecord, errorOf, statusOf } from '../invocations/invocation-record';
import type { RecordedEmits } from '../invocations/recorded-emits';
import { EmitStream } from './emit-stream';
import type { SourceCalls } from './source-calls';
import type { LiveSource, SourceHosts } from './source-hosts';
import type { SourceRecords } from './source-records';
import type { SystemChannels } from './system-channels';

/** What an invocation of a source came to: its id and error, and its record (which lists the events it stored). */
export interface SourceRun {
  invocationId: string;
  error: InvocationResult['error'];
  record: InvocationView;
}

/** What started a source's run, as its record keeps it. */
export type Trigger = { kind: 'http'; exchange: EndpointExchange; customResponse: boolean } | { kind: 'timer' } | { kind: 'run_now' } | { kind: 'event'; emitter_id: string; event_id: string };

export interface InvokeOptions {
  trigger: Trigger;
  /** Listener hops that led to this run. */
  depth?: number;
  /** Webhook deliveries in a row that led to this run (see StoredEvent's `hops`). */
  hops?: number;
  /** The invocation this run replays (kept only if it is one of this source's). */
  replayOf?: string | null;
}

type HookName = Extract<InvocationTarget, { kind: 'hook' }>['name'];

export interface SourceRunnerDeps {
  records: SourceRecords;
  hosts: SourceHosts;
  emission: Emission;
  dedupe: Deduper;
  logs: LogStore;
  invocations: InvocationStore;
  calls: SourceCalls;
  channels: SystemChannels;
  /** What to wait on before a source's events, runs and logs can be written: null once they are open (after a start they open on first use). */
  storesPending: (sourceId: string) => Promise<void> | null;
}

/** Runs deployed sources (with an event, or a lifecycle hook) and records each run. */
export class SourceRunner {
  constructor(private readonly deps: SourceRunnerDeps) {}

  /**
   * Runs the source with an event, stores what it emitted, answers an HTTP trigger, and records
   * the run: the record is complete when this resolves.
   */
  async invoke(source: SourceRecord, event: unknown, options: InvokeOptions): Promise<SourceRun> {
    const opening = this.deps.storesPending(source.id);
    if (opening) await opening;
    // A parked host is woken first, and the run waits for it (SourceUnavailable only if it cannot load).
    const known = this.deps.hosts.get(source.id);
    const live = known?.sandbox.hostState === 'running' ? known : await this.deps.hosts.ready(source.id);
    if (!live) throw new SourceUnavailable(`the component of ${source.id} could not be loaded; see its logs, and update its code`);
    const { trigger } = options;
    const exchange = trigger.kind === 'http' ? trigger.exchange : null;
    const started = Date.now();
    // Its emits are stored as the host sends them; what the host sent counts against the hosts' budget until its events are stored and its record made.
    const stream = this.stream(source.id, live.component, options.depth, options.hops);
    return live.sandbox.invokeThen(
      { kind: 'run', eventJson: JSON.stringify(event) },
      (result) => this.completeRun(source, event, options, this.deps.calls.maskResult(source.id, result), started, stream),
      exchange ? (r) => exchange.respond(r) : undefined,
      (emits, invocationId) => stream.add(emits, invocationId),
    );
  }

  /** Stores the rest of what a run emitted, answers its HTTP trigger, and records it. */
  private async completeRun(source: SourceRecord, event: unknown, options: InvokeOptions, result: InvocationResult, started: number, stream: EmitStream): Promise<SourceRun> {
    const { trigger } = options;
    if (result.error) this.deps.channels.runFailed(source.id, result);
    const emits = await stream.end(result.emits, result.invocationId);
    const record = this.recordOf(source.id, trigger.kind, result, started, emits);
    record.replay_of = options.replayOf && this.isRunOf(source, options.replayOf) ? options.replayOf : null;
    if (trigger.kind === 'http') {
      record.request = trigger.exchange.request;
      record.response = trigger.exchange.finish(trigger.customResponse ? unanswered(result) : null);
    } else record.event = event;
    if (trigger.kind === 'event') record.listened_to = { emitter_id: trigger.emitter_id, event_id: trigger.event_id };
    this.keep(record);
    // A literal of one shape: a spread of the result (whose optional fields vary) took V8's slow path on every request.
    return { invocationId: result.invocationId, error: result.error, record };
  }

  /** Runs a lifecycle hook; throws a HookError if it failed. */
  async hook(sourceId: string, live: LiveSource, name: HookName): Promise<void> {
    // A module without the hook would answer that nothing ran: no round trip to its host (a save waits for each).
    if (live.declares && !live.declares.hooks.includes(name)) return;
    const opening = this.deps.storesPending(sourceId);
    if (opening) await opening;
    const started = Date.now();
    const stream = this.stream(sourceId, live.component);
    return live.sandbox.invokeThen(
      { kind: 'hook', name },
      (result) => this.completeHook(sourceId, name, this.deps.calls.maskResult(sourceId, result), started, stream),
      undefined,
      (emits, invocationId) => stream.add(emits, invocationId),
    );
  }

  /** Stores the rest of what a hook emitted and records it; throws a HookError if it failed. */
  private async completeHook(sourceId: string, name: HookName, result: InvocationResult, started: number, stream: EmitStream): Promise<void> {
    const emits = await stream.end(result.emits, result.invocationId);
    if (result.error) this.deps.channels.runFailed(sourceId, result);
    // A component without the hook answers false: nothing ran, nothing is recorded.
    let record: InvocationView | undefined;
    if (result.value !== false) {
      record = this.recordOf(sourceId, 'hook', result, started, emits);
      record.hook = name;
      this.keep(record);
    } else this.deps.invocations.takeLogs(result.invocationId);
    if (result.error) throw new HookError(`the ${name}() hook failed: ${result.error.message}`, record);
  }

  /** Runs a listening source with an event it is subscribed to; chains stop at MAX_LISTENER_HOPS (see emission). */
  listen(listenerId: string, event: StoredEvent, depth: number): void {
    const source = this.deps.records.find(listenerId);
    if (!source?.active) return;
    if (depth > MAX_LISTENER_HOPS) {
      this.deps.logs.add(listenerId, { level: 'warn', message: `event ${event.id} of ${event.emitter_id} not run: listeners passed events on ${MAX_LISTENER_HOPS} times in a row (a subscription loop?)`, invocation_id: null });
      return;
    }
    this.invoke(source, JSON.parse(event.json), { trigger: { kind: 'event', emitter_id: event.emitter_id, event_id: event.id }, depth, hops: event.hops ?? 0 }).catch((err: Error) => {
      this.deps.logs.add(listenerId, { level: 'error', message: `could not run with event ${event.id} of ${event.emitter_id}: ${err.message}`, invocation_id: null });
    });
  }

  /** Stores events a source emitted after the run that made them ended; resolves once they are stored (or failed, logged). */
  strayEmits(sourceId: string, emits: EmitPayload[]): Promise<unknown> {
    return this.stream(sourceId, this.deps.hosts.get(sourceId)?.component)
      .end(emits, null)
      .catch((err: Error) => {
        this.deps.logs.add(sourceId, { level: 'error', message: `storing emitted events failed: ${err.message}`, invocation_id: null });
      });
  }

  /** True when `invocationId` is a recorded run of this source. */
  private isRunOf(source: SourceRecord, invocationId: string): boolean {
    return this.deps.invocations.get(invocationId)?.owner_id === source.id;
  }

  /** Keeps an invocation's record (a failure to write it is logged, not the run's). */
  private keep(record: InvocationView): void {
    this.deps.invocations.add(record).catch((err: Error) => console.error(`recording ${record.id} of ${record.owner_id}: ${err.message}`));
  }

  /** A stream of one invocation's emits into the source's events, deduped by its component's strategy. */
  private stream(sourceId: string, component: ComponentRecord | undefined, depth = 0, hops = 0): EmitStream {
    return new EmitStream(this.deps, sourceId, component?.dedupe ?? null, depth, hops);
  }

  /** The record of a finished run or hook, with its logs, emits and error. */
  private recordOf(sourceId: string, trigger: InvocationView['trigger'], result: InvocationResult, started: number, emits: RecordedEmits): InvocationView {
    const record = baseRecord(result.invocationId, sourceId, trigger, started);
    record.status = statusOf(result);
    record.error = errorOf(result);
    record.emits = emits.listed;
    record.emits_omitted = emits.omittedCounts;
    record.logs = this.deps.invocations.takeLogs(result.invocationId);
    record.calls = this.deps.calls.record(sourceId, result.calls);
    return record;
  }
}

/** Why a custom-response endpoint's run gave no answer. */
function unanswered(result: InvocationResult): string {
  return `the source did not respond: ${result.error ? `its run failed: ${result.error.message}` : 'its run ended without calling respond()'}`;
}
