// Starting component hosts: under Node's permission model with an empty environment, the
// kernel's limits set first (host-grants.ts), a spare one kept ready so that a deploy or a parked
// source's wake does not wait for Node to boot: it is granted a neutral folder of its own, into
// which a source's own folder is moved when it takes one (spare-folders.ts), and it serves once. Each host's usage is read on a timer and held to its limits (host-limits.ts).
// No host outlives the service: each ends itself when the service's end of its watchdog pipe
// closes (child/host-guards.ts), the service kills them on its way out, and a start stops those an
// earlier run of the same data dir left behind (host-records.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostGrants } from '../contract/host-protocol';
import { DEFAULT_COMPONENT_DISK_MB, MAX_HOSTS_IN_FLIGHT_BYTES } from '../contract/limits';
import { makePrivateDir } from '../lib/private-files';
import { HostBudget } from './host-budget';
import { hostArgs, hostEnv, hostLauncher, NO_GRANTS } from './host-grants';
import { HostLimits } from './host-limits';
import { HostProcess } from './host-process';
import { HostRecords } from './host-records';
import { HostUsageReader } from './host-usage';
import { inheritedFds } from './inherited-fds';
import { makeSpareFolder, moveBack, moveIn, recoverSpareFolders, type SpareFolder } from './spare-folders';

export interface HostPoolOptions {
  /** The host entry script (dist/host.cjs). */
  script: string;
  /** Read-only folders every host may read: the package cache, Spout's own code. */
  baseRead: string[];
  /** Resident memory limit of one host, MB (`--component-memory`). */
  memoryMb: number;
  /** Limit of a source's own folders (its `dir` props' folder and temp folder), MB (`--component-disk`). */
  diskMb?: number;
  /** The data dir: write grants inside it are a source's own folders; its hosts are recorded in it. */
  dataDir?: string;
  /** Node to run hosts with; default this process's (Electron's, run as Node). */
  execPath?: string;
  /** How often hosts' usage is read, ms. Default: 25 on Linux (/proc), 1000 elsewhere (ps, wmic). */
  pollMs?: number;
  /** Keep one started host ready for the next load. Default true. */
  spare?: boolean;
  /** Hosts do not keep this process alive (a test process ends when its tests do, sources left open or not). */
  unref?: boolean;
}

/** Starts hosts, keeps a spare one ready, and stops any host over its limits. */
export class HostPool {
  private spare: HostProcess | null = null;
  /** The spare's neutral folder; null for a spare started without one (no data dir, Windows). */
  private spareFolder: SpareFolder | null = null;
  /** Hosts started ahead of the loads that will acquire them, by their grants and temp folder. */
  private readonly ahead = new Map<string, HostProcess[]>();
  private readonly live = new Set<HostProcess>();
  /** Folders lent to spare hosts now. */
  private readonly lentFolders = new Set<string>();
  private poller: NodeJS.Timeout | null = null;
  private polling = false;
  private stopped = false;
  private readonly limits: HostLimits;
  /** What all its hosts may have in flight to the service at once. */
  private readonly budget = new HostBudget(MAX_HOSTS_IN_FLIGHT_BYTES);
  private readonly usage = new HostUsageReader();
  private readonly records: HostRecords | null;
  /** Descriptors the service would pass on without meaning to; each host closes them first. */
  private readonly strayFds = inheritedFds();
  /** However the service ends, its hosts are killed on the way out (the watchdog covers a kill -9). */
  private readonly killAll = () => {
    for (const host of this.live) host.kill({ cause: 'stopped', message: 'the service stopped' });
  };

  constructor(private readonly options: HostPoolOptions) {
    // Node's permission model grants a folder's contents only if it exists when the host starts.
    const missing = options.baseRead.filter((p) => !fs.existsSync(p));
    if (missing.length > 0) throw new Error(`component hosts would be granted folders that do not exist yet: ${missing.join(', ')}; create them before starting hosts`);
    this.limits = new HostLimits({ memoryMb: options.memoryMb, diskBytes: this.diskMb * 1024 * 1024 });
    this.records = options.dataDir ? new HostRecords(options.dataDir) : null;
    const leftover = this.records?.stopLeftovers() ?? [];
    if (leftover.length > 0) console.error(`spout: stopped ${leftover.length} component host(s) an earlier run of this data dir left running (pid ${leftover.join(', ')})`);
    const restored = options.dataDir ? recoverSpareFolders(options.dataDir) : [];
    if (restored.length > 0) console.error(`spout: put back ${restored.length} source folder(s) that spare hosts held when the service last ended`);
    process.on('exit', this.killAll);
    if (options.spare !== false) setImmediate(() => this.refillSpare());
  }

  /** What all its hosts may send the service at once, and have (host-budget.ts). */
  get inFlight(): Pick<HostBudget, 'inFlight' | 'peak' | 'resetPeak'> {
    return this.budget;
  }

  /** The memory limit of one host, MB. */
  get memoryMb(): number {
    return this.options.memoryMb;
  }

  /** The limit of a source's own folders, MB. */
  get diskMb(): number {
    return this.options.diskMb ?? DEFAULT_COMPONENT_DISK_MB;
  }

  /**
   * A started host with these grants: one started ahead for them (`startAhead`), the spare when it
   * fits, else a new one. `temp` is its temp folder (temp-folder.ts: inside a folder it is granted
   * to write), its code's `os.tmpdir()`. `own`, when given, is the one folder `grants` name (a
   * source's own, `temp` inside): the spare may take it, moved into its neutral folder (`lent`).
   */
  acquire(grants: HostGrants = NO_GRANTS, temp?: string, own?: string): HostProcess {
    if (this.stopped) throw new Error('the service is stopping');
    const plain = grants.read.length === 0 && grants.write.length === 0;
    const host = this.takeAhead(grants, temp) ?? (own ? this.lendSpare(own) : plain && !temp ? this.takeSpare() : null) ?? this.start(grants, temp);
    if (this.options.spare !== false) setImmediate(() => this.refillSpare());
    return host;
  }

  /**
   * Starts the host that a coming `acquire` with these grants and temp folder will get, so that it
   * boots while the caller prepares the load (a test bundling its component); `dropAhead` kills it
   * if that load does not come.
   */
  startAhead(grants: HostGrants, temp?: string): HostProcess {
    const key = aheadKey(grants, temp);
    const host = this.start(grants, temp);
    this.ahead.set(key, [...(this.ahead.get(key) ?? []), host]);
    return host;
  }

  /** Kills a host started ahead that no `acquire` took. */
  dropAhead(host: HostProcess): void {
    for (const [key, waiting] of this.ahead) {
      if (!waiting.includes(host)) continue;
      const left = waiting.filter((h) => h !== host);
      if (left.length) this.ahead.set(key, left);
      else this.ahead.delete(key);
      host.kill({ cause: 'stopped', message: 'not needed' });
    }
  }

  /** Whether a spare host has this folder now (it is not where it lives). */
  isLent(folder: string): boolean {
    return this.lentFolders.has(folder);
  }

  /** Kills every host, the spare included. */
  stop(): void {
    this.stopped = true;
    this.spare?.kill({ cause: 'stopped', message: 'the service stopped' });
    this.spare = null;
    this.killAll();
    process.off('exit', this.killAll);
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    this.usage.close();
  }

  /** The spare, if one is ready; it is never given back (one spare serves one source, once). */
  private takeSpare(): HostProcess | null {
    const host = this.spare && !this.spare.exited ? this.spare : null;
    this.spare = null;
    this.spareFolder = null;
    return host;
  }

  /**
   * The spare with `own` (a source's own folder, its only grant) moved into its neutral folder;
   * null when no spare with one is ready or the move failed (the caller starts a host of its own).
   */
  private lendSpare(own: string): HostProcess | null {
    const folder = this.spareFolder;
    if (!folder) return null;
    const host = this.takeSpare();
    if (!host) return null;
    try {
      makePrivateDir(own);
      moveIn(folder, own);
    } catch (err) {
      console.error(`spout: could not move ${own} to a spare host (${(err as Error).message}); starting a host of its own`);
      host.kill({ cause: 'stopped', message: 'not needed' });
      return null;
    }
    host.lent = { from: own, to: folder.own };
    this.lentFolders.add(own);
    host.giveBackWith(() => {
      moveBack(folder);
      this.lentFolders.delete(own);
    });
    return host;
  }

  /** A live host started ahead for exactly these grants and temp folder, taken from the waiting ones. */
  private takeAhead(grants: HostGrants, temp?: string): HostProcess | null {
    const key = aheadKey(grants, temp);
    const hosts = (this.ahead.get(key) ?? []).filter((h) => !h.exited);
    const host = hosts.shift() ?? null;
    if (hosts.length) this.ahead.set(key, hosts);
    else this.ahead.delete(key);
    return host;
  }

  private refillSpare(): void {
    if (this.stopped || (this.spare && !this.spare.exited)) return;
    // Windows refuses to rename a folder a process has files open in: its spares serve plain loads only.
    const folder = this.options.dataDir && process.platform !== 'win32' ? makeSpareFolder(this.options.dataDir) : null;
    this.spareFolder = folder;
    this.spare = folder ? this.start({ read: [folder.folder], write: [folder.folder] }, folder.temp) : this.start(NO_GRANTS);
    // Whatever it served, its neutral folder goes (and a source's folder in it back) as it ends.
    if (folder) this.spare.giveBackWith(() => moveBack(folder));
  }

  private start(grants: HostGrants, temp?: string): HostProcess {
    const heapMb = this.options.memoryMb;
    const own = this.ownFolders(grants);
    // Granted only if there when the host starts: a source's folder that a spare host held and has not given back yet (an update's new host) is made again.
    for (const folder of own) makePrivateDir(folder);
    const scriptArgs = [...(this.records ? [this.records.marker] : []), ...(this.strayFds.length ? [`--close-fds=${this.strayFds.join(',')}`] : [])];
    const node = hostArgs({ script: this.options.script, baseRead: this.options.baseRead, grants, heapMb, scriptArgs });
    const launch = hostLauncher(this.options.execPath ?? process.execPath, node, this.diskMb * 1024 * 1024);
    const child = spawn(launch.file, launch.args, {
      // fd 3: the message channel; fd 4: the watchdog pipe, which the service never writes and only its end closes.
      stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
      env: hostEnv(process.env, temp),
      cwd: os.tmpdir(),
      // Its own process group: a Ctrl-C meant for the service does not reach hosts, which end when the service closes their pipes.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const host = new HostProcess(child, heapMb, own, temp ?? null, this.budget);
    if (this.options.unref) {
      child.unref();
      for (const stream of child.stdio) (stream as { unref?: () => void } | null)?.unref?.();
    }
    this.live.add(host);
    if (child.pid) this.records?.add(child.pid);
    child.once('exit', () => {
      this.live.delete(host);
      if (child.pid) {
        this.records?.remove(child.pid);
        this.usage.forget(child.pid);
      }
    });
    this.watch();
    return host;
  }

  /** Write grants inside the data dir: the folders the service gives a source (its temp folder inside), under its disk limit. */
  private ownFolders(grants: HostGrants): string[] {
    const dataDir = this.options.dataDir;
    return dataDir ? grants.write.filter((folder) => folder.startsWith(path.resolve(dataDir) + path.sep)) : [];
  }

  /** Reads every host's usage on a timer while any runs. */
  private watch(): void {
    if (this.poller || this.stopped) return;
    const every = this.options.pollMs ?? (process.platform === 'linux' ? 25 : 1000);
    this.poller = setInterval(() => void this.poll(), every);
    this.poller.unref();
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    if (this.live.size === 0) {
      if (this.poller) clearInterval(this.poller);
      this.poller = null;
      return;
    }
    this.polling = true;
    try {
      const hosts = [...this.live].filter((h) => !h.exited && h.pid > 0);
      const usage = await this.usage.read(hosts.map((h) => h.pid));
      for (const host of hosts) {
        const used = usage[String(host.pid)];
        if (used && !host.exited) this.limits.observe(host, used);
      }
    } finally {
      this.polling = false;
    }
  }
}

/** What makes two hosts interchangeable: the same grants and temp folder. */
function aheadKey(grants: HostGrants, temp?: string): string {
  return JSON.stringify([grants.read, grants.write, temp ?? null]);
}
