// Deployed sources, seen from the API: one object over the rooms that each hold one job (records,
// lifecycle, props, hosts, runner, timers, crash guard, system channels, calls, data; see
// docs/architecture.md), and the function that builds and wires them.
import type { ComponentLibrary } from '../../components/library';
import type { HostState, SourceView } from '../../contract/source-api';
import type { DataStores } from '../../store/data-stores';
import type { EventStore, StoredEvent } from '../../store/event-store';
import type { InvocationStore } from '../../store/invocation-store';
import type { LogStore } from '../../store/log-store';
import type { ComponentRecord, Metadata, SourceRecord } from '../../store/metadata';
import type { PayloadStore } from '../../store/payload-store';
import type { SecretBox } from '../../store/secrets';
import type { SourceDbs } from '../../store/source-dbs';
import type { Deduper } from '../events/dedupe';
import type { Emission } from '../events/emission';
import type { NetworkService } from '../network/network-service';
import { CrashGuard } from './crash-guard';
import { SourceCalls } from './source-calls';
import { SourceData } from './source-data';
import { type SandboxLimits, SourceHosts } from './source-hosts';
import { type DeployInput, SourceLifecycle, type UpdateInput } from './source-lifecycle';
import { SourceProps } from './source-props';
import { type EndpointTarget, SourceRecords } from './source-records';
import { type InvokeOptions, type SourceRun, SourceRunner } from './source-runner';
import { SourceTimers } from './source-timers';
import { SystemChannels } from './system-channels';

export interface SourceManagerDeps {
  metadata: Metadata;
  library: ComponentLibrary;
  secrets: SecretBox;
  events: EventStore;
  emission: Emission;
  logs: LogStore;
  endpointUrl: (endpointId: string) => string;
  limits: SandboxLimits;
  /** The sources' `$.service.db` values. */
  dbs: SourceDbs;
  /** The data dir, which no source may be granted (its `dir` props' folders under it excepted). */
  dataDir: string;
  dedupe: Deduper;
  dataStores: DataStores;
  invocations: InvocationStore;
  /** Outgoing calls: cassettes, replay matching, masking. */
  network: NetworkService;
  /** Saved test payloads, removed with their source. */
  payloads: PayloadStore;
}

/** The rooms the API and the endpoints reach sources through. */
export interface SourceRooms {
  records: SourceRecords;
  props: SourceProps;
  hosts: SourceHosts;
  runner: SourceRunner;
  timers: SourceTimers;
  lifecycle: SourceLifecycle;
  calls: SourceCalls;
  data: SourceData;
  /** The sandboxes' limits; the run timeout changes with the settings. */
  limits: SandboxLimits;
}

/** Builds the sources' rooms over the stores, each given only what its job needs, and wires them to each other. */
export function createSources(deps: SourceManagerDeps): SourceManager {
  const { metadata, library, logs, network, emission, dataDir, dataStores, dbs, dedupe, invocations } = deps;
  const records = new SourceRecords(metadata, library);
  const calls = new SourceCalls(network);
  const channels = new SystemChannels(emission, logs, (id) => records.find(id) !== undefined);
  const hosts = new SourceHosts({
    library,
    limits: deps.limits,
    dbs,
    dataDir,
    logs,
    dataStores,
    calls,
    onHostExit: (sourceId, exit) => crashes.hostExited(sourceId, exit),
    onStrayEmits: (sourceId, emits): Promise<unknown> => runner.strayEmits(sourceId, emits),
  });
  const props = new SourceProps({ metadata, secrets: deps.secrets, dataStores, dataDir, endpointUrl: deps.endpointUrl, runTimeoutMs: () => deps.limits.timeoutMs, calls });
  const data = new SourceData({ events: deps.events, invocations, logs, network, dbs, dedupe, payloads: deps.payloads, dataDir });
  const runner = new SourceRunner({ records, hosts, emission, dedupe, logs, invocations, calls, channels, storesPending: (id) => data.pending(id) });
  const timers = new SourceTimers(records, runner, logs);
  const crashes = new CrashGuard(records, hosts, timers, logs);
  const lifecycle = new SourceLifecycle({ records, hosts, props, runner, timers, crashes, data, calls, logs });
  return new SourceManager({ records, props, hosts, runner, timers, lifecycle, calls, data, limits: deps.limits });
}

/** Deployed sources as the API and the endpoints see them: each call handed to the room that holds its job. */
export class SourceManager {
  constructor(private readonly rooms: SourceRooms) {}

  /** All deployed sources, oldest first. */
  list(): SourceRecord[] {
    return this.rooms.records.list();
  }

  /** A source by id or name slug. */
  find(idOrSlug: string): SourceRecord | undefined {
    return this.rooms.records.find(idOrSlug);
  }

  /** The component a source runs. */
  component(source: SourceRecord): ComponentRecord | undefined {
    return this.rooms.records.component(source);
  }

  /** A source's configured values in clear, as its code sees them (for configuration forms that start from it). */
  configuredValues(source: SourceRecord): Record<string, unknown> {
    return this.rooms.props.configuredValues(source, this.rooms.records.component(source));
  }

  /** Masks the credentials in the hand-written entries of a source's cassette, as its recordings are. */
  maskCassette(source: SourceRecord): Promise<void> {
    return this.rooms.calls.maskHandWritten(source.id);
  }

  /** The source and prop behind an HTTP endpoint id. */
  byEndpoint(endpointId: string): EndpointTarget | undefined {
    return this.rooms.records.byEndpoint(endpointId);
  }

  /** Brings back every saved source (after a restart), their hosts parked until work comes and their stores opened on first use or in the background. */
  loadAll(): void {
    this.rooms.lifecycle.loadAll();
  }

  /** Resolves once a source's events, runs and logs are open (opening them now if need be). */
  storesReady(sourceId: string): Promise<void> {
    return this.rooms.data.ready(sourceId);
  }

  /** Resolves once every source's events, runs and logs are open. */
  allStoresReady(): Promise<void> {
    return this.rooms.data.allOpen();
  }

  /** Deploys a source (see SourceLifecycle.deploy). */
  deploy(input: DeployInput): Promise<SourceRecord> {
    return this.rooms.lifecycle.deploy(input);
  }

  /** Updates a source (see SourceLifecycle.update). */
  update(source: SourceRecord, input: UpdateInput): Promise<SourceRecord> {
    return this.rooms.lifecycle.update(source, input);
  }

  /** Removes a source with its data. */
  remove(source: SourceRecord): Promise<void> {
    return this.rooms.lifecycle.remove(source);
  }

  /** Gives a running source what its configuration reads now (an account's new credentials); no hook runs. */
  reconfigure(source: SourceRecord): void {
    const live = this.rooms.hosts.get(source.id);
    if (live) this.rooms.props.configure(live.sandbox, source, live.component);
  }

  /** Changes the run timeout of sources that set none (the settings): runs that start from now on use it. */
  setRunTimeout(ms: number): void {
    this.rooms.limits.timeoutMs = ms;
    for (const source of this.rooms.records.list()) this.rooms.hosts.get(source.id)?.sandbox.setRunTimeout(this.rooms.props.runTimeout(source));
  }

  /** Runs the source with an event; resolves once the run is recorded. */
  invoke(source: SourceRecord, event: unknown, options: InvokeOptions): Promise<SourceRun> {
    return this.rooms.runner.invoke(source, event, options);
  }

  /** Runs a source subscribed to an event with it (wired to emission by service.ts). */
  listen(listenerId: string, event: StoredEvent, depth: number): void {
    this.rooms.runner.listen(listenerId, event, depth);
  }

  /** Runs a source by hand ("run now"). */
  runNow(source: SourceRecord, replayOf?: string): Promise<SourceRun> {
    return this.rooms.timers.runNow(source, replayOf);
  }

  /** Its component host's state: running, starting, or parked. */
  hostState(source: SourceRecord): HostState {
    return this.rooms.hosts.state(source.id);
  }

  /** Each timer prop's schedule and next firing. */
  timersOf(source: SourceRecord): SourceView['timers'] {
    return this.rooms.timers.timersOf(source);
  }

  /** Stops every timer and sandbox, and the opening of stores. */
  async stop(): Promise<void> {
    this.rooms.timers.stop();
    await Promise.all([this.rooms.hosts.stop(), this.rooms.data.stopOpening()]);
  }
}
