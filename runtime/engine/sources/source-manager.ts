import fs from 'node:fs/promises';
import { ComponentError } from '../../components/bundle';
import type { ComponentLibrary } from '../../components/library';
import { inEmitOrder, MAX_LISTENER_HOPS, type Emission } from '../events/emission';
import { listenersFor } from '../events/routing';
import type { Deduper } from '../events/dedupe';
import type { DataStores } from '../../store/data-stores';
import { runDataStoreOp } from '../../store/data-store-ops';
import type { EventStore, StoredEvent } from '../../store/event-store';
import type { LogStore } from '../../store/log-store';
import { newId } from '../../lib/ids';
import { QueueFullError, Sandbox, type InvocationResult } from '../../sandbox/sandbox';
import type { HostExit, HostPool } from '../../sandbox/host-process';
import type { InvocationStore } from '../../store/invocation-store';
import { maskerFor, type NetworkService } from '../network/network-service';
import type { Masker } from '../network/masker';
import { baseRecord, errorOf, statusOf } from '../invocations/invocation-record';
import type { Cassette, NetworkMode } from '../../contract/network-api';
import type { InvocationEmit, InvocationView, RecordedRequest } from '../../contract/invocation-api';
import type { SourceDbs } from '../../store/source-dbs';
import type { EmitPayload, HttpResponsePayload, InvocationTarget, SandboxContext } from '../../contract/host-protocol';
import type { ComponentRecord, Metadata, SourceRecord } from '../../store/metadata';
import type { SecretBox } from '../../store/secrets';
import { openSecrets, sealSecrets } from '../../props/secret/secret-values';
import { checkConfiguredProps } from '../../props/configured-props';
import { additionalPropsOf, mergeProps, sourceProps } from './dynamic-props';
import { sandboxContext } from './sandbox-context';
import { parseTimerSpec, timerEvent, type TimerSpec } from '../../props/timer/timer-spec';
import { TimerScheduler } from '../../props/timer/timer-scheduler';
import { uniqueSlug } from '../../lib/slug';
import type { ConfigurableProp } from '../../contract/component-shape';
import { checkPermissions, hostGrants, type SourcePermissions } from './source-grants';
import { dirGrants, dirsRoot } from '../../props/dir/dir-folders';
import { makeTempFolder, removeTempFolder } from '../../sandbox/temp-folder';
import type { HostGrants } from '../../contract/host-protocol';

export { QueueFullError };


/** A source cannot run: its component did not load (after a restart, say). */
export class SourceUnavailable extends Error {}

/** A lifecycle hook threw; the call that ran it fails with this message and nothing changes. */
export class HookError extends Error {}

/** How component code is run: where hosts come from, and the limits of each invocation. */
export interface SandboxLimits {
  hosts: HostPool;
  timeoutMs: number;
  maxQueue: number;
}

/** A source whose host ends this many times within CRASH_WINDOW_MS is deactivated. */
const CRASH_LIMIT = 5;
const CRASH_WINDOW_MS = 5 * 60_000;

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

/** What to deploy: module text, or a component saved before. */
export interface DeployInput {
  code?: string;
  filename?: string;
  component?: ComponentRecord;
  name?: string;
  configured_props?: Record<string, unknown>;
  /** Run timeout of this source, instead of the service's. */
  timeout_seconds?: number;
  /** Folders it may read or write beyond the defaults. */
  permissions?: SourcePermissions;
  network_mode?: NetworkMode;
  /** Its cassette from the start, so hooks can replay too. */
  cassette?: Cassette;
  /**
   * False deploys it inactive: no hook runs (`deploy()` waits for the first activation) and
   * required props may still lack a value, which must be given before it can be activated.
   */
  active?: boolean;
}

export interface UpdateInput {
  code?: string;
  filename?: string;
  name?: string;
  configured_props?: Record<string, unknown>;
  active?: boolean;
  timeout_seconds?: number;
  permissions?: SourcePermissions;
  network_mode?: NetworkMode;
}

/** What an invocation of a source came to, with the events it stored and its record. */
export interface Invocation extends InvocationResult {
  stored: StoredEvent[];
  record: InvocationView;
}

/** What started a source's run, as its record keeps it. */
export type Trigger =
  | { kind: 'http'; request: RecordedRequest }
  | { kind: 'timer' }
  | { kind: 'run_now' }
  | { kind: 'event'; emitter_id: string; event_id: string };

export interface InvokeOptions {
  trigger: Trigger;
  /** Receives a `respond()` made during the run. */
  onRespond?: (r: HttpResponsePayload) => void;
  /** Listener hops that led to this run. */
  depth?: number;
  /** The caller completes the record (an HTTP answer) and keeps it with `record()`. */
  deferRecord?: boolean;
  /** The invocation this run replays. */
  replayOf?: string;
}

/** The source and prop behind an HTTP endpoint id. */
export interface EndpointTarget {
  source: SourceRecord;
  prop: string;
  customResponse: boolean;
}

interface Live {
  sandbox: Sandbox;
  component: ComponentRecord;
}

/**
 * Deployed sources: their records, their sandboxes and their lifecycle (spec section 3). Every
 * change runs the hooks first and is saved only if they succeed, so a failing hook leaves the
 * source as it was.
 */
export class SourceManager {
  private readonly live = new Map<string, Live>();
  private readonly endpoints = new Map<string, EndpointTarget>();
  private readonly timers = new TimerScheduler({
    onError: (key, err) => console.error(`timer ${key}: ${(err as Error).message}`),
  });
  /** Timer keys (`<source id>/<prop>`) of each source. */
  private readonly timerKeys = new Map<string, string[]>();
  /** Timers whose run has not ended: a timer never queues a second run behind its own. */
  private readonly firing = new Set<string>();
  /** Each source's credential masker and network mode, for its outgoing calls. */
  private readonly calls = new Map<string, { masker: Masker; mode: NetworkMode }>();
  /** When each source's host last ended on its own (crashes, memory), newest last. */
  private readonly crashes = new Map<string, number[]>();

  constructor(private readonly deps: SourceManagerDeps) {
    deps.emission.onListener('dc_', (listenerId, event, depth) => this.listen(listenerId, event, depth));
    deps.logs.subscribeAll((sourceId, line) => {
      if (this.find(sourceId)) this.systemEvent(sourceId, '$logs', { level: line.level, message: line.message, invocation_id: line.invocation_id, ts: line.ts });
    });
  }

  /** All deployed sources, oldest first. */
  list(): SourceRecord[] {
    return this.deps.metadata.data.sources;
  }

  /** A source by id or name slug. */
  find(idOrSlug: string): SourceRecord | undefined {
    return this.list().find((s) => s.id === idOrSlug || s.name_slug === idOrSlug);
  }

  /** The component a source runs. */
  component(source: SourceRecord): ComponentRecord | undefined {
    return this.deps.metadata.data.components.find((c) => c.id === source.component_id);
  }

  /** A source's configured values in clear, as its code sees them (for configuration forms that start from it). */
  configuredValues(source: SourceRecord): Record<string, unknown> {
    return openSecrets(sourceProps(source, this.component(source)), source.configured_props, this.deps.secrets);
  }

  /** The source and prop behind an HTTP endpoint id. */
  byEndpoint(endpointId: string): EndpointTarget | undefined {
    return this.endpoints.get(endpointId);
  }

  /** Rebuilds the endpoint index after sources change (it is read on every endpoint request). */
  private reindex(): void {
    this.endpoints.clear();
    for (const source of this.list()) {
      const props = sourceProps(source, this.component(source));
      for (const [prop, id] of Object.entries(source.endpoints)) {
        const customResponse = props.find((p) => p.name === prop)?.customResponse === true;
        this.endpoints.set(id, { source, prop, customResponse });
      }
    }
  }

  /** Starts the sandbox of every saved source (after a restart); hooks do not run again. */
  async loadAll(): Promise<void> {
    this.reindex();
    for (const source of this.list()) {
      await this.deps.events.openSource(source.id);
      await this.deps.invocations.open(source.id);
      await this.deps.logs.open(source.id);
      const component = this.component(source);
      if (!component) continue;
      try {
        const { sandbox } = await this.loadSandbox(source.id, component, hostGrants(source.permissions));
        this.apply(sandbox, source, component);
        this.live.set(source.id, { sandbox, component });
        this.schedule(source);
      } catch (err) {
        this.deps.logs.add(source.id, { level: 'error', message: `could not load the component: ${(err as Error).message}`, invocation_id: null });
      }
    }
  }

  /** Deploys a source: saves its component, runs `deploy()` then `activate()`, and keeps it. */
  async deploy(input: DeployInput): Promise<SourceRecord> {
    const id = newId('dc');
    const permissions = input.permissions ? this.checkPermissions(input.permissions) : undefined;
    const grants = hostGrants(permissions);
    const { component, sandbox } = input.component
      ? await this.prepareSaved(id, input.component, grants)
      : await this.prepare(id, input.code ?? '', input.filename, grants);
    try {
      const now = nowSeconds();
      const name = input.name ?? component.name;
      const configured = input.configured_props ?? {};
      const active = input.active ?? true;
      // Its cassette first: additionalProps may replay from it too.
      if (input.cassette) await this.deps.network.cassettes.put(id, input.cassette);
      const { props, dynamic } = await this.propSet(id, sandbox, component, configured, input.network_mode);
      const checked = this.checkProps(props, configured, {}, !active);
      const record: SourceRecord = {
        id,
        component_id: component.id,
        name,
        name_slug: uniqueSlug(name, new Set(this.list().map((s) => s.name_slug))),
        configured_props: checked.values,
        endpoints: this.endpointsFor(props, {}),
        ...(dynamic ? { dynamic_props: dynamic } : {}),
        ...(input.timeout_seconds ? { timeout_seconds: input.timeout_seconds } : {}),
        ...(permissions && hasGrants(permissions) ? { permissions } : {}),
        ...(input.network_mode && input.network_mode !== 'live' ? { network_mode: input.network_mode } : {}),
        ...(checked.missing.length ? { missing_props: checked.missing } : {}),
        ...(active ? {} : { pending_deploy: true }),
        active,
        created_at: now,
        updated_at: now,
      };
      this.apply(sandbox, record, component);
      await this.deps.events.openSource(id);
      await this.deps.invocations.open(id);
      await this.deps.logs.open(id);
      if (active) {
        await this.hook(id, component, sandbox, 'deploy');
        await this.hook(id, component, sandbox, 'activate');
      }
      this.deps.library.remember(component);
      this.deps.metadata.data.sources.push(record);
      this.autoSubscribe(id);
      this.reindex();
      await this.deps.metadata.write();
      this.live.set(id, { sandbox, component });
      this.schedule(record);
      return record;
    } catch (err) {
      await sandbox.close();
      await this.deps.events.removeSource(id);
      await this.deps.invocations.remove(id);
      await this.deps.logs.remove(id);
      await this.deps.network.remove(id);
      await this.deps.dbs.remove(id);
      await this.deps.dedupe.remove(id);
      await fs.rm(dirsRoot(this.deps.dataDir, id), { recursive: true, force: true });
      await removeTempFolder(this.deps.dataDir, id);
      throw err;
    }
  }

  /** Updates code, name, props or the active flag; runs `deactivate()` then `activate()` (spec section 3). */
  async update(source: SourceRecord, input: UpdateInput): Promise<SourceRecord> {
    const current = this.live.get(source.id);
    const previous = this.component(source);
    const permissions = input.permissions ? this.checkPermissions(input.permissions) : source.permissions;
    const grants = hostGrants(permissions);
    const regranted = input.permissions !== undefined && JSON.stringify(grants) !== JSON.stringify(hostGrants(source.permissions));
    let replacement = input.code !== undefined ? await this.prepare(source.id, input.code, input.filename, grants) : null;
    // New values for a source with dynamic props: recompute them in a fresh host, so the live one
    // keeps serving (and stays as it was if the update fails). New grants need a host started with them.
    if (!replacement && ((input.configured_props && source.dynamic_props) || regranted) && previous) replacement = await this.prepareSaved(source.id, previous, grants);
    const component = replacement?.component ?? current?.component ?? previous;
    if (!component) throw new Error(`the component of ${source.id} is missing`);
    let next: SourceRecord;
    try {
      const configured = input.configured_props ?? openSecrets(sourceProps(source, previous), source.configured_props, this.deps.secrets);
      const { props, dynamic } = replacement ? await this.propSet(source.id, replacement.sandbox, component, configured, input.network_mode ?? source.network_mode) : { props: sourceProps(source, component), dynamic: source.dynamic_props ?? null };
      const { dynamic_props: _previous, permissions: _granted, network_mode: _mode, missing_props: _missing, ...rest } = source;
      const networkMode = input.network_mode ?? source.network_mode ?? 'live';
      // New code is what a user tries after their source was stopped for crashing: it runs again.
      const active = input.active ?? (source.deactivated_reason && input.code !== undefined ? true : source.active);
      // Values still missing are allowed while it stays inactive; activating checks them all.
      const recheck = input.configured_props !== undefined || replacement !== null || (active && !source.active && (source.missing_props?.length ?? 0) > 0);
      const checked = recheck ? this.checkProps(props, input.configured_props ?? keptValues(props, configured), source.configured_props, !active) : { values: source.configured_props, missing: active ? [] : (source.missing_props ?? []) };
      next = {
        ...rest,
        component_id: component.id,
        name: input.name ?? source.name,
        name_slug: input.name && input.name !== source.name ? uniqueSlug(input.name, new Set(this.list().filter((s) => s.id !== source.id).map((s) => s.name_slug))) : source.name_slug,
        configured_props: checked.values,
        endpoints: this.endpointsFor(props, source.endpoints),
        ...(dynamic ? { dynamic_props: dynamic } : {}),
        ...(checked.missing.length ? { missing_props: checked.missing } : {}),
        active,
        ...(input.timeout_seconds ?? source.timeout_seconds ? { timeout_seconds: input.timeout_seconds ?? source.timeout_seconds } : {}),
        ...(permissions && hasGrants(permissions) ? { permissions } : {}),
        ...(networkMode !== 'live' ? { network_mode: networkMode } : {}),
        updated_at: nowSeconds(),
      };
    } catch (err) {
      await replacement?.sandbox.close();
      throw err;
    }
    const sandbox = replacement?.sandbox ?? current?.sandbox;
    if (!sandbox) throw new Error(`the component of ${source.id} could not be loaded; update its code`);
    try {
      if (source.active && current) await this.hook(source.id, current.component, current.sandbox, 'deactivate');
      this.apply(sandbox, next, component);
      // A source deployed inactive runs its deploy() hook on its first activation.
      if (next.active && source.pending_deploy) await this.hook(source.id, component, sandbox, 'deploy');
      if (next.active) await this.hook(source.id, component, sandbox, 'activate').catch(async (err: unknown) => {
        // Put the previous version back as it was before failing the call.
        if (current) {
          this.apply(current.sandbox, source, current.component);
          if (source.active) await this.hook(source.id, current.component, current.sandbox, 'activate').catch(() => undefined);
        }
        throw err;
      });
    } catch (err) {
      if (replacement) await replacement.sandbox.close();
      throw err;
    }
    if (replacement) {
      this.deps.library.remember(component);
      if (current) void current.sandbox.close();
      this.live.set(source.id, { sandbox, component });
    }
    delete source.dynamic_props;
    delete source.permissions;
    if (input.network_mode !== undefined && input.network_mode !== (source.network_mode ?? 'live')) this.deps.network.reset(source.id);
    delete source.network_mode;
    delete source.missing_props;
    if (next.active) {
      delete next.deactivated_reason;
      delete source.deactivated_reason;
      delete next.pending_deploy;
      delete source.pending_deploy;
      this.crashes.delete(source.id);
    }
    Object.assign(source, next);
    this.schedule(source);
    this.reindex();
    await this.deps.metadata.write();
    return source;
  }

  /** Runs `deactivate()` (a failure is logged, not fatal: a broken source can always be deleted) and removes the source. */
  async remove(source: SourceRecord): Promise<void> {
    const current = this.live.get(source.id);
    this.unschedule(source.id);
    if (current && source.active) {
      await this.hook(source.id, current.component, current.sandbox, 'deactivate').catch((err: Error) => {
        this.deps.logs.add(source.id, { level: 'error', message: err.message, invocation_id: null });
      });
    }
    this.live.delete(source.id);
    await current?.sandbox.close();
    const data = this.deps.metadata.data;
    data.sources = data.sources.filter((s) => s.id !== source.id);
    data.subscriptions = data.subscriptions.filter((s) => s.emitter_id !== source.id && s.listener_id !== source.id);
    data.auto_subscriptions = data.auto_subscriptions.filter((a) => a.listener_id !== source.id);
    this.reindex();
    await this.deps.metadata.write();
    await this.deps.events.removeSource(source.id);
    await this.deps.logs.remove(source.id);
    this.crashes.delete(source.id);
    await this.deps.invocations.remove(source.id);
    await this.deps.network.remove(source.id);
    this.calls.delete(source.id);
    await this.deps.dbs.remove(source.id);
    await this.deps.dedupe.remove(source.id);
    await fs.rm(dirsRoot(this.deps.dataDir, source.id), { recursive: true, force: true });
    await removeTempFolder(this.deps.dataDir, source.id);
  }

  /** Runs the source with an event, stores what it emitted, and records the invocation. */
  async invoke(source: SourceRecord, event: unknown, options: InvokeOptions): Promise<Invocation> {
    const live = this.live.get(source.id);
    if (!live) throw new SourceUnavailable(`the component of ${source.id} could not be loaded; see its logs, and update its code`);
    const started = Date.now();
    const result = await live.sandbox.invoke({ kind: 'run', eventJson: JSON.stringify(event) }, options.onRespond);
    if (result.error) this.runFailed(source.id, result);
    const { stored, emits } = await this.emit(source.id, live.component, result.emits, result.invocationId, options.depth);
    const { trigger } = options;
    const record = this.recordOf(source.id, trigger.kind, result, started, emits);
    record.replay_of = options.replayOf ?? null;
    if (trigger.kind === 'http') record.request = trigger.request;
    else record.event = event;
    if (trigger.kind === 'event') record.listened_to = { emitter_id: trigger.emitter_id, event_id: trigger.event_id };
    if (!options.deferRecord) this.record(record);
    return { ...result, stored, record };
  }

  /** A recorded invocation of this source, if `id` is one. */
  invocationOf(source: SourceRecord, id: string): InvocationView | undefined {
    const record = this.deps.invocations.get(id);
    return record?.owner_id === source.id ? record : undefined;
  }

  /** Keeps an invocation's record (a failure to write it is logged, not the run's). */
  record(record: InvocationView): void {
    this.deps.invocations.add(record).catch((err: Error) => console.error(`recording ${record.id} of ${record.owner_id}: ${err.message}`));
  }

  /** Runs a source by hand ("run now"): with its first timer's event, or `{timestamp}` if it has no timer. */
  runNow(source: SourceRecord, replayOf?: string): Promise<Invocation> {
    const timer = this.timerSpecs(source)[0];
    const now = Date.now();
    return this.invoke(source, timer ? timerEvent(timer.spec, now) : { timestamp: Math.floor(now / 1000) }, { trigger: { kind: 'run_now' }, replayOf });
  }

  /** Each timer prop's schedule and next firing (epoch ms; null while inactive). */
  timersOf(source: SourceRecord): Record<string, { schedule: TimerSpec; next_run_at: number | null }> {
    return Object.fromEntries(this.timerSpecs(source).map(({ prop, spec }) => [prop, { schedule: spec, next_run_at: this.timers.nextFireAt(`${source.id}/${prop}`) }]));
  }

  /** Stops every sandbox. */
  async stop(): Promise<void> {
    this.timers.clearAll();
    await Promise.all([...this.live.values()].map((l) => l.sandbox.close()));
    this.live.clear();
  }

  /** Loads code as a source component, in a sandbox whose logs go to `sourceId`. */
  private async prepare(sourceId: string, code: string, filename: string | undefined, grants: HostGrants): Promise<{ component: ComponentRecord; sandbox: Sandbox }> {
    const loaded = await this.deps.library.load(code, filename ?? 'component.mjs', (bundle) => this.loadSandbox(sourceId, bundle, grants), {
      // Installs of imported packages can take a while: their progress shows in the source's logs.
      onProgress: (line) => this.deps.logs.add(sourceId, { level: 'info', message: line, invocation_id: null }),
    });
    if (loaded.component.type !== 'source') {
      await loaded.sandbox.close();
      throw new ComponentError([{ path: 'type', message: 'this component is an action; actions are run, not deployed as sources' }]);
    }
    return loaded;
  }

  /** Loads a saved source component, in a sandbox whose logs go to `sourceId`. */
  private async prepareSaved(sourceId: string, component: ComponentRecord, grants: HostGrants): Promise<{ component: ComponentRecord; sandbox: Sandbox }> {
    if (component.type !== 'source') {
      throw new ComponentError([{ path: 'component_id', message: `${component.id} is an action; actions are run, not deployed as sources` }]);
    }
    const { sandbox } = await this.loadSandbox(sourceId, component, grants);
    return { component, sandbox };
  }

  /** A sandbox for a component, its logs and stray emits going to `sourceId`. */
  private loadSandbox(sourceId: string, component: Pick<ComponentRecord, 'bundle' | 'filename'>, grants: HostGrants) {
    return Sandbox.load({
      bundle: component.bundle,
      filename: component.filename,
      ...this.deps.limits,
      grants: dirGrants(grants, this.deps.dataDir, sourceId),
      tmpDir: makeTempFolder(this.deps.dataDir, sourceId),
      label: `source ${sourceId}`,
      db: this.deps.dbs.of(sourceId),
      keepWarm: true,
      onHostExit: (exit) => this.hostExited(sourceId, exit),
      onLog: (log) => this.deps.logs.add(sourceId, { level: log.level, message: log.message, invocation_id: log.invocationId }),
      onDataStore: (storeId, call) => runDataStoreOp(this.deps.dataStores, storeId, call),
      onNetworkMatch: (request) => this.deps.network.match(sourceId, this.callsOf(sourceId).masker, request),
      onStrayEmits: (emits) => {
        this.emit(sourceId, this.live.get(sourceId)?.component, emits, null).catch((err: Error) => {
          this.deps.logs.add(sourceId, { level: 'error', message: `storing emitted events failed: ${err.message}`, invocation_id: null });
        });
      },
    });
  }

  /**
   * The prop set for configured values: the component's props plus what `additionalProps` returns
   * when run with `this` holding the values given for the component's own props.
   */
  private async propSet(sourceId: string, sandbox: Sandbox, component: ComponentRecord, configured: Record<string, unknown>, network: NetworkMode = 'live'): Promise<{ props: ConfigurableProp[]; dynamic: ConfigurableProp[] | null }> {
    const own = component.configurable_props;
    // Problems are reported by the full check once the prop set is known.
    const { values } = checkConfiguredProps(own, configured, this.accountLookup, this.storeExists);
    // additionalProps runs in the source's network mode: a replay makes no live call, a recording keeps its calls.
    const context = sandboxContext({ sourceId, props: own, values, endpoints: {}, dynamicProps: false, network, dataDir: this.deps.dataDir }, this.deps.metadata.data.accounts, this.deps.secrets);
    sandbox.configure(context);
    const masker = maskerFor(context.auth, own.filter((p) => p.secret).map((p) => values[p.name]));
    const dynamic = await additionalPropsOf(sandbox, component.type, (calls) => this.deps.network.record(sourceId, network, masker, calls));
    return { props: dynamic ? mergeProps(own, dynamic) : own, dynamic };
  }

  private readonly accountLookup = (id: string) => this.deps.metadata.data.accounts.find((a) => a.id === id);
  private readonly storeExists = (id: string) => this.deps.dataStores.exists(id);

  /** Checks folders granted to a source; throws a ComponentError naming each refused one. */
  private checkPermissions(given: SourcePermissions): SourcePermissions {
    const { permissions, problems } = checkPermissions(given, this.deps.dataDir);
    if (problems.length > 0) throw new ComponentError(problems);
    return permissions;
  }

  /**
   * Checks configured values and returns them ready to store (secrets sealed). With
   * `allowMissing` (an inactive source), required props without a value are listed in `missing`
   * instead of failing the call.
   */
  private checkProps(props: readonly ConfigurableProp[], configured: Record<string, unknown>, previous: Record<string, unknown>, allowMissing = false): { values: Record<string, unknown>; missing: string[] } {
    const { values, problems } = checkConfiguredProps(props, configured, this.accountLookup, this.storeExists);
    const absent = (path: string) => configured[path.slice('configured_props.'.length)] == null;
    const missing = allowMissing ? problems.filter((p) => absent(p.path)).map((p) => p.path.slice('configured_props.'.length)) : [];
    const refused = allowMissing ? problems.filter((p) => !absent(p.path)) : problems;
    if (refused.length > 0) throw new ComponentError(refused);
    return { values: sealSecrets(props, values, this.deps.secrets, previous), missing };
  }

  /** Endpoint ids of the HTTP interface props, keeping those a previous version had. */
  private endpointsFor(props: readonly ConfigurableProp[], previous: Record<string, string>): Record<string, string> {
    const endpoints: Record<string, string> = {};
    for (const prop of props) {
      if (prop.type === '$.interface.http') endpoints[prop.name] = previous[prop.name] ?? newId('en', 16);
    }
    return endpoints;
  }

  /** Configures a source's sandbox: what `this` holds, and its run timeout. */
  private apply(sandbox: Sandbox, source: SourceRecord, component: ComponentRecord): void {
    sandbox.setLabel(`source ${source.id} (${source.name})`);
    sandbox.setRunTimeout(source.timeout_seconds ? source.timeout_seconds * 1000 : this.deps.limits.timeoutMs);
    const context = this.context(source, component);
    sandbox.configure(context);
    // Credentials the source's recorded calls must not show: its $auth and secret props.
    const secretValues = sourceProps(source, component).filter((p) => p.secret).map((p) => context.props[p.name]);
    this.calls.set(source.id, { masker: maskerFor(context.auth, secretValues), mode: context.network });
  }

  /** How a source's outgoing calls are kept: its credential masker and network mode (as configured, deploy hooks included). */
  private callsOf(sourceId: string): { masker: Masker; mode: NetworkMode } {
    return this.calls.get(sourceId) ?? { masker: maskerFor({}, []), mode: 'live' };
  }

  /** What the sandbox exposes as `this`: secrets opened, app props' credentials as `$auth`. */
  private context(source: SourceRecord, component: ComponentRecord): SandboxContext {
    const endpoints: Record<string, string> = {};
    for (const [prop, id] of Object.entries(source.endpoints)) endpoints[prop] = this.deps.endpointUrl(id);
    const props = sourceProps(source, component);
    const values = openSecrets(props, source.configured_props, this.deps.secrets);
    return sandboxContext({ sourceId: source.id, props, values, endpoints, dynamicProps: source.dynamic_props !== undefined, network: source.network_mode, dataDir: this.deps.dataDir }, this.deps.metadata.data.accounts, this.deps.secrets);
  }

  /** The schedule of each timer prop: the configured one, else the prop's default. */
  private timerSpecs(source: SourceRecord): Array<{ prop: string; spec: TimerSpec }> {
    const specs: Array<{ prop: string; spec: TimerSpec }> = [];
    for (const prop of sourceProps(source, this.component(source))) {
      if (prop.type !== '$.interface.timer') continue;
      const parsed = parseTimerSpec(source.configured_props[prop.name] ?? prop.default, `prop \`${prop.name}\``);
      if ('spec' in parsed) specs.push({ prop: prop.name, spec: parsed.spec });
    }
    return specs;
  }

  /**
   * (Re)starts a source's timers, in phase with its last change (`updated_at`) so a restart keeps
   * the schedule; an inactive source has none.
   */
  private schedule(source: SourceRecord): void {
    this.unschedule(source.id);
    if (!source.active) return;
    const keys = this.timerSpecs(source).map(({ prop, spec }) => {
      const key = `${source.id}/${prop}`;
      this.timers.set(key, spec, source.updated_at * 1000, (event) => this.fireTimer(source.id, key, event));
      return key;
    });
    this.timerKeys.set(source.id, keys);
  }

  private unschedule(sourceId: string): void {
    for (const key of this.timerKeys.get(sourceId) ?? []) this.timers.clear(key);
    this.timerKeys.delete(sourceId);
  }

  private fireTimer(sourceId: string, key: string, event: Record<string, unknown>): void {
    const source = this.find(sourceId);
    if (!source?.active) return;
    if (this.firing.has(key)) {
      this.deps.logs.add(sourceId, { level: 'warn', message: `timer ${key.slice(sourceId.length + 1)}: skipped a firing, the previous run has not ended`, invocation_id: null });
      return;
    }
    this.firing.add(key);
    this.invoke(source, event, { trigger: { kind: 'timer' } })
      .catch((err: Error) => this.deps.logs.add(sourceId, { level: 'error', message: `timer run failed: ${err.message}`, invocation_id: null }))
      .finally(() => this.firing.delete(key));
  }

  /** Dedupes (by the component's strategy) and stores one invocation's emits; `emits` lists them all for its record, dropped ones marked. */
  private async emit(sourceId: string, component: ComponentRecord | undefined, payloads: EmitPayload[], invocationId: string | null, depth = 0): Promise<{ stored: StoredEvent[]; emits: InvocationEmit[] }> {
    const ordered = inEmitOrder(payloads);
    const { kept, warnings } = this.deps.dedupe.filter(sourceId, component?.dedupe ?? null, ordered);
    for (const message of warnings) this.deps.logs.add(sourceId, { level: 'warn', message, invocation_id: invocationId });
    const stored = await this.deps.emission.accept(sourceId, kept, depth, invocationId);
    const subscriptions = this.deps.metadata.data.subscriptions;
    const storedFor = new Map(kept.map((payload, i) => [payload, stored[i]]));
    const emits = ordered.map((payload): InvocationEmit => {
      const event = storedFor.get(payload);
      const name = payload.meta.name ?? null;
      return {
        event_id: event?.id ?? null,
        dropped: !event,
        name,
        summary: payload.meta.summary ?? null,
        webhooks: event ? listenersFor(subscriptions, sourceId, name).filter((id) => id.startsWith('wh_')) : [],
      };
    });
    return { stored, emits };
  }

  /** The record of a finished run or hook, with its logs, emits and error. */
  private recordOf(sourceId: string, trigger: InvocationView['trigger'], result: InvocationResult, started: number, emits: InvocationEmit[]): InvocationView {
    const record = baseRecord(result.invocationId, sourceId, trigger, started);
    record.status = statusOf(result);
    record.error = errorOf(result);
    record.emits = emits;
    record.logs = this.deps.invocations.takeLogs(result.invocationId);
    const { masker, mode } = this.callsOf(sourceId);
    record.calls = this.deps.network.record(sourceId, mode, masker, result.calls);
    return record;
  }

  /** Subscribes the auto-subscriptions' listeners to a new source (`POST /v1/auto_subscriptions`). */
  private autoSubscribe(sourceId: string): void {
    const data = this.deps.metadata.data;
    for (const auto of data.auto_subscriptions) {
      data.subscriptions.push({ id: newId('sub'), emitter_id: sourceId, listener_id: auto.listener_id, event_name: auto.event_name, created_at: nowSeconds() });
    }
  }

  /** Logs a failed run or hook, and emits it on the source's `$errors` channel. */
  private runFailed(sourceId: string, result: InvocationResult): void {
    const error = result.error as NonNullable<InvocationResult['error']>;
    this.deps.logs.add(sourceId, { level: 'error', message: error.stack ?? error.message, invocation_id: result.invocationId });
    this.systemEvent(sourceId, '$errors', { error: { name: error.name, message: error.message, stack: error.stack ?? null }, invocation_id: result.invocationId, ts: Date.now() });
  }

  /** Emits on a `$` channel, only when something listens to it (these are not the source's own events). */
  private systemEvent(sourceId: string, channel: '$errors' | '$logs', data: Record<string, unknown>): void {
    if (listenersFor(this.deps.metadata.data.subscriptions, sourceId, channel).length === 0) return;
    const summary = channel === '$errors' ? String((data.error as { message: string }).message) : String(data.message);
    // Failures go to the service's stderr: a log line here would be forwarded to `$logs` again.
    this.deps.emission.accept(sourceId, [{ json: JSON.stringify(data), meta: { name: channel, summary: summary.slice(0, 200) } }]).catch((err: Error) => console.error(`${sourceId} ${channel}: ${err.message}`));
  }

  /**
   * Counts a host that ended on its own (not a timeout: that is one slow run, and the service
   * stopped it). A source whose host keeps ending is deactivated, so it cannot restart in a loop.
   */
  private hostExited(sourceId: string, exit: HostExit): void {
    if (exit.cause === 'timeout' || exit.cause === 'stopped') return;
    const now = Date.now();
    const recent = (this.crashes.get(sourceId) ?? []).filter((t) => now - t < CRASH_WINDOW_MS);
    recent.push(now);
    this.crashes.set(sourceId, recent);
    const source = this.find(sourceId);
    if (recent.length < CRASH_LIMIT || !source?.active) return;
    this.crashes.delete(sourceId);
    source.active = false;
    source.deactivated_reason = `deactivated after its component host ended ${CRASH_LIMIT} times within ${CRASH_WINDOW_MS / 60_000} minutes (last: ${exit.message}); update its code or set it active again`;
    source.updated_at = nowSeconds();
    this.unschedule(sourceId);
    this.live.get(sourceId)?.sandbox.suspend();
    this.deps.logs.add(sourceId, { level: 'error', message: source.deactivated_reason, invocation_id: null });
    this.deps.metadata.write().catch((err: Error) => console.error(`saving ${sourceId}: ${err.message}`));
  }

  /** Runs a listening source with an event it is subscribed to (spec 6.3); chains stop at MAX_LISTENER_HOPS (see emission). */
  private listen(listenerId: string, event: StoredEvent, depth: number): void {
    const source = this.find(listenerId);
    if (!source?.active || !listenerId.startsWith('dc_')) return;
    if (depth > MAX_LISTENER_HOPS) {
      this.deps.logs.add(listenerId, { level: 'warn', message: `event ${event.id} of ${event.emitter_id} not run: listeners passed events on ${MAX_LISTENER_HOPS} times in a row (a subscription loop?)`, invocation_id: null });
      return;
    }
    this.invoke(source, JSON.parse(event.json), { trigger: { kind: 'event', emitter_id: event.emitter_id, event_id: event.id }, depth }).catch((err: Error) => {
      this.deps.logs.add(listenerId, { level: 'error', message: `could not run with event ${event.id} of ${event.emitter_id}: ${err.message}`, invocation_id: null });
    });
  }

  private async hook(sourceId: string, component: ComponentRecord, sandbox: Sandbox, name: Extract<InvocationTarget, { kind: 'hook' }>['name']): Promise<void> {
    const started = Date.now();
    const result = await sandbox.invoke({ kind: 'hook', name });
    const { emits } = await this.emit(sourceId, component, result.emits, result.invocationId);
    if (result.error) this.runFailed(sourceId, result);
    if (result.value !== false) {
      const record = this.recordOf(sourceId, 'hook', result, started, emits);
      record.hook = name;
      this.record(record);
    } else this.deps.invocations.takeLogs(result.invocationId);
    if (result.error) {
      throw new HookError(`the ${name}() hook failed: ${result.error.message}`);
    }
  }
}

/** Stored values of the props that still exist: new code may drop a prop, and its old value with it. */
function keptValues(props: readonly ConfigurableProp[], values: Record<string, unknown>): Record<string, unknown> {
  const names = new Set(props.map((p) => p.name));
  return Object.fromEntries(Object.entries(values).filter(([name]) => names.has(name)));
}

function hasGrants(p: SourcePermissions): boolean {
  return p.read.length + p.write.length > 0;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
