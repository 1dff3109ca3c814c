// Reading component hosts' resident memory and CPU time. On Linux straight from /proc, through
// files kept open per host and read again in place (a few µs each): pidusage reads them through
// the thread pool in several steps (and /proc/uptime on every reading), which at 40 readings a
// second took about 5% of the service's main thread under ingest load (bench/profile.ts), and
// opening the files each time costs ten times more than reading them. Elsewhere pidusage, which
// knows each platform's way (ps, wmic).
import fs from 'node:fs';
import pidusage from 'pidusage';
import type { Usage } from './host-limits';

/** USER_HZ, the unit of the CPU times in /proc/<pid>/stat: 100 on every architecture Node supports on Linux. */
const TICKS_PER_SECOND = 100;

interface ProcFiles {
  stat: number;
  statm: number;
}

/** Reads hosts' usage, keeping what it needs of each host open until `forget`. */
export class HostUsageReader {
  private readonly files = new Map<number, ProcFiles>();
  private readonly buffer = Buffer.alloc(1024);
  private pageBytes = 0;

  /** Each host's usage by pid; a host that has ended is absent. */
  async read(pids: readonly number[]): Promise<Record<string, Usage | undefined>> {
    if (process.platform !== 'linux') return pidusage([...pids]).catch(() => ({}));
    const out: Record<string, Usage> = {};
    for (const pid of pids) {
      const usage = this.procUsage(pid);
      if (usage) out[pid] = usage;
    }
    return out;
  }

  /** Closes what is kept of an ended host. */
  forget(pid: number): void {
    if (process.platform !== 'linux') return pidusage.clear();
    const files = this.files.get(pid);
    if (!files) return;
    this.files.delete(pid);
    for (const fd of [files.stat, files.statm]) if (fd >= 0) fs.closeSync(fd);
  }

  /** Closes everything kept. */
  close(): void {
    for (const pid of [...this.files.keys()]) this.forget(pid);
  }

  private procUsage(pid: number): Usage | null {
    try {
      let files = this.files.get(pid);
      if (!files) {
        const stat = fs.openSync(`/proc/${pid}/stat`, 'r');
        this.files.set(pid, (files = { stat, statm: -1 }));
        files.statm = fs.openSync(`/proc/${pid}/statm`, 'r');
      }
      const stat = this.readAt(files.stat);
      // The command name (in parentheses) may hold spaces: fields are counted after its closing one.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, fields 14 and 15 of the line (11 and 12 after the name and state); nice, field 19.
      const ticks = Number(fields[11]) + Number(fields[12]);
      const nice = Number(fields[16]);
      // statm: size, then resident, in pages.
      const residentPages = Number(this.readAt(files.statm).split(' ')[1]);
      if (!Number.isFinite(ticks) || !Number.isFinite(residentPages)) return null;
      return { memory: residentPages * this.pageSize(), ctime: (ticks * 1000) / TICKS_PER_SECOND, ...(Number.isFinite(nice) ? { nice } : {}) };
    } catch {
      this.forget(pid);
      return null; // it ended
    }
  }

  private readAt(fd: number): string {
    const n = fs.readSync(fd, this.buffer, 0, this.buffer.length, 0);
    return this.buffer.toString('latin1', 0, n);
  }

  /**
   * Bytes of a memory page (statm counts pages). Node's own resident size is its page count times
   * the page size, so this process's count in /proc/self/statm gives the size without running
   * `getconf PAGESIZE`; the two readings differ by a few pages at most, far less than a factor of 2.
   */
  private pageSize(): number {
    if (this.pageBytes === 0) {
      const pages = Number(fs.readFileSync('/proc/self/statm', 'latin1').split(' ')[1]);
      this.pageBytes = 2 ** Math.round(Math.log2(process.memoryUsage.rss() / pages));
    }
    return this.pageBytes;
  }
}
