// Component host processes: started under Node's permission model with an empty environment,
// talked to through JSON frames on a pipe, watched for memory (RSS, Buffers included), and
// explained when they end. One host runs one component (a source, a configuration session, or a
// module being described); one spare host is kept started so a deploy does not wait for Node to
// boot.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import pidusage from 'pidusage';
import { FrameChannel } from './frames';
import { parseHostReply } from './host-replies';
import { hostArgs, hostEnv, NO_GRANTS } from './host-grants';
import { type HostGrants } from '../contract/host-protocol';
import type { HostMessage, HostReply } from '../contract/host-protocol';

/** Why a host ended. */
export type HostExitCause =
  /** It exited, was killed by a signal, aborted, or died of an uncaught exception. */
  | 'crashed'
  /** Its resident memory went over the limit and the service stopped it. */
  | 'memory'
  /** The run it was in took longer than its timeout and the service stopped it. */
  | 'timeout'
  /** It sent something that is not a message a host may send. */
  | 'protocol'
  /** The service closed it. */
  | 'stopped';

export interface HostExit {
  cause: HostExitCause;
  /** What happened, for the source's log (without the source's name). */
  message: string;
}

/** Largest message a host may send: a run's emits travel in one (200 000 small events fit). */
const MAX_REPLY_BYTES = 256 * 1024 * 1024;
/** Output a host writes straight to stdout/stderr is logged in lines of at most this many characters. */
const MAX_OUTPUT_LINE = 10_000;
/** What is kept of stderr to explain an exit (Node prints fatal errors there). */
const STDERR_TAIL = 4096;

export interface HostCallbacks {
  onReply: (reply: HostReply) => void;
  /** Text the host wrote to stdout or stderr itself (not through console). */
  onOutput: (stream: 'stdout' | 'stderr', line: string) => void;
  onExit: (exit: HostExit) => void;
}

/** One running component host. */
export class HostProcess {
  private callbacks: HostCallbacks | null = null;
  /** Replies that arrived before anyone listened (a spare's), delivered on `attach`. */
  private early: HostReply[] = [];
  private stopReason: HostExit | null = null;
  private fatal: string | null = null;
  private stderrTail = '';
  private ended: HostExit | null = null;
  private readonly channel: FrameChannel;
  readonly pid: number;

  constructor(
    private readonly child: ChildProcess,
    private readonly heapMb: number,
  ) {
    this.pid = child.pid ?? -1;
    this.channel = new FrameChannel(child.stdio[3] as Duplex, {
      maxFrameBytes: MAX_REPLY_BYTES,
      onMessage: (raw) => {
        const reply = parseHostReply(raw);
        if (!reply) return this.kill({ cause: 'protocol', message: 'the component host sent a message that is not one a host may send, and was stopped' });
        if (reply.type === 'fatal') this.fatal = reply.error.stack ?? `${reply.error.name}: ${reply.error.message}`;
        if (this.callbacks) this.callbacks.onReply(reply);
        else this.early.push(reply);
      },
      onError: (err) => this.kill({ cause: 'protocol', message: `the component host broke its channel (${err.message}) and was stopped` }),
    });
    (child.stdio[3] as Duplex).on('error', () => undefined);
    for (const name of ['stdout', 'stderr'] as const) {
      const stream = child[name];
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => {
        if (name === 'stderr') this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
        for (const line of text.split('\n')) if (line.trim() !== '') this.callbacks?.onOutput(name, line.slice(0, MAX_OUTPUT_LINE));
      });
    }
    child.on('error', (err) => this.end({ cause: 'crashed', message: `the component host could not start: ${err.message}` }));
    child.on('exit', (code, signal) => this.end(this.stopReason ?? this.explain(code, signal)));
  }

  /** True once the process has ended. */
  get exited(): boolean {
    return this.ended !== null;
  }

  /** Starts delivering replies and events to `callbacks` (a spare has none until taken). */
  attach(callbacks: HostCallbacks): void {
    this.callbacks = callbacks;
    for (const reply of this.early.splice(0)) callbacks.onReply(reply);
    if (this.ended) callbacks.onExit(this.ended);
  }

  send(message: HostMessage): void {
    this.channel.send(message);
  }

  /** Stops the host at once (SIGKILL); `reason` is what its exit reports. */
  kill(reason: HostExit): void {
    if (this.ended) return;
    this.stopReason ??= reason;
    this.child.kill('SIGKILL');
  }

  private end(exit: HostExit): void {
    if (this.ended) return;
    this.ended = exit;
    this.callbacks?.onExit(exit);
  }

  /** Says why a host ended that the service did not stop. */
  private explain(code: number | null, signal: NodeJS.Signals | null): HostExit {
    if (this.fatal) return { cause: 'crashed', message: `the component crashed: ${this.fatal}` };
    if (/heap out of memory|Reached heap limit/i.test(this.stderrTail)) {
      return { cause: 'memory', message: `the component ran out of memory: its JavaScript heap reached the limit of ${this.heapMb} MB` };
    }
    const last = lastLine(this.stderrTail);
    const detail = last ? ` (${last})` : '';
    if (signal === 'SIGABRT' || code === 134) return { cause: 'crashed', message: `the component host aborted${detail || ' (process.abort()?)'}` };
    if (signal) return { cause: 'crashed', message: `the component host was killed by ${signal}${detail}` };
    return { cause: 'crashed', message: `the component host exited with code ${code}${detail || ' (process.exit?)'}` };
  }
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('(Use `node --trace'));
  return (lines.at(-1) ?? '').slice(0, 300);
}

export interface HostPoolOptions {
  /** The host entry script (dist/host.cjs). */
  script: string;
  /** Read-only folders every host may read: the package cache, Spout's own code. */
  baseRead: string[];
  /** Resident memory limit of one host, MB (`--component-memory`). */
  memoryMb: number;
  /** Node to run hosts with; default this process's (Electron's, run as Node). */
  execPath?: string;
  /** How often hosts' memory is read, ms. Default: 25 on Linux (/proc), 1000 elsewhere (ps, wmic). */
  pollMs?: number;
  /** Keep one started host ready for the next load. Default true. */
  spare?: boolean;
}

/** Starts hosts, keeps a spare one ready, and stops any host whose resident memory passes the limit. */
export class HostPool {
  private spare: HostProcess | null = null;
  private readonly live = new Set<HostProcess>();
  private poller: NodeJS.Timeout | null = null;
  private polling = false;
  private stopped = false;

  constructor(private readonly options: HostPoolOptions) {
    // Node's permission model grants a folder's contents only if it exists when the host starts.
    const missing = options.baseRead.filter((p) => !fs.existsSync(p));
    if (missing.length > 0) throw new Error(`component hosts would be granted folders that do not exist yet: ${missing.join(', ')}; create them before starting hosts`);
  }

  /** The memory limit of one host, MB. */
  get memoryMb(): number {
    return this.options.memoryMb;
  }

  /** A started host with these grants: the spare when it fits, else a new one. */
  acquire(grants: HostGrants = NO_GRANTS): HostProcess {
    if (this.stopped) throw new Error('the service is stopping');
    const plain = grants.read.length === 0 && grants.write.length === 0;
    let host: HostProcess;
    if (plain && this.spare && !this.spare.exited) {
      host = this.spare;
      this.spare = null;
    } else host = this.start(grants);
    if (this.options.spare !== false) setImmediate(() => this.refillSpare());
    return host;
  }

  /** Kills every host, the spare included. */
  stop(): void {
    this.stopped = true;
    this.spare?.kill({ cause: 'stopped', message: 'the service stopped' });
    this.spare = null;
    for (const host of this.live) host.kill({ cause: 'stopped', message: 'the service stopped' });
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }

  private refillSpare(): void {
    if (this.stopped || (this.spare && !this.spare.exited)) return;
    this.spare = this.start(NO_GRANTS);
  }

  private start(grants: HostGrants): HostProcess {
    const heapMb = this.options.memoryMb;
    const child = spawn(this.options.execPath ?? process.execPath, hostArgs({ script: this.options.script, baseRead: this.options.baseRead, grants, heapMb }), {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: hostEnv(),
      cwd: os.tmpdir(),
      // Its own process group: a Ctrl-C meant for the service does not reach hosts, which end when the service closes their pipe.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const host = new HostProcess(child, heapMb);
    this.live.add(host);
    child.once('exit', () => {
      this.live.delete(host);
      // pidusage keeps each pid's /proc file open between reads.
      pidusage.clear();
    });
    this.watch();
    return host;
  }

  /** Reads every host's resident memory on a timer while any runs. */
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
      const usage: Record<string, { memory: number } | undefined> = await pidusage(hosts.map((h) => h.pid)).catch(() => ({}));
      const limit = this.options.memoryMb * 1024 * 1024;
      for (const host of hosts) {
        const rss = usage[String(host.pid)]?.memory;
        if (rss !== undefined && rss > limit) {
          host.kill({ cause: 'memory', message: `its component host used ${Math.round(rss / 1048576)} MB of memory, over the limit of ${this.options.memoryMb} MB, and was stopped (the limit is set with --component-memory)` });
        }
      }
    } finally {
      this.polling = false;
    }
  }
}
