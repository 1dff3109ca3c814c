import { Worker } from 'node:worker_threads';
import { newId } from '../ids';
import { workerScript } from '../paths';
import type { ComponentDescription } from '../components/describe';
import type {
  EmitPayload,
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
  /** Most invocations waiting for their turn; more are refused. */
  maxQueue: number;
  onLog: (log: SandboxLog) => void;
  /** Emits made outside any invocation (after a run ended). */
  onStrayEmits: (emits: EmitPayload[]) => void;
}

/** How an invocation ended. */
export interface InvocationResult {
  invocationId: string;
  error: SerializedError | null;
  emits: EmitPayload[];
}

/** Thrown when a source's queue of waiting invocations is full. */
export class QueueFullError extends Error {}

interface Running {
  invocationId: string;
  resolve: (result: InvocationResult) => void;
  onRespond?: (response: HttpResponsePayload) => void;
  timer: NodeJS.Timeout;
}

/**
 * One component's worker thread. Invocations run one at a time in arrival order. A worker that
 * dies (timeout, out of memory, `process.exit`) is replaced on the next invocation and
 * reconfigured with the same context; the service never shares a thread with component code.
 */
export class Sandbox {
  private worker: Worker | null = null;
  private context: SandboxContext | null = null;
  private running: Running | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private closed = false;

  private constructor(private readonly options: SandboxOptions) {}

  /** Starts a worker on the bundle and returns it with what the module declares. */
  static async load(options: SandboxOptions): Promise<{ sandbox: Sandbox; description: ComponentDescription }> {
    const sandbox = new Sandbox(options);
    const description = await sandbox.spawn();
    return { sandbox, description };
  }

  /** Sets the values `this` exposes to the component for later invocations. */
  configure(context: SandboxContext): void {
    this.context = context;
    this.send({ type: 'configure', context });
  }

  /** Queues an invocation; `onRespond` receives a `respond()` made during it. */
  invoke(target: InvocationTarget, onRespond?: (response: HttpResponsePayload) => void): Promise<InvocationResult> {
    if (this.closed) return Promise.reject(new Error('the source is being removed'));
    if (this.waiting >= this.options.maxQueue) {
      return Promise.reject(new QueueFullError(`more than ${this.options.maxQueue} invocations are waiting; try again shortly`));
    }
    this.waiting++;
    const result = this.tail.then(() => {
      this.waiting--;
      return this.start(target, onRespond);
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Stops the worker once queued invocations have finished. */
  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
    await this.worker?.terminate();
    this.worker = null;
  }

  private async start(target: InvocationTarget, onRespond?: (r: HttpResponsePayload) => void): Promise<InvocationResult> {
    if (!this.worker) {
      await this.spawn();
      if (this.context) this.send({ type: 'configure', context: this.context });
    }
    const invocationId = newId('inv', 12);
    return new Promise<InvocationResult>((resolve) => {
      const timer = setTimeout(() => {
        this.fail(`timed out after ${Math.round(this.options.timeoutMs / 1000)} s; the run was stopped`);
      }, this.options.timeoutMs);
      this.running = { invocationId, resolve, onRespond, timer };
      this.send({ type: 'invoke', invocationId, target });
    });
  }

  private send(message: HostMessage): void {
    this.worker?.postMessage(message);
  }

  /** Ends the running invocation with an error and discards its worker. */
  private fail(message: string): void {
    const running = this.running;
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
    if (!running) return;
    this.running = null;
    clearTimeout(running.timer);
    this.options.onLog({ invocationId: running.invocationId, level: 'error', message });
    running.resolve({ invocationId: running.invocationId, error: { name: 'Error', message }, emits: [] });
  }

  private spawn(): Promise<ComponentDescription> {
    const data: WorkerData = { bundle: this.options.bundle, filename: this.options.filename };
    const worker = new Worker(workerScript, {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
      stdout: false,
      stderr: false,
    });
    this.worker = worker;
    return new Promise<ComponentDescription>((resolve, reject) => {
      let loaded = false;
      worker.on('message', (message: WorkerMessage) => {
        switch (message.type) {
          case 'loaded':
            loaded = true;
            resolve(message.description);
            break;
          case 'load-failed':
            void worker.terminate();
            reject(Object.assign(new Error(message.error.message), { stack: message.error.stack }));
            break;
          case 'done':
            this.finish(message.invocationId, message.error, message.emits);
            break;
          case 'respond':
            if (this.running?.invocationId === message.invocationId) this.running.onRespond?.(message.response);
            break;
          case 'emits':
            this.options.onStrayEmits(message.emits);
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
        else if (this.worker === worker) this.fail(`the component's worker exited with code ${code} (process.exit?)`);
      });
    });
  }

  private finish(invocationId: string, error: SerializedError | null, emits: EmitPayload[]): void {
    const running = this.running;
    if (!running || running.invocationId !== invocationId) return;
    this.running = null;
    clearTimeout(running.timer);
    running.resolve({ invocationId, error, emits });
  }
}
