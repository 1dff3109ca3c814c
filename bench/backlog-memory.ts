// The delivery thread's memory under a backlog (issue 44 point 4): one checkout's Outbox and
// Dispatcher take 200 000 messages in batches of 1000 (as a run's slices arrive) and send them to a
// receiver in this process; prints the peak RSS and heap used, and the most messages in memory.
// `node --import tsx --expose-gc bench/backlog-memory.ts [CHECKOUT]` (default: this one); give a
// worktree of main as CHECKOUT for the baseline.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const { Outbox } = await import(`${root}/runtime/delivery/worker/outbox.ts`);
const { Dispatcher } = await import(`${root}/runtime/delivery/worker/dispatcher.ts`);
const { HttpSender } = await import(`${root}/runtime/delivery/worker/webhook-sender.ts`);
const { MessageBatchBuilder } = await import(`${root}/runtime/delivery/message-batch.ts`);
let count = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    count++;
    res.end('ok');
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-probe-'));
const outbox = await Outbox.open(path.join(dir, 'deliveries.jsonl'));
const target = { id: 'wh_a', url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previous_secrets: [], active: true, paused: false, retry_schedule: null, failures_counted_from: 0 };
const d = new Dispatcher(outbox, new HttpSender(10_000), () => target, { retrySchedule: [1], concurrencyPerWebhook: 16, disableAfterMs: 0, onDisable: () => {} });
global.gc?.();
const base = { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
let peak = { rss: 0, heap: 0, held: 0 };
const sample = () => {
  const m = process.memoryUsage();
  peak = { rss: Math.max(peak.rss, m.rss), heap: Math.max(peak.heap, m.heapUsed), held: Math.max(peak.held, outbox.messages.size) };
};
const timer = setInterval(sample, 50);
const TOTAL = 200_000;
for (let from = 0; from < TOTAL; from += 1000) {
  const b = new MessageBatchBuilder();
  for (let i = from; i < from + 1000; i++)
    b.push({
      id: `msg_${String(i).padStart(20, '0')}`,
      webhook_id: 'wh_a',
      event_id: `${1700000000000 + Math.floor(i / 100)}-${i % 100}`,
      emitter_id: 'dc_abcdefgh',
      event_name: null,
      body: JSON.stringify({ i, text: 'an event of the bench source', at: 1700000000000 + i }),
      created_at: Date.now(),
      hops: 1,
    });
  d.enqueue(await outbox.add(b.take()));
}
while (count < TOTAL) await new Promise((r) => setTimeout(r, 20));
clearInterval(timer);
sample();
const mb = (n: number) => (n / 1048576).toFixed(0);
console.log(
  `${root}: peak RSS ${mb(peak.rss)} MB (start ${mb(base.rss)}), peak heap used ${mb(peak.heap)} MB (start ${mb(base.heap)}), most messages in memory ${peak.held}; load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await d.stop();
await outbox.close();
server.close();
fs.rmSync(dir, { recursive: true, force: true });
