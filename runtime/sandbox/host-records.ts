// The pids of a data dir's component hosts, kept in `DATA_DIR/hosts.json` while they run, so that
// a start can stop hosts an earlier run of the same data dir left behind (its service killed, its
// hosts' own watchdog beaten). A pid is signalled only once its command line shows it is a host
// of this data dir: a pid the system gave to another process since is left alone.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writePrivateFileSync } from '../lib/private-files';

/** The argument that marks a host of one data dir on its command line. */
export function hostMarker(dataDir: string): string {
  return `--spout-host=${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)}`;
}

/** The file of a data dir that lists its running hosts. */
export function hostsFile(dataDir: string): string {
  return path.join(dataDir, 'hosts.json');
}

/** Keeps the list of a data dir's running hosts. */
export class HostRecords {
  private readonly pids = new Set<number>();
  readonly marker: string;
  private readonly file: string;

  constructor(dataDir: string) {
    this.marker = hostMarker(dataDir);
    this.file = hostsFile(dataDir);
  }

  /** Stops the hosts an earlier run of this data dir left running; returns their pids. */
  stopLeftovers(): number[] {
    const stopped: number[] = [];
    for (const pid of readPids(this.file)) {
      if (pid === process.pid || !isHostOf(pid, this.marker)) continue;
      try {
        process.kill(pid, 'SIGKILL');
        stopped.push(pid);
      } catch {
        // gone meanwhile
      }
    }
    this.save();
    return stopped;
  }

  add(pid: number): void {
    this.pids.add(pid);
    this.save();
  }

  remove(pid: number): void {
    if (this.pids.delete(pid)) this.save();
  }

  private save(): void {
    try {
      writePrivateFileSync(this.file, `${JSON.stringify({ pids: [...this.pids] })}\n`);
    } catch (err) {
      console.error(`spout: could not record host pids in ${this.file} (${(err as Error).message}); hosts left behind by a crash will not be stopped at the next start`);
    }
  }
}

/** The pids a hosts file lists (none when it is missing or damaged: it only helps clean up). */
export function readPids(file: string): number[] {
  try {
    const { pids } = JSON.parse(fs.readFileSync(file, 'utf8')) as { pids?: unknown };
    return Array.isArray(pids) ? pids.filter((p): p is number => Number.isInteger(p) && p > 0) : [];
  } catch {
    return [];
  }
}

/** Whether `pid` is a running (not dead, not a zombie) host carrying `marker` on its command line. */
export function isHostOf(pid: number, marker: string): boolean {
  const command = commandLine(pid);
  return command?.includes(marker) === true;
}

/** A live process's command line; null when there is none (or it is a zombie, or it cannot be read). */
export function commandLine(pid: number): string | null {
  if (process.platform === 'linux') {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The state follows the command name in parentheses; Z is a zombie (already dead).
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return null;
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      return null;
    }
  }
  if (process.platform === 'win32') return null;
  try {
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}
