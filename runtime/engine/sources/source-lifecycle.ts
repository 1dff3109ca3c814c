// Deploying, updating and removing sources (docs/runtime.md). Every change runs the hooks first
// and is saved only if they succeed, so a failing hook leaves the source as it was.

import type { ChangeOrigin } from '../../contract/change-api';
import type { ComponentFiles } from '../../contract/component-api';
import type { ConfigurableProp } from '../../contract/component-shape';
import type { Cassette, NetworkMode } from '../../contract/network-api';
import { newId } from '../../lib/ids';
import { KeyedTurns } from '../../lib/keyed-turns';
import { type ChangeBy, firstVersion, nextVersion, requireBase } from '../../lib/record-versions';
import type { LogStore } from '../../store/log-store';
import type { ComponentRecord, SourceRecord } from '../../store/metadata';
import type { CrashGuard } from './crash-guard';
import { sourceProps } from './dynamic-props';
import type { SourceCalls } from './source-calls';
import type { SourceData } from './source-data';
import { hostGrants, type SourcePermissions } from './source-grants';
import type { LiveSource, SourceHosts } from './source-hosts';
import type { CheckedValues, SourceProps } from './source-props';
import { nowSeconds, type SourceRecords } from './source-records';
import type { SourceRunner } from './source-runner';
import type { SourceTimers } from './source-timers';

/** How long an update lets the runs under way end on the old code before stopping them (docs/runtime.md). */
const SWITCH_GRACE_MS = 2000;

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
  /** Who deploys it (its first version's `changed_by`); default `api`. */
  changed_by?: ChangeOrigin;
}

/** What an update changes; what it leaves out stays as it is. */
export interface UpdateInput {
  code?: string;
  filename?: string;
  /** The original files `code` was bundled from (kept to be shown and edited again). */
  files?: ComponentFiles;
  name?: string;
  configured_props?: Record<string, unknown>;
  active?: boolean;
  timeout_seconds?: number;
  permissions?: SourcePermissions;
  network_mode?: NetworkMode;
  /** Who changes it, and the version the change was based on (another is refused); default `api`, unchecked. */
  change?: ChangeBy;
}

export interface SourceLifecycleDeps {
  records: SourceRecords;
  hosts: SourceHosts;
  props: SourceProps;
  runner: SourceRunner;
  timers: SourceTimers;
  crashes: CrashGuard;
  data: SourceData;
  calls: SourceCalls;
  logs: LogStore;
}

/** Loads, deploys, updates and removes sources, running their lifecycle hooks. */
export class SourceLifecycle {
  /** Updates of one source take turns, so a version is checked and replaced by one update at a time. */
  private readonly updates = new KeyedTurns();

  constructor(private readonly deps: SourceLifecycleDeps) {}

  /**
   * Brings back every saved source (after a restart) with its host parked, started by its first
   * work; hooks do not run again. No store is read here: each source's stores open on its first
   * use, and the rest in the background (SourceData).
   */
  loadAll(): void {
    const { records, data, hosts, props, timers, logs } = this.deps;
    records.reindex();
    for (const source of records.list()) {
      const component = records.component(source);
      if (!component) continue;
      try {
        const live = hosts.parked(source.id, component, hostGrants(source.permissions));
        props.configure(live.sandbox, source, component);
        hosts.keep(source.id, live);
        timers.schedule(source);
      } catch (err) {
        logs.add(source.id, { level: 'error', message: `could not load the component: ${(err as Error).message}`, invocation_id: null });
      }
    }
    data.openLater(records.list().map((s) => s.id));
  }

  /** Deploys a source: saves its component, runs `deploy()` then `activate()`, and keeps it; a failure leaves nothing behind. */
  async deploy(input: DeployInput): Promise<SourceRecord> {
    const { records, hosts, props, runner, timers, data, calls } = this.deps;
    const id = newId('dc');
    const permissions = input.permissions ? props.permissions(input.permissions) : undefined;
    const grants = hostGrants(permissions);
    const live = input.component ? await hosts.prepareSaved(id, input.component, grants) : await hosts.prepare(id, input.code ?? '', input.filename, grants);
    try {
      // Its cassette first: additionalProps may replay from it too.
      await data.open(id, input.cassette);
      const record = await calls.whileDeploying(id, async () => {
        const created = await this.newRecord(id, input, live, permissions);
        props.configure(live.sandbox, created, live.component);
        // Written by hand with the real key, it is kept masked as recordings are.
        if (input.cassette) await calls.maskHandWritten(id);
        if (created.active) {
          await runner.hook(id, live, 'deploy');
          await runner.hook(id, live, 'activate');
        }
        return created;
      });
      records.add(record, live.component);
      await records.save();
      hosts.keep(id, live);
      timers.schedule(record);
      // A source just deployed is often edited next (`spout dev`, the editor): its first save finds a host booted.
      hosts.bootNext(id, grants);
      return record;
    } catch (err) {
      await live.sandbox.close();
      calls.forget(id);
      await data.remove(id);
      throw err;
    }
  }

  /**
   * Updates code, name, props, grants or the active flag: the live version's `deactivate()` runs,
   * then the new one's `activate()` (docs/runtime.md). New code, grants or dynamic props load in a
   * fresh host, so the live one keeps serving until the hooks have succeeded. One at a time per
   * source; a change based on another version than the source's is refused before anything runs.
   */
  update(source: SourceRecord, input: UpdateInput): Promise<SourceRecord> {
    return this.updates.run(source.id, async () => {
      requireBase('source', source, input.change);
      if (input.code !== undefined) this.deps.hosts.holdNext(source.id);
      try {
        this.deps.hosts.beginUpdate(source.id);
        return await this.applyUpdate(source, input);
      } finally {
        this.deps.hosts.endUpdate(source.id);
        // Saved or refused, new code is followed by more: the next save finds its host booted.
        if (input.code !== undefined && this.deps.records.find(source.id)) this.deps.hosts.bootNext(source.id, hostGrants(source.permissions));
      }
    });
  }

  private async applyUpdate(source: SourceRecord, input: UpdateInput): Promise<SourceRecord> {
    const { records, hosts, timers, crashes, calls } = this.deps;
    // Woken now: a parked component that no longer loads is replaced by the update, as one that failed at start was.
    // New code replacing a parked host whose module has no deactivate() needs nothing of it: it is not woken.
    const idle = hosts.get(source.id);
    const current = input.code !== undefined && idle?.declares && !idle.declares.hooks.includes('deactivate') ? idle : await hosts.ready(source.id);
    const permissions = input.permissions ? this.deps.props.permissions(input.permissions) : source.permissions;
    const replacement = await this.replacementFor(source, input, permissions);
    const component = replacement?.component ?? current?.component ?? records.component(source);
    if (!component) throw new Error(`the component of ${source.id} is missing`);
    let next: SourceRecord;
    try {
      next = await this.revise(source, input, component, replacement, permissions);
    } catch (err) {
      await replacement?.sandbox.close();
      throw err;
    }
    const sandbox = replacement?.sandbox ?? current?.sandbox;
    if (!sandbox) throw new Error(`the component of ${source.id} could not be loaded; update its code`);
    await this.switchTo(source, next, replacement ?? { sandbox, component, declares: current?.declares }, current, replacement);
    if (replacement) hosts.keep(source.id, replacement);
    if (input.network_mode !== undefined && input.network_mode !== (source.network_mode ?? 'live')) calls.reset(source.id);
    if (next.active) crashes.forget(source.id);
    records.replace(source, next, component);
    timers.schedule(source);
    await records.save();
    return source;
  }

  /**
   * Stops what the source runs at once, runs `deactivate()` in a fresh host (a failure is logged,
   * not fatal: a broken source can always be deleted) and removes the source with its data.
   */
  async remove(source: SourceRecord): Promise<void> {
    const { records, hosts, runner, timers, crashes, data, calls, logs } = this.deps;
    const current = hosts.get(source.id);
    timers.unschedule(source.id);
    current?.sandbox.stopRuns(stoppedBy(source, 'deleted'));
    if (current && source.active) {
      await runner.hook(source.id, current, 'deactivate').catch((err: Error) => {
        logs.add(source.id, { level: 'error', message: err.message, invocation_id: null });
      });
    }
    await hosts.close(source.id);
    records.remove(source.id);
    await records.save();
    crashes.forget(source.id);
    calls.forget(source.id);
    await data.remove(source.id);
  }

  /** The record of a new source: its prop set computed, its values checked. */
  private async newRecord(id: string, input: DeployInput, live: LiveSource, permissions: SourcePermissions | undefined): Promise<SourceRecord> {
    const { props, records } = this.deps;
    const now = nowSeconds();
    const name = input.name ?? live.component.name;
    const configured = input.configured_props ?? {};
    const active = input.active ?? true;
    const { props: propSet, dynamic } = await props.propSet(id, live, configured, input.network_mode);
    const checked = props.check(propSet, configured, {}, !active);
    return {
      id,
      component_id: live.component.id,
      name,
      name_slug: records.slugFor(name),
      configured_props: checked.values,
      endpoints: props.endpointsFor(propSet, {}),
      ...(dynamic ? { dynamic_props: dynamic } : {}),
      ...(input.timeout_seconds ? { timeout_seconds: input.timeout_seconds } : {}),
      ...(permissions && hasGrants(permissions) ? { permissions } : {}),
      ...(input.network_mode && input.network_mode !== 'live' ? { network_mode: input.network_mode } : {}),
      ...(checked.missing.length ? { missing_props: checked.missing } : {}),
      ...(active ? {} : { pending_deploy: true }),
      active,
      ...firstVersion(input.changed_by ?? 'api', now),
      created_at: now,
      updated_at: now,
    };
  }

  /**
   * A fresh host for an update, or null to keep the live one. New code and new grants need one;
   * so do new values for a source with dynamic props, recomputed there so that the live host
   * keeps serving (and stays as it was if the update fails).
   */
  private async replacementFor(source: SourceRecord, input: UpdateInput, permissions: SourcePermissions | undefined): Promise<LiveSource | null> {
    const { hosts, records } = this.deps;
    const grants = hostGrants(permissions);
    if (input.code !== undefined) return hosts.prepare(source.id, input.code, input.filename, grants, input.files);
    const regranted = input.permissions !== undefined && JSON.stringify(grants) !== JSON.stringify(hostGrants(source.permissions));
    const recomputed = input.configured_props !== undefined && source.dynamic_props !== undefined;
    const previous = records.component(source);
    return (regranted || recomputed) && previous ? hosts.prepareSaved(source.id, previous, grants) : null;
  }

  /** The record an update makes: the prop set and values checked anew where they changed, the rest carried over. */
  private async revise(source: SourceRecord, input: UpdateInput, component: ComponentRecord, replacement: LiveSource | null, permissions: SourcePermissions | undefined): Promise<SourceRecord> {
    const { props, records } = this.deps;
    const configured = input.configured_props ?? props.configuredValues(source, records.component(source));
    const { props: propSet, dynamic } = replacement ? await props.propSet(source.id, replacement, configured, input.network_mode ?? source.network_mode) : { props: sourceProps(source, component), dynamic: source.dynamic_props ?? null };
    // New code is what a user tries after their source was stopped for crashing: it runs again.
    const restarted = Boolean(source.deactivated_reason) && input.code !== undefined;
    const active = input.active ?? (restarted || source.active);
    const checked = this.checkUpdate(source, input, propSet, configured, active, replacement !== null);
    const { dynamic_props: _dynamic, permissions: _granted, network_mode: _mode, missing_props: _missing, deactivated_reason, pending_deploy, ...rest } = source;
    const networkMode = input.network_mode ?? source.network_mode ?? 'live';
    const timeout = input.timeout_seconds ?? source.timeout_seconds;
    return {
      ...rest,
      component_id: component.id,
      name: input.name ?? source.name,
      name_slug: input.name && input.name !== source.name ? records.slugFor(input.name, source.id) : source.name_slug,
      configured_props: checked.values,
      endpoints: props.endpointsFor(propSet, source.endpoints),
      ...(dynamic ? { dynamic_props: dynamic } : {}),
      ...(checked.missing.length ? { missing_props: checked.missing } : {}),
      active,
      ...(timeout ? { timeout_seconds: timeout } : {}),
      ...(permissions && hasGrants(permissions) ? { permissions } : {}),
      ...(networkMode !== 'live' ? { network_mode: networkMode } : {}),
      // Activating clears why the service stopped it, and runs the deploy() it was waiting for (see switchTo).
      ...(!active && deactivated_reason !== undefined ? { deactivated_reason } : {}),
      ...(!active && pending_deploy !== undefined ? { pending_deploy } : {}),
      ...nextVersion(source, input.change?.by ?? 'api', nowSeconds()),
      updated_at: nowSeconds(),
    };
  }

  /** Checks the values an update keeps; those still missing are allowed while it stays inactive, activating checks them all. */
  private checkUpdate(source: SourceRecord, input: UpdateInput, props: ConfigurableProp[], configured: Record<string, unknown>, active: boolean, reloaded: boolean): CheckedValues {
    const activating = active && !source.active && (source.missing_props?.length ?? 0) > 0;
    if (input.configured_props !== undefined || reloaded || activating) {
      return this.deps.props.check(props, input.configured_props ?? keptValues(props, configured), source.configured_props, !active);
    }
    return { values: source.configured_props, missing: active ? [] : (source.missing_props ?? []) };
  }

  /**
   * Runs an update's hooks: `deactivate()` of the live version, then, if the source is to be
   * active, the new version's pending `deploy()` and its `activate()`. A failing `activate()` puts
   * the previous version back as it was; any failure closes the replacement host.
   */
  private async switchTo(source: SourceRecord, next: SourceRecord, target: LiveSource, current: LiveSource | undefined, replacement: LiveSource | null): Promise<void> {
    const { props, runner } = this.deps;
    try {
      if (source.active && current) {
        // Runs under way (a request sent as the file was saved) end on the code they started on; one that spins is stopped.
        await current.sandbox.settle(SWITCH_GRACE_MS);
        current.sandbox.stopRuns(stoppedBy(source, next.active ? 'updated' : 'deactivated'));
        await runner.hook(source.id, current, 'deactivate');
      }
      props.configure(target.sandbox, next, target.component);
      // A source deployed inactive runs its deploy() hook on its first activation.
      if (next.active && source.pending_deploy) await runner.hook(source.id, target, 'deploy');
      if (next.active) {
        await runner.hook(source.id, target, 'activate').catch(async (err: unknown) => {
          await this.restore(source, current);
          throw err;
        });
      }
    } catch (err) {
      await replacement?.sandbox.close();
      throw err;
    }
  }

  /** Puts the live version back as it was before an update: its `this`, and its activation. */
  private async restore(source: SourceRecord, current: LiveSource | undefined): Promise<void> {
    if (!current) return;
    this.deps.props.configure(current.sandbox, source, current.component);
    if (source.active) await this.deps.runner.hook(source.id, current, 'activate').catch(() => undefined);
  }
}

/** Stored values of the props that still exist: new code may drop a prop, and its old value with it. */
function keptValues(props: readonly ConfigurableProp[], values: Record<string, unknown>): Record<string, unknown> {
  const names = new Set(props.map((p) => p.name));
  return Object.fromEntries(Object.entries(values).filter(([name]) => names.has(name)));
}

/** The error of a run a change of its source stopped (docs/runtime.md). */
function stoppedBy(source: SourceRecord, change: 'deleted' | 'updated' | 'deactivated'): string {
  return `source ${source.id} was ${change} while this run was under way or waiting, and the run was stopped`;
}

function hasGrants(p: SourcePermissions): boolean {
  return p.read.length + p.write.length > 0;
}
