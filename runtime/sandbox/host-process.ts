// One component host process seen from the service: talked to through JSON frames on a pipe,
// watched (host-limits.ts) and explained when it ends. One host runs one component (a source, a
// configuration session, or a module being described); host-pool.ts starts them.
import type { ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type { HostMessage, HostReply } from '../contract/host-protocol';
import { MAX_HOST_MESSAGE_BYTES } from '../contract/limits';
import { FrameChannel } from './frames';
import { EVENT_BYTES, type HostBudget } from './host-budget';
import type { WatchedHost } from './host-limits';
import { parseHostReply } from './host-replies';

/** Why a host ended. */
export type HostExitCause =
  /** It exited, was killed by a signal, aborted, or died of an uncaught exception. */
  | 'crashed'
  /** Its resident memory went over the limit and the service stopped it. */
  | 'memory'
  /** It went over another limit (CPU time outside runs, open files, its folders' size) and the service stopped it. */
  | 'limit'
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

/** Output a host writes straight to stdout/stderr is logged in lines of at most this many characters. */
const MAX_OUTPUT_LINE = 10_000;
/** What is kept of stderr to explain an exit (Node prints fatal errors there). */
const STDERR_TAIL = 4096;

export interface HostCallbacks {
  /** Receives each message; what it sent counts against the hosts' budget until a promise returned settles (else until it returns). */
  onReply: (reply: HostReply) => Promise<unknown> | void;
  /** Text the host wrote to stdout or stderr itself (not through console). */
  onOutput: (stream: 'stdout' | 'stderr', line: string) => void;
  onExit: (exit: HostExit) => void;
}

/** One running component host. */
export class HostProcess implements WatchedHost {
  private callbacks: HostCallbacks | null = null;
  /** Invocations sent and not done. */
  private running = 0;
  /** See WatchedHost. */
  strayCpuLimitMs = 60_000;
  /** Replies that arrived before anyone listened (a spare's), delivered on `attach`. */
  private early: HostReply[] = [];
  private stopReason: HostExit | null = null;
  private fatal: string | null = null;
  private stderrTail = '';
  private ended: HostExit | null = null;
  private readonly channel: FrameChannel;
  /** Bytes of the budget taken for the message being read. */
  private reading = 0;
  /** Set while its next message waits for room in the budget. */
  private waiter: (() => void) | null = null;
  readonly pid: number;
  /** A source's own folder while this host (a spare that took it) has it: `from` is where it lives, `to` where it is now. */
  lent: { from: string; to: string } | null = null;
  /** Runs once as the host is killed or ends: puts back what it was lent (spare-folders.ts). */
  private onGiveBack: (() => void) | null = null;

  constructor(
    private readonly child: ChildProcess,
    private readonly heapMb: number,
    /** Its folders under the data dir (its source's own), whose size is limited. */
    readonly ownFolders: readonly string[] = [],
    /** Its temp folder (`/tmp` to its code), inside one of them. */
    readonly tempFolder: string | null = null,
    /** What all hosts may have in flight to the service; absent, its messages are not counted. */
    private readonly budget: HostBudget | null = null,
  ) {
    this.pid = child.pid ?? -1;
    this.channel = new FrameChannel(child.stdio[3] as Duplex, {
      maxFrameBytes: MAX_HOST_MESSAGE_BYTES,
      admit: (bytes, letIn) => this.admit(bytes, letIn),
      onMessage: (raw, bytes) => {
        this.reading = 0;
        const reply = parseHostReply(raw);
        if (!reply) {
          this.budget?.give(bytes);
          return this.kill({ cause: 'protocol', message: 'the component host sent a message that is not one a host may send, and was stopped' });
        }
        const events = reply.type === 'done' || reply.type === 'emits' || reply.type === 'run-emits' ? reply.emits.length * EVENT_BYTES : 0;
        this.budget?.charge(events);
        // biome-ignore lint/complexity/noUselessUndefinedInitialization: the finally reads it when receive throws; TypeScript wants it assigned.
        let held: Promise<unknown> | void = undefined;
        try {
          held = this.receive(reply);
        } finally {
          this.release(bytes + events, held);
        }
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

  /** True while an invocation sent to it has not finished. */
  get busy(): boolean {
    return this.running > 0;
  }

  /** True while its next message waits for room in the hosts' budget (what it writes meanwhile stays in its own memory). */
  get waiting(): boolean {
    return this.waiter !== null;
  }

  /** Sets what puts its folders back once it is killed or ends (before anyone hears that it ended, so a new host may take them). */
  giveBackWith(giveBack: () => void): void {
    this.onGiveBack = giveBack;
    if (this.ended) this.giveBack();
  }

  /** Stops the host for going over a limit (host-limits.ts). */
  stopForLimit(message: string, cause: 'memory' | 'limit' = 'limit'): void {
    this.kill({ cause, message });
  }

  /** Starts delivering replies and events to `callbacks` (a spare has none until taken). */
  attach(callbacks: HostCallbacks): void {
    this.callbacks = callbacks;
    for (const reply of this.early.splice(0)) void callbacks.onReply(reply);
    if (this.ended) callbacks.onExit(this.ended);
  }

  /** Hands a message on; a spare's wait for `attach` (they are not counted: it has run no code yet). */
  private receive(reply: HostReply): Promise<unknown> | void {
    if (reply.type === 'fatal') this.fatal = reply.error.stack ?? `${reply.error.name}: ${reply.error.message}`;
    if (reply.type === 'done' && this.running > 0) this.running--;
    if (this.callbacks) return this.callbacks.onReply(reply);
    this.early.push(reply);
  }

  /** Takes room for a message of `bytes` in the budget, now or (calling `letIn`) once there is some. */
  private admit(bytes: number, letIn: () => void): boolean {
    if (!this.budget || this.ended) return true;
    const waiter = () => {
      this.waiter = null;
      this.reading = bytes;
      letIn();
    };
    if (this.budget.take(bytes, waiter)) {
      this.reading = bytes;
      return true;
    }
    this.waiter = waiter;
    return false;
  }

  /** Gives a message's room back once what handles it is done. */
  private release(bytes: number, held: Promise<unknown> | void): void {
    const budget = this.budget;
    if (!budget) return;
    if (!held) return budget.give(bytes);
    const give = () => budget.give(bytes);
    held.then(give, give);
  }

  send(message: HostMessage): void {
    if (message.type !== 'invoke') return this.channel.send(message);
    this.running++;
    const { invocationId, target, db } = message;
    if (target.kind !== 'run') return this.channel.send(message);
    // The event's JSON goes into the frame as it is (WireHostMessage): not escaped into a string, nor parsed twice.
    const dbPart = db === undefined ? '' : `,"db":${JSON.stringify(db)}`;
    this.channel.sendJson(`{"type":"invoke","invocationId":${JSON.stringify(invocationId)},"target":{"kind":"run","event":${target.eventJson}}${dbPart}}`);
  }

  /** Stops the host at once (SIGKILL); `reason` is what its exit reports. */
  kill(reason: HostExit): void {
    if (this.ended) return;
    this.stopReason ??= reason;
    this.child.kill('SIGKILL');
    // A SIGKILL cannot be caught: what it may still do before it dies, it could do before.
    this.giveBack();
  }

  private giveBack(): void {
    const giveBack = this.onGiveBack;
    this.onGiveBack = null;
    giveBack?.();
  }

  private end(exit: HostExit): void {
    if (this.ended) return;
    this.ended = exit;
    this.giveBack();
    // What it was sending will never arrive.
    if (this.waiter) this.budget?.cancel(this.waiter);
    this.waiter = null;
    this.budget?.give(this.reading);
    this.reading = 0;
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
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('(Use `node --trace'));
  return (lines.at(-1) ?? '').slice(0, 300);
}
