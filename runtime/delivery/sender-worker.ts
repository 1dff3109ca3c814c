// Entry of the delivery thread: performs webhook POSTs for the dispatcher, so that HTTP client work
// runs beside the service's event loop instead of on it. Requests and outcomes travel in batches.
import { parentPort, workerData } from 'node:worker_threads';
import { HttpSender, type SendOutcome } from './http-sender';
import type { SenderRequest, SenderWorkerData } from './sender-thread';

const port = parentPort!;
const sender = new HttpSender((workerData as SenderWorkerData).timeoutMs);
let outcomes: Array<[number, SendOutcome]> = [];
let scheduled = false;

function report(id: number, outcome: SendOutcome): void {
  outcomes.push([id, outcome]);
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    port.postMessage(outcomes);
    outcomes = [];
  });
}

port.on('message', (batch: SenderRequest[] | 'close') => {
  if (batch === 'close') {
    void sender.close().then(() => port.close());
    return;
  }
  for (const [id, url, headers, body] of batch) void sender.post(url, headers, body).then((outcome) => report(id, outcome));
});
