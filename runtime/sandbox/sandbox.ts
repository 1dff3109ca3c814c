import { Worker } from 'node:worker_threads';
import { newId } from '../ids';
import { workerScript } from '../paths';
import type { ComponentDescription } from '../components/describe';
import type {
  EmitPayload,
  HostCall,
  HostMessage,
  HttpResponsePayload,
  InvocationTarget,
  LogLevel,
  SandboxContext,
  SerializedError,
  WorkerData,
  WorkerMessage,
} from './protocol';

/** A log line written by component code. */
export interface SandboxLog {
  invocationId: string | null;
  level: LogLevel;
  message: string;
}

export interface SandboxOptions {
  bundle: string;
  filename: string;
  /** A run or hook longer than this is stopped and its worker replaced. */
  timeoutMs: number;
  /** Heap limit of the worker. */
  memoryMb: number;
  /** Most invocations waiting or running; more are refused. */
  maxQueue: number;
  onLog: (log: SandboxLog) => void;
  /** Emits made outside any invocation (after a run ended). */
  onStrayEmits: (emits: EmitPayload[]) => void;
  /** Answers component code's requests to the service (data stores); absent, they fail with a message. */
  onCall?: (request: HostCall) => Promise<unknown>;
}

/** How an invocation ended. */
export interface InvocationResult {
  invocationId: string;
  error: SerializedError | null;
  emits: EmitPayload[];
  /** What an `options` or `additionalProps` invocation returned. */
  value?: unknown;
}

/** Thrown when a source's queue of waiting invocations is full. */
export class QueueFullError extends Error {}

interface Pending {
  message: HostMessage & { type: 'invoke' };
  resolve: (result: InvocationResult) => void;
  onRespond?: (response: HttpResponsePayload) => void;
  posted: boolean;
}

/**
 * One component's worker thread. Invocations are posted to the worker as they come and it runs
 * them one at a time in arrival order, so the service's event loop is not on the path between
 * two runs. The oldest unfinished invocation is the running one and carries the timeout. A worker
 * that dies (timeout, out of memory, `process.exit`) fails the running invocation only: a new
 * worker is started, configured with the same context, and given the ones still waiting.
 */
export class Sandbox {
  private worker: Worker | null = null;
  private spawning: Promise<void> | null = null;
  private context: SandboxContext | null = null;
  /** Unfinished invocations in arrival order; the first is running. */
  private readonly pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private timedId: string | null = null;
  private closed = false;
  private onDrained: (() => void) | null = null;
  private readonly idPrefix = newId('inv', 8);
  private seq = 0;

  private constructor(private readonly options: SandboxOptions) {}

  /** Starts a worker on the bundle and returns it with what the module declares. */
  static async load(options: SandboxOptions): Promise<{ sandbox: Sandbox; description: ComponentDescription }> {
    const sandbox = new Sandbox(options);
    const description = await sandbox.spawn();
    return { sandbox, description };
  }

  /** Sets the timeout of invocations that start from now on. */
  setRunTimeout(ms: number): void {
    this.options.timeoutMs = ms;
  }

  /** Sets the values `this` exposes to the component for invocations made from now on. */
  configure(context: SandboxContext): void {
    this.context = context;
    this.worker?.postMessage({ type: 'configure', context } satisfies HostMessage);
  }

  /** Queues an invocation; `onRespond` receives a `respond()` made during it. */
  invoke(target: InvocationTarget, onRespond?: (response: HttpResponsePayload) => void): Promise<InvocationResult> {
    if (this.closed) return Promise.reject(new Error('the source is being removed'));
    if (this.pending.size >= this.options.maxQueue) {
      return Promise.reject(new QueueFullError(`more than ${this.options.maxQueue} invocations are waiting; try again shortly`));
    }
    const invocationId = `${this.idPrefix}${(this.seq++).toString(36)}`;
    return new Promise<InvocationResult>((resolve) => {
      this.pending.set(invocationId, { message: { type: 'invoke', invocationId, target }, resolve, onRespond, posted: false });
      this.postPending();
    });
  }

  /** Refuses new invocations, waits for queued ones to finish, and stops the worker. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.pending.size > 0) await new Promise<void>((resolve) => (this.onDrained = resolve));
    await this.worker?.terminate();
    this.worker = null;
  }

  /** Posts invocations the current worker has not been given; starts one if there is none. */
  private postPending(): void {
    if (!this.worker) {
      this.spawning ??= this.spawn().then(
        () => {
          this.spawning = null;
          if (this.context) this.configure(this.context);
          this.postPending();
        },
        (err: Error) => {
          this.spawning = null;
          for (const [id] of this.pending) this.finish(id, { name: 'Error', message: `the component could not be loaded: ${err.message}` }, []);
        },
      );
      return;
    }
    for (const p of this.pending.values()) {
      if (p.posted) continue;
      p.posted = true;
      this.worker.postMessage(p.message);
    }
    this.armTimeout();
  }

  /** Keeps the timeout on the oldest unfinished invocation, which is the one running. */
  private armTimeout(): void {
    const head = this.worker ? (this.pending.keys().next().value as string | undefined) : undefined;
    if ((head ?? null) === this.timedId) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timedId = head ?? null;
    if (!head) return;
    this.timer = setTimeout(() => this.fail(`timed out after ${Math.round(this.options.timeoutMs / 1000)} s; the run was stopped`), this.options.timeoutMs);
  }

  /** Ends the running invocation with an error, discards its worker and hands the rest to a new one. */
  private fail(message: string): void {
    const worker = this.worker;
    const head = this.pending.keys().next().value as string | undefined;
    this.worker = null;
    void worker?.terminate();
    for (const p of this.pending.values()) p.posted = false;
    if (head) {
      this.options.onLog({ invocationId: head, level: 'error', message });
      this.finish(head, { name: 'Error', message }, []);
    }
    if (this.pending.size > 0) this.postPending();
  }

  private finish(invocationId: string, error: SerializedError | null, emits: EmitPayload[], value?: unknown): void {
    const p = this.pending.get(invocationId);
    if (!p) return;
    this.pending.delete(invocationId);
    p.resolve({ invocationId, error, emits, value });
    this.armTimeout();
    if (this.pending.size === 0) this.onDrained?.();
  }

  /** Performs a host call and posts its result to the worker that asked. */
  private answer(worker: Worker, callId: number, request: HostCall): void {
    const handler = this.options.onCall ?? (() => Promise.reject(new Error(`${request.service} is not available while configuring a component`)));
    handler(request).then(
      (value) => worker.postMessage({ type: 'call-result', callId, value } satisfies HostMessage),
      (err: Error) => worker.postMessage({ type: 'call-result', callId, error: { name: err.name, message: err.message } } satisfies HostMessage),
    );
  }

  private spawn(): Promise<ComponentDescription> {
    const data: WorkerData = { bundle: this.options.bundle, filename: this.options.filename };
    const worker = new Worker(workerScript, {
      workerData: data,
      // The host's flags (a loader, --input-type, …) are not the worker's business.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
      stdout: false,
      stderr: false,
    });
    return new Promise<ComponentDescription>((resolve, reject) => {
      let loaded = false;
      worker.on('message', (message: WorkerMessage) => {
        switch (message.type) {
          case 'loaded':
            loaded = true;
            this.worker = worker;
            resolve(message.description);
            break;
          case 'load-failed':
            void worker.terminate();
            reject(Object.assign(new Error(message.error.message), { stack: message.error.stack }));
            break;
          case 'done':
            this.finish(message.invocationId, message.error, message.emits, message.value);
            break;
          case 'respond':
            this.pending.get(message.invocationId)?.onRespond?.(message.response);
            break;
          case 'emits':
            this.options.onStrayEmits(message.emits);
            break;
          case 'call':
            this.answer(worker, message.callId, message.request);
            break;
          case 'log':
            this.options.onLog({ invocationId: message.invocationId, level: message.level, message: message.message });
            break;
        }
      });
      worker.on('error', (err) => {
        if (!loaded) reject(err);
        else if (this.worker === worker) this.fail(`the component crashed: ${err.message}`);
      });
      worker.on('exit', (code) => {
        if (!loaded) reject(new Error(`the component's worker exited (code ${code}) while loading`));
        else if (this.worker === worker && !this.closed) this.fail(`the component's worker exited with code ${code} (process.exit?)`);
      });
    });
  }
}
