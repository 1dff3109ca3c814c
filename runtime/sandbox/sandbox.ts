import type { ComponentDescription } from '../contract/component-shape';
import type { EmitPayload, HostCall, HostReply, HttpResponsePayload, InvocationTarget, LogLevel, SandboxContext, SerializedError } from '../contract/host-protocol';
import type { OutgoingCall } from '../contract/network-api';
import type { HostState } from '../contract/source-api';
import { QueueFullError } from '../lib/error-kinds';
import { newId } from '../lib/ids';
import { settleWithin } from '../lib/settle-within';
import { type EmitsHandler, resultEmits, takeRunEmits } from './emit-intake';
import { sendHostCallAnswer } from './host-call-answers';
import { NO_GRANTS } from './host-grants';
import type { HostExit, HostProcess } from './host-process';
import { responsePayload } from './host-replies';
import { RunChecks } from './run-checks';
import type { InvocationResult, PendingInvocation as Pending, SandboxOptions } from './sandbox-options';
import { loadTemp } from './temp-folder';

/** Longest wait before restarting a host that keeps ending. */
const MAX_RESTART_DELAY_MS = 5000;

/**
 * One component's host process, seen from the service. Invocations are sent to the host as they
 * come and it runs them one at a time in arrival order, so the service's event loop is not on the
 * path between two runs. The oldest unfinished invocation is the running one and carries the
 * timeout. A host that ends (timeout, memory, a crash, `process.exit`) fails the running
 * invocation only: a new host is started, loaded and configured with the same context, and given
 * the ones still waiting.
 */
export class Sandbox {
  private host: HostProcess | null = null;
  private starting: Promise<ComponentDescription> | null = null;
  private context: SandboxContext | null = null;
  /** Unfinished invocations in arrival order; the first is running. */
  private readonly pending = new Map<string, Pending>();
  /** Invocations the current host has not been given, oldest first (ids; some may have finished since). */
  private unposted: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** The duration `timer` was made with. */
  private timerMs = 0;
  private timedId: string | null = null;
  private closed = false;
  private onDrained: (() => void) | null = null;
  private readonly idPrefix = newId('inv', 8);
  private seq = 0;
  /** The db version the current host's copy matches; -1: it has none. */
  private dbSeen = -1;
  /** Writes of finished invocations still going to disk; later results wait for them, keeping their order. */
  private dbWriting: Promise<void> | null = null;
  /** Hosts that ended in a row without an invocation finishing; spaces restarts. */
  private failures = 0;
  /** What runs logged and emitted, against their limits. */
  private readonly checks = new RunChecks();
  private restartTimer: NodeJS.Timeout | null = null;
  /** The last call a replay could not answer, and the invocation that made it. */
  private lastMiss: { invocationId: string; miss: string } | null = null;

  private constructor(private readonly options: SandboxOptions) {}

  /** Starts a host on the bundle and returns it with what the module declares. */
  static async load(options: SandboxOptions): Promise<{ sandbox: Sandbox; description: ComponentDescription }> {
    const sandbox = new Sandbox(options);
    const description = await sandbox.start();
    return { sandbox, description };
  }

  /** A sandbox whose host starts with its first invocation (or `wake`): a deployed source brought back by a restart. */
  static parked(options: SandboxOptions): Sandbox {
    return new Sandbox(options);
  }

  /** Whether its host runs, is starting, or is parked (it has none until work comes). */
  get hostState(): HostState {
    return this.host ? 'running' : this.starting ? 'starting' : 'parked';
  }

  /** Starts its host if it has none; resolves once the module is loaded, rejects if it could not be. */
  async wake(): Promise<void> {
    if (!this.host) await (this.starting ?? this.start());
  }

  /** Stops its host if nothing waits or runs (false otherwise); the next invocation starts a fresh one, loaded and configured as this was. */
  park(): boolean {
    if (!this.host || this.pending.size > 0) return false;
    this.stopHost('parked');
    return true;
  }

  /** Sets how messages name the component (a source's name can change). */
  setLabel(label: string): void {
    this.options.label = label;
  }

  /** Sets the timeout of invocations that start from now on (also the CPU time code left running after a run may use in a burst). */
  setRunTimeout(ms: number): void {
    this.options.timeoutMs = ms;
    if (this.host) this.host.strayCpuLimitMs = ms;
  }

  /** Sets the values `this` exposes to the component for invocations made from now on. */
  configure(context: SandboxContext): void {
    this.context = context;
    this.host?.send({ type: 'configure', context });
  }

  /** Stops restarting the host on its own after it ends (a source deactivated for crashing); invocations still start one. */
  suspend(): void {
    this.options.keepWarm = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
  }

  /** Queues an invocation; `onRespond` receives a `respond()` made during it. */
  invoke(target: InvocationTarget, onRespond?: (response: HttpResponsePayload) => void): Promise<InvocationResult> {
    return this.invokeThen(target, (result) => result, onRespond);
  }

  /**
   * Queues an invocation and hands its result to `handle` (storing what it emitted, say): what
   * the host sent for it counts against the hosts' budget until `handle` settles (host-budget.ts).
   * With `onEmits`, a run's emits past one batch go to it as they come (emit-intake.ts).
   */
  invokeThen<T>(target: InvocationTarget, handle: (result: InvocationResult) => T | Promise<T>, onRespond?: (response: HttpResponsePayload) => void, onEmits?: EmitsHandler): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the source is being removed'));
    if (this.pending.size >= this.options.maxQueue) {
      return Promise.reject(new QueueFullError(`more than ${this.options.maxQueue} invocations are waiting; try again shortly`));
    }
    const invocationId = `${this.idPrefix}${(this.seq++).toString(36)}`;
    const entry: Pending = { message: { type: 'invoke', invocationId, target }, resolve: null, onRespond, onEmits, handled: Promise.resolve() };
    const handled = new Promise<InvocationResult>((resolve) => (entry.resolve = resolve)).then(handle);
    entry.handled = handled;
    this.pending.set(invocationId, entry);
    this.unposted.push(invocationId);
    this.postPending();
    return handled;
  }

  /**
   * Ends what the host runs and what waits for it at once, each failing with `reason` (the source
   * was deleted or updated: its hooks must not wait for a run's timeout); the next invocation
   * starts a fresh host, loaded and configured as this one was.
   */
  stopRuns(reason: string): void {
    if (this.pending.size === 0) return;
    this.stopHost(reason);
    for (const id of [...this.pending.keys()]) this.finish(id, { name: 'Error', message: reason }, []);
  }

  /** Waits until the invocations queued now have finished, or `ms` has passed (an update lets runs under way end, docs/runtime.md). */
  settle(ms: number): Promise<void> {
    return settleWithin(
      [...this.pending.values()].map((p) => p.handled),
      ms,
    );
  }

  /** Refuses new invocations, waits for queued ones to finish, and stops the host. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    if (this.pending.size > 0) await new Promise<void>((resolve) => (this.onDrained = resolve));
    await this.dbWriting;
    this.stopHost('closed');
  }

  /** Ends the host at once, forgotten first so that its end is not taken for a crash. */
  private stopHost(reason: string): void {
    const host = this.host;
    this.host = null;
    this.timedId = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.options.parking?.forget(this);
    host?.kill({ cause: 'stopped', message: reason });
  }

  /** Sends invocations the current host has not been given; starts a host if there is none. */
  private postPending(): void {
    if (!this.host) {
      // Invocations that failed without a host (it could not be loaded) leave their ids behind.
      if (this.unposted.length > this.pending.size) this.unposted = this.unposted.filter((id) => this.pending.has(id));
      if (!this.starting && !this.closed) {
        this.start().catch((err: Error) => {
          for (const [id] of this.pending) this.finish(id, { name: 'Error', message: `the component could not be loaded: ${err.message}` }, []);
        });
      }
      return;
    }
    const db = this.options.db;
    const ids = this.unposted;
    this.unposted = [];
    for (const id of ids) {
      const p = this.pending.get(id);
      if (!p?.message) continue;
      if (db && db.version !== this.dbSeen) {
        this.dbSeen = db.version;
        this.host.send({ ...p.message, db: db.entries() });
      } else this.host.send(p.message);
    }
    this.armTimeout();
  }

  /** Starts a host, loads the module in it, configures it, and gives it what is waiting. */
  private start(): Promise<ComponentDescription> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const { temp, bundle, filename, clock } = this.options;
    const host = this.options.hosts.acquire(this.options.grants ?? NO_GRANTS, temp?.path, this.options.own?.());
    host.strayCpuLimitMs = this.options.timeoutMs;
    const started = new Promise<ComponentDescription>((resolve, reject) => {
      let loading = true;
      const loadTimer = setTimeout(() => host.kill({ cause: 'timeout', message: `loading the module took longer than ${Math.round(this.options.timeoutMs / 1000)} s` }), this.options.timeoutMs);
      host.attach({
        onReply: (reply) => {
          if (loading && reply.type === 'loaded') {
            loading = false;
            clearTimeout(loadTimer);
            this.host = host;
            this.dbSeen = -1;
            this.options.parking?.used(this);
            if (this.closed && this.pending.size === 0) host.kill({ cause: 'stopped', message: 'closed' });
            else if (this.context) host.send({ type: 'configure', context: this.context });
            resolve(reply.description as ComponentDescription);
            this.postPending();
          } else if (loading && reply.type === 'load-failed') {
            loading = false;
            clearTimeout(loadTimer);
            host.kill({ cause: 'stopped', message: 'load failed' });
            reject(Object.assign(new Error(reply.error.message), { stack: reply.error.stack }));
          } else if (!loading) return this.receive(host, reply);
        },
        onOutput: (stream, line) => {
          if (this.host === host) this.log(this.head() ?? null, stream === 'stderr' ? 'error' : 'log', line);
        },
        onExit: (exit) => {
          clearTimeout(loadTimer);
          if (loading) {
            loading = false;
            reject(new Error(`the component's host ended while loading it: ${exit.message}`));
          } else if (this.host === host) this.hostEnded(exit);
        },
      });
      host.send({ type: 'load', bundle, filename, ...(temp ? { tmp: loadTemp(temp, host.lent) } : {}), ...(clock ? { clock } : {}) });
    });
    this.starting = started;
    const clear = () => void (this.starting === started && (this.starting = null));
    started.then(clear, clear);
    return started;
  }

  private head(): string | undefined {
    return this.pending.keys().next().value as string | undefined;
  }

  /** Keeps the timeout on the oldest unfinished invocation, which is the one running. */
  private armTimeout(): void {
    const head = this.host ? this.head() : undefined;
    if ((head ?? null) === this.timedId) return;
    this.timedId = head ?? null;
    if (head && this.timer && this.timerMs === this.options.timeoutMs) {
      // The same timer restarted for the next invocation: no new timer for each one.
      this.timer.refresh();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!head) return;
    this.timerMs = this.options.timeoutMs;
    // Cleared when the host ends, so the host it stops is the one running the invocation.
    this.timer = setTimeout(() => this.timedOut(), this.timerMs);
  }

  /** Stops the running invocation's host, unless the service is keeping that host waiting (host-budget.ts): the wait is not the run's. */
  private timedOut(): void {
    if (this.host?.waiting || this.pending.get(this.timedId ?? '')?.intake?.handing) return void this.timer?.refresh();
    this.host?.kill({ cause: 'timeout', message: `timed out after ${Math.round(this.options.timeoutMs / 1000)} s; the run was stopped` });
  }

  /** A host that was serving ended: the running invocation fails with why, the rest go to a new host. */
  private hostEnded(exit: HostExit): void {
    // It has ended: the kill does nothing more.
    this.stopHost(exit.message);
    if (exit.cause === 'stopped') return;
    this.failures++;
    this.unposted = [...this.pending.keys()];
    const head = this.head();
    let message = exit.cause === 'memory' ? `${this.options.label}: ${exit.message}` : exit.message;
    // A client retrying a call the cassette cannot answer (or replay refuses: a raw connection, a DNS lookup) runs into the timeout; the call's record is lost with the host, so the message keeps it.
    if (exit.cause === 'timeout' && head && this.lastMiss?.invocationId === head) message += `; it had made a call with no answer in replay, which its client may have retried until then (${this.lastMiss.miss})`;
    // The caller logs the failed invocation.
    if (head) this.finish(head, { name: 'Error', message }, [], undefined, exit.cause === 'timeout' ? 'timeout' : 'crashed');
    this.options.onHostExit?.(exit);
    if (this.closed) return;
    if (this.pending.size > 0) return this.postPending();
    if (!this.options.keepWarm) return;
    this.options.onLog({ invocationId: null, level: 'warn', message: `the component's host is being restarted: ${message}` });
    const delay = Math.min(MAX_RESTART_DELAY_MS, 100 * 2 ** (this.failures - 1));
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.host && !this.starting && !this.closed && this.options.keepWarm) {
        this.start().catch((err: Error) => this.options.onLog({ invocationId: null, level: 'error', message: `the component could not be loaded again: ${err.message}` }));
      }
    }, delay);
  }

  private finish(invocationId: string, error: SerializedError | null, emits: EmitPayload[], value?: unknown, failure?: InvocationResult['failure'], calls: OutgoingCall[] = [], clockMs?: number): void {
    const p = this.pending.get(invocationId);
    if (!p) return;
    this.pending.delete(invocationId);
    this.checks.end(invocationId);
    const { resolve } = p;
    // V8 keeps a Map's replaced hash table, entries and all, until a full collection: an old one
    // held each ended run's whole HTTP exchange into the old generation (docs/performance.md).
    p.message = null;
    p.onRespond = undefined;
    p.onEmits = undefined;
    p.intake = undefined;
    p.resolve = null;
    if (clockMs !== undefined && this.options.clock) this.options.clock.nowMs = clockMs;
    resolve?.({ invocationId, error, emits, value, calls, ...(failure ? { failure } : {}), ...(clockMs !== undefined ? { clockMs } : {}) });
    this.armTimeout();
    if (this.pending.size > 0) return;
    this.onDrained?.();
    if (this.host) this.options.parking?.used(this);
  }

  /** Acts on a message of the serving host (already checked for shape by the host process). */
  private receive(host: HostProcess, reply: HostReply): Promise<unknown> | void {
    switch (reply.type) {
      case 'done': {
        // Its result counts against the hosts' budget until it has been handled (its events stored).
        const handled = this.pending.get(reply.invocationId)?.handled;
        this.done(reply);
        return handled;
      }
      case 'run-emits':
        // Its code has ended: its timeout now bounds the wait for each batch (and not a batch being stored).
        if (reply.invocationId === this.head()) this.timer?.refresh();
        return takeRunEmits(host, reply, reply.invocationId === this.head() ? this.pending.get(reply.invocationId) : undefined, (refusal) => this.log(reply.invocationId, 'error', refusal));
      case 'respond':
        return this.pending.get(reply.invocationId)?.onRespond?.(responsePayload(reply.response));
      case 'emits': {
        const problem = this.checks.strayEmits(reply.emits);
        if (problem) return this.log(null, 'error', `events emitted after their run ended were not stored: ${problem}`);
        return this.options.onStrayEmits(reply.emits);
      }
      case 'call':
        return this.answer(host, reply.callId, reply.request);
      case 'unrecorded':
        if (this.pending.has(reply.invocationId)) this.lastMiss = { invocationId: reply.invocationId, miss: reply.message };
        return;
      case 'log':
        // A line counts against the run it names only while that run is under way.
        return this.log(reply.invocationId !== null && this.pending.has(reply.invocationId) ? reply.invocationId : null, reply.level, reply.message);
      default:
        // 'fatal' is explained by the host process when it exits; a late 'loaded' means nothing.
        return;
    }
  }

  /** Passes a log line on within its run's limits. */
  private log(runId: string | null, level: LogLevel, message: string): void {
    const line = this.checks.logLine(runId, level, message);
    if (line) this.options.onLog(line);
  }

  /** Ends an invocation once the `this.db` keys it set are stored, in the order results came. */
  private done(reply: HostReply & { type: 'done' }): void {
    if (!this.pending.has(reply.invocationId)) return;
    this.failures = 0;
    const db = this.options.db;
    // What the host reports is checked before anything is stored: emits over the limits are refused, from the first batch over them.
    const taken = resultEmits(this.pending.get(reply.invocationId)?.intake, reply.emits, (refusal) => this.log(reply.invocationId, 'error', refusal));
    let error = reply.error ?? (taken.refusal ? { name: 'RangeError', message: taken.refusal } : null);
    const end = () => this.finish(reply.invocationId, error, taken.emits, reply.value, undefined, reply.calls, reply.clockMs);
    if (db && reply.dbWrites.length > 0) {
      const base = db.version;
      const stored = db.apply(reply.dbWrites).catch((err: Error) => {
        this.options.onLog({ invocationId: reply.invocationId, level: 'error', message: `this.db could not be saved: ${err.message}` });
        error ??= { name: err.name, message: err.message };
      });
      // The host's copy already holds its own writes; it is current unless someone else wrote since.
      if (this.dbSeen === base) this.dbSeen = db.version;
      this.dbWriting = Promise.all([this.dbWriting, stored]).then(() => undefined);
    }
    if (!this.dbWriting) return end();
    const writing = this.dbWriting.then(end);
    this.dbWriting = writing;
    void writing.then(() => {
      if (this.dbWriting === writing) this.dbWriting = null;
    });
  }

  /** Performs a host call (data stores only those this component is configured with) and sends its result back. */
  private answer(host: HostProcess, callId: number, request: HostCall): void {
    const { onDataStore, onNetworkMatch } = this.options;
    const onMiss = (miss: string) => void (this.pending.size > 0 && (this.lastMiss = { invocationId: this.head() as string, miss }));
    sendHostCallAnswer(host, callId, request, { onDataStore, onNetworkMatch, dataStores: this.context?.dataStores ?? [], onMiss });
  }
}
