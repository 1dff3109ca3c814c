// Deployed sources, seen from the API: one object over the rooms that each hold one job (records,
// lifecycle, props, hosts, runner, timers, crash guard, system channels, calls, data), built and
// wired here.
import type { ComponentLibrary } from '../../components/library';
import type { SourceView } from '../../contract/source-api';
import type { DataStores } from '../../store/data-stores';
import type { EventStore, StoredEvent } from '../../store/event-store';
import type { InvocationStore } from '../../store/invocation-store';
import type { LogStore } from '../../store/log-store';
import type { ComponentRecord, Metadata, SourceRecord } from '../../store/metadata';
import type { SecretBox } from '../../store/secrets';
import type { SourceDbs } from '../../store/source-dbs';
import type { Deduper } from '../events/dedupe';
import type { Emission } from '../events/emission';
import type { NetworkService } from '../network/network-service';
import { CrashGuard } from './crash-guard';
import { SourceCalls } from './source-calls';
import { SourceData } from './source-data';
import { SourceHosts, type SandboxLimits } from './source-hosts';
import { SourceLifecycle, type DeployInput, type UpdateInput } from './source-lifecycle';
import { SourceProps } from './source-props';
import { SourceRecords, type EndpointTarget } from './source-records';
import { SourceRunner, type SourceRun, type InvokeOptions } from './source-runner';
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
}

/** Deployed sources: their records, lifecycle, runs and timers, each held by its own room. */
export class SourceManager {
  private readonly records: SourceRecords;
  private readonly props: SourceProps;
  private readonly hosts: SourceHosts;
  private readonly runner: SourceRunner;
  private readonly timers: SourceTimers;
  private readonly lifecycle: SourceLifecycle;

  constructor(deps: SourceManagerDeps) {
    const { metadata, library, logs, network, emission } = deps;
    const records = new SourceRecords(metadata, library);
    const calls = new SourceCalls(network);
    const channels = new SystemChannels(emission, logs, (id) => records.find(id) !== undefined);
    const hosts = new SourceHosts({
      library,
      limits: deps.limits,
      dbs: deps.dbs,
      dataDir: deps.dataDir,
      logs,
      dataStores: deps.dataStores,
      calls,
      onHostExit: (sourceId, exit) => crashes.hostExited(sourceId, exit),
      onStrayEmits: (sourceId, emits) => runner.strayEmits(sourceId, emits),
    });
    const props = new SourceProps({ metadata, secrets: deps.secrets, dataStores: deps.dataStores, dataDir: deps.dataDir, endpointUrl: deps.endpointUrl, runTimeoutMs: deps.limits.timeoutMs, calls });
    const runner = new SourceRunner({ records, hosts, emission, dedupe: deps.dedupe, logs, invocations: deps.invocations, calls, channels });
    const timers = new SourceTimers(records, runner, logs);
    const crashes = new CrashGuard(records, hosts, timers, logs);
    const data = new SourceData({ events: deps.events, invocations: deps.invocations, logs, network, dbs: deps.dbs, dedupe: deps.dedupe, dataDir: deps.dataDir });
    this.lifecycle = new SourceLifecycle({ records, hosts, props, runner, timers, crashes, data, calls, logs });
    this.records = records;
    this.props = props;
    this.hosts = hosts;
    this.runner = runner;
    this.timers = timers;
  }

  /** All deployed sources, oldest first. */
  list(): SourceRecord[] {
    return this.records.list();
  }

  /** A source by id or name slug. */
  find(idOrSlug: string): SourceRecord | undefined {
    return this.records.find(idOrSlug);
  }

  /** The component a source runs. */
  component(source: SourceRecord): ComponentRecord | undefined {
    return this.records.component(source);
  }

  /** A source's configured values in clear, as its code sees them (for configuration forms that start from it). */
  configuredValues(source: SourceRecord): Record<string, unknown> {
    return this.props.configuredValues(source, this.records.component(source));
  }

  /** The source and prop behind an HTTP endpoint id. */
  byEndpoint(endpointId: string): EndpointTarget | undefined {
    return this.records.byEndpoint(endpointId);
  }

  /** Starts the sandbox of every saved source (after a restart). */
  loadAll(): Promise<void> {
    return this.lifecycle.loadAll();
  }

  /** Deploys a source (see SourceLifecycle.deploy). */
  deploy(input: DeployInput): Promise<SourceRecord> {
    return this.lifecycle.deploy(input);
  }

  /** Updates a source (see SourceLifecycle.update). */
  update(source: SourceRecord, input: UpdateInput): Promise<SourceRecord> {
    return this.lifecycle.update(source, input);
  }

  /** Removes a source with its data. */
  remove(source: SourceRecord): Promise<void> {
    return this.lifecycle.remove(source);
  }

  /** Runs the source with an event; resolves once the run is recorded. */
  invoke(source: SourceRecord, event: unknown, options: InvokeOptions): Promise<SourceRun> {
    return this.runner.invoke(source, event, options);
  }

  /** Runs a source subscribed to an event with it (wired to emission by service.ts). */
  listen(listenerId: string, event: StoredEvent, depth: number): void {
    this.runner.listen(listenerId, event, depth);
  }

  /** Runs a source by hand ("run now"). */
  runNow(source: SourceRecord, replayOf?: string): Promise<SourceRun> {
    return this.timers.runNow(source, replayOf);
  }

  /** Each timer prop's schedule and next firing. */
  timersOf(source: SourceRecord): SourceView['timers'] {
    return this.timers.timersOf(source);
  }

  /** Stops every timer and sandbox. */
  async stop(): Promise<void> {
    this.timers.stop();
    await this.hosts.stop();
  }
}
