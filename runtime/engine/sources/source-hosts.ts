// The live sandbox of each deployed source: loading its component into a host started with the
// source's grants, db, data stores and replay lookups, and keeping, replacing and closing it. A
// host starts when its source has work and parks when idle (sandbox/host-parking.ts).

import type { ComponentLibrary } from '../../components/library';
import type { ComponentFiles } from '../../contract/component-api';
import type { ComponentDescription } from '../../contract/component-shape';
import type { EmitPayload, HostGrants } from '../../contract/host-protocol';
import type { HostState } from '../../contract/source-api';
import { ComponentError } from '../../lib/error-kinds';
import { dirGrants, dirsRoot } from '../../props/dir/dir-folders';
import type { HostParking } from '../../sandbox/host-parking';
import type { HostPool } from '../../sandbox/host-pool';
import type { HostExit, HostProcess } from '../../sandbox/host-process';
import { Sandbox } from '../../sandbox/sandbox';
import type { SandboxOptions } from '../../sandbox/sandbox-options';
import { makeTempFolder } from '../../sandbox/temp-folder';
import { runDataStoreOp } from '../../store/data-store-ops';
import type { DataStores } from '../../store/data-stores';
import type { LogStore } from '../../store/log-store';
import type { ComponentRecord } from '../../store/metadata';
import type { SourceDbs } from '../../store/source-dbs';
import type { SourceCalls } from './source-calls';

/** How component code is run: where hosts come from, and the limits of each invocation. */
export interface SandboxLimits {
  hosts: HostPool;
  /** When deployed sources' idle hosts park; without it they run until closed (configuration sessions have their own idle time). */
  parking?: HostParking;
  timeoutMs: number;
  maxQueue: number;
}

/** A source's component loaded in its sandbox. */
export interface LiveSource {
  sandbox: Sandbox;
  component: ComponentRecord;
  /** What its module declared when it was loaded (none for a source brought back parked): a hook or additionalProps it lacks is not sent to its host. */
  declares?: Declared;
}

/** The parts of a module's description that say which calls its host would answer with nothing. */
export type Declared = Pick<ComponentDescription, 'hooks' | 'hasAdditionalProps'>;

/** How long after a code change the host for the next one boots: not while the save is answered and the new code first called (docs/runtime.md). */
const NEXT_BOOT_DELAY_MS = 250;

export interface SourceHostsDeps {
  library: ComponentLibrary;
  limits: SandboxLimits;
  /** The sources' `$.service.db` values. */
  dbs: SourceDbs;
  /** The data dir: `dir` props' folders are granted under it. */
  dataDir: string;
  /** Where component logs (and install progress) go. */
  logs: LogStore;
  dataStores: DataStores;
  /** Answers replay lookups of outgoing calls. */
  calls: SourceCalls;
  /** A host ended without the service asking. */
  onHostExit: (sourceId: string, exit: HostExit) => void;
  /** Events emitted after the run that made them ended; they count against the hosts' budget until a promise returned settles. */
  onStrayEmits: (sourceId: string, emits: EmitPayload[]) => Promise<unknown> | void;
}

/** Loads, keeps and closes the sandboxes of deployed sources. */
export class SourceHosts {
  private readonly live = new Map<string, LiveSource>();
  /** The host booted for the next code update of the source whose code changed last (docs/runtime.md, "Save to live"). */
  private next: { sourceId: string; host: HostProcess; expiry: NodeJS.Timeout | null } | null = null;
  /** The boot of that host, waiting NEXT_BOOT_DELAY_MS. */
  private booting: { sourceId: string; timer: NodeJS.Timeout } | null = null;

  /** Sources being updated: two hosts may need their folder where it lives, so no spare takes it. */
  private readonly updating = new Set<string>();

  constructor(private readonly deps: SourceHostsDeps) {}

  /** A source's component in its sandbox, whose host may be parked; none if it could not be loaded. */
  get(sourceId: string): LiveSource | undefined {
    return this.live.get(sourceId);
  }

  /** Its host's state; a source whose component could not be loaded has none running. */
  state(sourceId: string): HostState {
    return this.live.get(sourceId)?.sandbox.hostState ?? 'parked';
  }

  /**
   * A source's sandbox with its host running, woken if parked; none if its component cannot be
   * loaded: that is logged, and the source has no sandbox until its code is updated.
   */
  async ready(sourceId: string): Promise<LiveSource | undefined> {
    const live = this.live.get(sourceId);
    if (!live || live.sandbox.hostState === 'running') return live;
    try {
      await live.sandbox.wake();
      return live;
    } catch (err) {
      // Many requests may wait for one wake: the first to see it fail says so.
      if (this.live.get(sourceId) !== live) return undefined;
      this.live.delete(sourceId);
      void live.sandbox.close();
      this.deps.logs.add(sourceId, { level: 'error', message: `could not load the component: ${(err as Error).message}`, invocation_id: null });
      return undefined;
    }
  }

  /**
   * An update of the source begins: until `endUpdate` its hosts start with its folder where it
   * lives (the new version's host needs it there), none on the spare. A live host that has the
   * folder in a spare's place keeps it, serving on; its files join the folder when it ends, right
   * after the switch (sandbox/spare-folders.ts, docs/runtime.md "The spare host").
   */
  beginUpdate(sourceId: string): void {
    this.updating.add(sourceId);
  }

  /** The update has ended, saved or refused. */
  endUpdate(sourceId: string): void {
    this.updating.delete(sourceId);
  }

  /** Loads code as a source component, in a sandbox whose logs go to `sourceId`; `files`: the original files it was bundled from. */
  async prepare(sourceId: string, code: string, filename: string | undefined, grants: HostGrants, files?: ComponentFiles): Promise<LiveSource> {
    const loaded = await this.deps.library.load(code, filename ?? 'component.mjs', (bundle) => Sandbox.load(this.options(sourceId, bundle, grants)), {
      files,
      // Installs of imported packages can take a while: their progress shows in the source's logs.
      onProgress: (line) => this.deps.logs.add(sourceId, { level: 'info', message: line, invocation_id: null }),
    });
    if (loaded.component.type !== 'source') {
      await loaded.sandbox.close();
      throw new ComponentError([{ path: 'type', message: 'this component is an action; actions are run, not deployed as sources' }]);
    }
    return { sandbox: loaded.sandbox, component: loaded.component, declares: declared(loaded.description) };
  }

  /** Loads a saved source component, in a sandbox whose logs go to `sourceId`. */
  async prepareSaved(sourceId: string, component: ComponentRecord, grants: HostGrants): Promise<LiveSource> {
    if (component.type !== 'source') {
      throw new ComponentError([{ path: 'component_id', message: `${component.id} is an action; actions are run, not deployed as sources` }]);
    }
    const { sandbox, description } = await Sandbox.load(this.options(sourceId, component, grants));
    return { sandbox, component, declares: declared(description) };
  }

  /** A saved source's sandbox with its host parked, started by its first work (after a restart: its type was checked when it was deployed). */
  parked(sourceId: string, component: ComponentRecord, grants: HostGrants): LiveSource {
    return { sandbox: Sandbox.parked(this.options(sourceId, component, grants)), component };
  }

  /**
   * Boots the host a source's next code update will load in, so that a save does not wait for
   * Node to start: a source just deployed or whose code just changed is being edited. It boots
   * NEXT_BOOT_DELAY_MS later, off the path of the change's answer (a spawn holds the service's
   * thread for a few ms, Node's start takes a core); a change in between moves it. One such host
   * at most; one booted for another source, or with grants the update no longer has, is ended, and
   * so is one no save took within the hosts' idle time (`--host-idle`).
   */
  bootNext(sourceId: string, grants: HostGrants): void {
    this.dropNext();
    const timer = setTimeout(() => {
      this.booting = null;
      const { dataDir, limits } = this.deps;
      if (!this.live.has(sourceId)) return;
      const host = limits.hosts.startAhead(dirGrants(grants, dataDir, sourceId), makeTempFolder(dataDir, sourceId).path);
      // A source left unedited as long as an idle host parks gives this one back too.
      const expiry = limits.parking ? setTimeout(() => this.dropNext(sourceId), limits.parking.rules.idleMs) : null;
      expiry?.unref();
      this.next = { sourceId, host, expiry };
    }, NEXT_BOOT_DELAY_MS);
    timer.unref();
    this.booting = { sourceId, timer };
  }

  /**
   * A code update of the source starts: a boot still waiting is dropped, since the update's load
   * starts its own host if none is booted (two booting at once would each take longer on a busy
   * machine), and its end schedules the next one.
   */
  holdNext(sourceId: string): void {
    if (this.booting?.sourceId !== sourceId) return;
    clearTimeout(this.booting.timer);
    this.booting = null;
  }

  /** Ends the host booted (or about to boot) for a next update if no load took it; with `sourceId`, only that source's. */
  private dropNext(sourceId?: string): void {
    const mine = (held: { sourceId: string } | null) => held !== null && (sourceId === undefined || held.sourceId === sourceId);
    if (this.booting && mine(this.booting)) {
      clearTimeout(this.booting.timer);
      this.booting = null;
    }
    if (this.next && mine(this.next)) {
      if (this.next.expiry) clearTimeout(this.next.expiry);
      this.deps.limits.hosts.dropAhead(this.next.host);
      this.next = null;
    }
  }

  /** Makes `next` the source's live sandbox, closing the one it replaces. */
  keep(sourceId: string, next: LiveSource): void {
    const previous = this.live.get(sourceId);
    if (previous && previous.sandbox !== next.sandbox) void previous.sandbox.close();
    this.live.set(sourceId, next);
  }

  /** Stops running a source's invocations until it is configured again (it was deactivated). */
  suspend(sourceId: string): void {
    this.live.get(sourceId)?.sandbox.suspend();
  }

  /** Closes and forgets a source's sandbox. */
  async close(sourceId: string): Promise<void> {
    const current = this.live.get(sourceId);
    this.live.delete(sourceId);
    this.dropNext(sourceId);
    await current?.sandbox.close();
  }

  /** Stops every sandbox. */
  async stop(): Promise<void> {
    this.dropNext();
    await Promise.all([...this.live.values()].map((l) => l.sandbox.close()));
    this.live.clear();
  }

  /** What a sandbox of a source's component is given, its logs and stray emits going to `sourceId`. */
  private options(sourceId: string, component: Pick<ComponentRecord, 'bundle' | 'filename'>, grants: HostGrants): SandboxOptions {
    const { deps } = this;
    return {
      bundle: component.bundle,
      filename: component.filename,
      ...deps.limits,
      grants: dirGrants(grants, deps.dataDir, sourceId),
      temp: makeTempFolder(deps.dataDir, sourceId),
      // A source granted folders of the user's cannot wake on the spare: its grants are fixed when a host starts (docs/runtime.md, "The spare host").
      ...(grants.read.length + grants.write.length === 0 ? { own: () => (this.updating.has(sourceId) ? undefined : dirsRoot(deps.dataDir, sourceId)) } : {}),
      label: `source ${sourceId}`,
      db: deps.dbs.of(sourceId),
      keepWarm: true,
      onHostExit: (exit) => deps.onHostExit(sourceId, exit),
      onLog: (log) => deps.logs.add(sourceId, { level: log.level, message: deps.calls.maskText(sourceId, log.message), invocation_id: log.invocationId }),
      onDataStore: (storeId, call) => runDataStoreOp(deps.dataStores, storeId, call),
      onNetworkMatch: (request) => deps.calls.match(sourceId, request),
      onStrayEmits: (emits) => deps.onStrayEmits(sourceId, emits),
    };
  }
}

/** The calls a loaded module answers. */
function declared(description: ComponentDescription): Declared {
  return { hooks: description.hooks, hasAdditionalProps: description.hasAdditionalProps };
}
