// What a component host may use beyond a run, watched from the service: resident memory, CPU time
// spent while no run is under way (code left running by a timer or a promise), open files and
// sockets, the bytes in its own folders, and its priority (never above the service's). A host over one is stopped with a message naming the
// limit; the source's log shows it, and the next invocation starts a new host.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_HOST_FDS, MAX_HOSTS_IN_FLIGHT_BYTES, STRAY_CPU_SHARE } from '../contract/limits';
import { emptyTempFolder } from './temp-folder';

/** What the watch needs of a host. */
export interface WatchedHost {
  readonly pid: number;
  readonly exited: boolean;
  /** True while an invocation sent to it has not finished. */
  readonly busy: boolean;
  /** True while its next message waits for room in the hosts' budget (host-budget.ts). */
  readonly waiting: boolean;
  /** CPU time code outside a run may use in a burst, ms (the source's run timeout). */
  readonly strayCpuLimitMs: number;
  /** Folders of its own under the data dir, whose bytes count against the disk limit. */
  readonly ownFolders: readonly string[];
  /** Its temp folder (inside one of them), emptied when they go over the disk limit. */
  readonly tempFolder: string | null;
  /** A source's own folder a spare host holds (spare-folders.ts): messages name it where it lives (`from`). */
  readonly lent?: { from: string; to: string } | null;
  stopForLimit(message: string, cause?: 'memory' | 'limit'): void;
}

/** One reading of a host's usage (host-usage.ts). */
export interface Usage {
  /** Resident memory, bytes. */
  memory: number;
  /** CPU time used since it started, ms. */
  ctime: number;
  /** Its nice value, where it is read (Linux). */
  nice?: number;
}

export interface HostLimitsOptions {
  /** Resident memory limit, MB (`--component-memory`). */
  memoryMb: number;
  /** Bytes a host's own folders may hold (`--component-disk`). */
  diskBytes: number;
  now?: () => number;
  /** The service's nice value, which no host may go below; default: read from the system. */
  serviceNice?: () => number;
}

interface Watch {
  lastCtime: number | null;
  lastAt: number;
  /** CPU ms spent outside runs, less what the allowed share paid back since. */
  strayCpu: number;
  nextFdCheck: number;
  nextFolderCheck: number;
  checking: boolean;
}

/** Folder sizes are read at most this often; a folder of more files than FOLDER_ENTRIES counts as over its limit. */
const FOLDER_EVERY_MS = 2000;
const FOLDER_ENTRIES = 100_000;
/** Open descriptors are counted this often (Linux: /proc/<pid>/fd). */
const FDS_EVERY_MS = 1000;
/** A host this close to its descriptor limit is at it: Node keeps a few for itself. */
const FD_MARGIN = 8;

/** Applies the limits to each host as its usage is read. */
export class HostLimits {
  private readonly watches = new WeakMap<WatchedHost, Watch>();
  private readonly now: () => number;

  constructor(private readonly options: HostLimitsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Checks one reading of a host's usage; reads its descriptors and folders when their turn comes. */
  observe(host: WatchedHost, usage: Usage): void {
    const limit = this.options.memoryMb * 1024 * 1024;
    if (usage.memory > limit) {
      // A host that sends faster than the service takes in keeps what waits in its own memory: this is where it is stopped.
      const waited = host.waiting ? `; it was sending more than the service takes in from all hosts at once (${MAX_HOSTS_IN_FLIGHT_BYTES / 1048576} MB), and what waited stayed in its memory` : '';
      return host.stopForLimit(`its component host used ${Math.round(usage.memory / 1048576)} MB of memory, over the limit of ${this.options.memoryMb} MB, and was stopped (the limit is set with --component-memory)${waited}`, 'memory');
    }
    const serviceNice = (this.options.serviceNice ?? os.getPriority)();
    if (usage.nice !== undefined && usage.nice < serviceNice) {
      // The host's own wall refuses this (child/host-guards.ts); this catches a way around it.
      return host.stopForLimit(`its component host raised its priority to nice ${usage.nice}, above the service's (nice ${serviceNice}), and was stopped: hosts may not run ahead of the service`);
    }
    const now = this.now();
    const watch = this.watchOf(host, now);
    if (watch.lastCtime !== null) {
      const spent = usage.ctime - watch.lastCtime;
      const allowed = (now - watch.lastAt) * STRAY_CPU_SHARE;
      watch.strayCpu = Math.max(0, watch.strayCpu + (host.busy ? 0 : spent) - allowed);
      if (watch.strayCpu > host.strayCpuLimitMs) {
        const seconds = Math.round(host.strayCpuLimitMs / 1000);
        return host.stopForLimit(`code left running after its run returned (a loop in a timer or a promise?) kept the CPU busy: more than ${seconds} s of CPU time (the source's run timeout) beyond the ${STRAY_CPU_SHARE * 100}% it may use between runs; its host was stopped`);
      }
    }
    watch.lastCtime = usage.ctime;
    watch.lastAt = now;
    if (watch.checking) return;
    if (process.platform === 'linux' && now >= watch.nextFdCheck) {
      watch.nextFdCheck = now + FDS_EVERY_MS;
      watch.checking = true;
      void this.checkFds(host).finally(() => (watch.checking = false));
    } else if (host.ownFolders.length > 0 && now >= watch.nextFolderCheck) {
      watch.nextFolderCheck = now + FOLDER_EVERY_MS;
      watch.checking = true;
      void this.checkFolders(host).finally(() => (watch.checking = false));
    }
  }

  private watchOf(host: WatchedHost, now: number): Watch {
    let watch = this.watches.get(host);
    if (!watch) this.watches.set(host, (watch = { lastCtime: null, lastAt: now, strayCpu: 0, nextFdCheck: now, nextFolderCheck: now, checking: false }));
    return watch;
  }

  private async checkFds(host: WatchedHost): Promise<void> {
    let open: number;
    try {
      open = (await fs.promises.readdir(`/proc/${host.pid}/fd`)).length;
    } catch {
      return; // gone
    }
    if (open >= MAX_HOST_FDS - FD_MARGIN && !host.exited) {
      host.stopForLimit(`its component host held ${open} open files and sockets, the limit of ${MAX_HOST_FDS} a host may hold (docs/security.md), and was stopped`);
    }
  }

  private async checkFolders(host: WatchedHost): Promise<void> {
    let bytes = 0;
    let entries = 0;
    for (const folder of host.ownFolders) {
      const used = await folderUsage(folder, FOLDER_ENTRIES - entries);
      bytes += used.bytes;
      entries += used.entries;
    }
    if (host.exited) return;
    const limit = this.options.diskBytes;
    const where = host.lent ? host.lent.from : host.ownFolders.join(', ');
    if (entries >= FOLDER_ENTRIES) {
      host.stopForLimit(`its own folders (${where}) hold more than ${FOLDER_ENTRIES} files; its host was stopped. Delete files there to go on`);
    } else if (bytes > limit) {
      // Temp files are the host's to lose (Pipedream's /tmp goes with its worker): emptied before the next host starts.
      if (host.tempFolder) await emptyTempFolder(host.tempFolder);
      const emptied = host.tempFolder ? ' and its temp folder (/tmp to its code) emptied' : '';
      host.stopForLimit(`its own folders (${where}, its temp folder included) hold ${Math.round(bytes / 1048576)} MB, over the limit of ${Math.round(limit / 1048576)} MB (--component-disk); its host was stopped${emptied}. If it is still over, delete files there to go on`);
    }
  }
}

/** Bytes on disk under a folder and how many entries it has, reading at most `maxEntries`. */
export async function folderUsage(folder: string, maxEntries = FOLDER_ENTRIES): Promise<{ bytes: number; entries: number }> {
  let bytes = 0;
  let entries = 0;
  const pending = [folder];
  while (pending.length > 0 && entries < maxEntries) {
    const dir = pending.pop() as string;
    let names: fs.Dirent[];
    try {
      names = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of names) {
      entries++;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else {
        try {
          const stat = await fs.promises.lstat(full);
          // Blocks on disk where known: a sparse file takes what it takes, not its length.
          bytes += typeof stat.blocks === 'number' && process.platform !== 'win32' ? stat.blocks * 512 : stat.size;
        } catch {
          // removed meanwhile
        }
      }
    }
  }
  return { bytes, entries };
}
