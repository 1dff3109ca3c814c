import { Worker } from 'node:worker_threads';
import { senderWorkerScript } from '../paths';
import type { SendOutcome } from './http-sender';

/** Sends one webhook request; implemented in-process by HttpSender and on a thread by ThreadedSender. */
export interface Sender {
  post(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome>;
  close(): Promise<void>;
}

/** One request to the delivery thread: id, url, headers, body. */
export type SenderRequest = [number, string, Record<string, string>, string];

export interface SenderWorkerData {
  timeoutMs: number;
}

/**
 * Runs the HTTP client of webhook delivery on its own thread. Requests made in the same tick go
 * over in one message, and outcomes come back the same way, so the cost per delivery on the
 * service's event loop is little more than signing it.
 */
export class ThreadedSender implements Sender {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (outcome: SendOutcome) => void>();
  private batch: SenderRequest[] = [];
  private scheduled = false;
  private seq = 0;

  constructor(timeoutMs: number) {
    const data: SenderWorkerData = { timeoutMs };
    this.worker = new Worker(senderWorkerScript, { workerData: data });
    this.worker.on('message', (outcomes: Array<[number, SendOutcome]>) => {
      for (const [id, outcome] of outcomes) {
        this.waiting.get(id)?.(outcome);
        this.waiting.delete(id);
      }
    });
    this.worker.on('error', (err) => this.failAll(`the delivery thread failed: ${err.message}`));
    this.worker.on('exit', () => this.failAll('the delivery thread stopped'));
  }

  post(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const id = this.seq++;
    this.batch.push([id, url, headers, body]);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.worker.postMessage(this.batch);
        this.batch = [];
      });
    }
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  /** Aborts requests in flight (they come back as errors) and stops the thread. */
  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('close');
    await exited;
  }

  private failAll(error: string): void {
    for (const resolve of this.waiting.values()) resolve({ status_code: null, duration_ms: 0, response_body: null, error });
    this.waiting.clear();
  }
}
