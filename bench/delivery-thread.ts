// The delivery thread's own modules (outbox, dispatcher, sender) in one process against the bench's
// receiver, CPU time a delivery: `node --import tsx bench/delivery-thread.ts [MODE…] [--pairs N]`.
// Modes: `sender` (undici dispatch with fixed headers), `sign` (and the HMAC signature), `full`
// (messages added to an outbox and delivered by the dispatcher, attempts recorded), `local` (as
// `full`, but each request answered at once in-process: our code without undici or the socket,
// steady enough to size a change of 1 µs); several are
// run in turn, N times each. The modules are bundled first as the build bundles them (under tsx
// they carry its helpers and cost 10% more), and the process and the receiver are pinned to a
// core each: unpinned, rounds of one build drift by 10 µs on a 2-core machine; pinned, by 1.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NewMessage, NewMessageBatch, WebhookTarget } from '../runtime/contract/delivery-protocol';
import { MessageBatchBuilder } from '../runtime/delivery/message-batch';
import { Dispatcher } from '../runtime/delivery/worker/dispatcher';
import { Outbox } from '../runtime/delivery/worker/outbox';
import { requestHeaders } from '../runtime/delivery/worker/request-headers';
import { signMessage } from '../runtime/delivery/worker/signing';
import { HeaderRecords, HttpSender } from '../runtime/delivery/worker/webhook-sender';
import { startChild, stopChild } from './procs';
import { median } from './stats';

const DELIVERIES = 30_000;
const ROUNDS = 4; // a run's rounds after its warm-up; the first is left out of the median

/** One process: a warm-up, then ROUNDS rounds of DELIVERIES in one mode; prints µs a delivery per round. */
async function measure(mode: string): Promise<void> {
  const receiver = await startChild(['--import', 'tsx', 'bench/receiver.ts'], /listening (\d+)\n/);
  execFileSync('taskset', ['-a', '-p', '2', String(receiver.child.pid)], { stdio: 'ignore' });
  execFileSync('taskset', ['-a', '-p', '1', String(process.pid)], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${receiver.match[1]}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-delivery-thread-'));
  const outbox = await Outbox.open(path.join(dir, 'deliveries.jsonl'));
  const target: WebhookTarget = { id: 'wh_bench', url: `${base}/hook`, secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`, previous_secrets: [], active: true, paused: false, retry_schedule: null, failures_counted_from: 0 };
  // Answers are counted here, not asked of the receiver: a fetch of its count every 5 ms cost this
  // process 1–3 µs a delivery while a backlog drained, and read as a cost of the backlog.
  let answered = 0;
  /** The sender, counting the answers it gets. */
  const counted = (http: HttpSender) =>
    ({
      post: async (url: string, headers: Record<string, string>, payload: string) => {
        const outcome = await http.post(url, headers, payload);
        answered++;
        return outcome;
      },
      close: () => http.close(),
    }) as unknown as HttpSender;
  const records = new HeaderRecords();
  // What undici hands the sender for the bench receiver's answer: new buffers each time.
  const rawHeaders = () => ['Date', new Date().toUTCString(), 'Connection', 'keep-alive', 'Keep-Alive', 'timeout=5', 'Content-Length', '0'].map((part) => Buffer.from(part));
  const sender =
    mode === 'local'
      ? ({
          post: async () => {
            answered++;
            return { status_code: 200, duration_ms: 1, response_body: '', response_headers: records.of(rawHeaders()), error: null };
          },
          close: async () => {},
        } as unknown as HttpSender)
      : counted(new HttpSender(30_000));
  const dispatcher = new Dispatcher(outbox, sender, () => target, { retrySchedule: [5, 300], concurrencyPerWebhook: 16, disableAfterMs: 0, onDisable: () => {} });
  dispatcher.start();
  let next = 0;
  const body = (i: number) => JSON.stringify({ id: `evt_${i}`, emitter_id: 'dc_bench', ts: Date.now(), event: { i, body: { x: 1 } } });
  const message = (i: number): NewMessage => ({ id: `msg_${i}`, webhook_id: target.id, event_id: `evt_${i}`, emitter_id: 'dc_bench', event_name: null, body: body(i), created_at: Date.now(), hops: 1 });

  /**
   * Batches of 1000, made before a round as the service's thread makes them (that work is not the
   * delivery thread's); in the round, as the service does, each made durable, then delivered.
   */
  let batches: NewMessageBatch[] = [];
  const prepare = (n: number) => {
    const builder = new MessageBatchBuilder();
    batches = [];
    for (let sent = 0; sent < n; sent += 1000) {
      for (let i = 0; i < 1000; i++) builder.push(message(next++));
      batches.push(builder.take());
    }
  };
  const viaOutbox = async () => {
    for (const batch of batches) dispatcher.enqueue(await outbox.add(batch));
    batches = [];
  };
  /** The sender alone, 16 requests in flight. */
  const direct = async (n: number) => {
    const last = next + n;
    const one = async () => {
      while (next < last) {
        const m = message(next++);
        const timestamp = Math.floor(Date.now() / 1000);
        await sender.post(target.url, requestHeaders(m, timestamp, mode === 'sign' ? signMessage(target.secret, m.id, timestamp, m.body) : 'v1,unsigned'), m.body);
      }
    };
    await Promise.all(Array.from({ length: 16 }, one));
  };
  const round = async (n: number) => {
    const viaTheOutbox = mode === 'full' || mode === 'local';
    if (viaTheOutbox) prepare(n);
    const start = answered;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await (viaTheOutbox ? viaOutbox() : direct(n));
    while (answered - start < n) await new Promise((resolve) => setTimeout(resolve, 5));
    const used = process.cpuUsage(cpu);
    return { perSecond: n / ((performance.now() - started) / 1000), cpuMicros: (used.user + used.system) / n };
  };
  await round(10_000);
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(DELIVERIES));
  process.stdout.write(`${JSON.stringify(rounds.slice(1))}\n`);
  await dispatcher.stop();
  await outbox.close();
  await stopChild(receiver.child);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Bundles this file, runs each mode's process in turn `pairs` times, and prints the medians. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--pairs');
  const pairs = at >= 0 ? Number(args.splice(at, 2)[1]) : 3;
  const modes = args.length > 0 ? args : ['sender', 'sign', 'full'];
  const unknown = modes.find((m) => !['sender', 'sign', 'full', 'local'].includes(m));
  if (unknown) throw new Error(`unknown mode ${unknown}: use sender, sign, full or local`);
  const { build } = await import('esbuild');
  const bundle = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-delivery-thread-')), 'bundle.mjs');
  await build({ entryPoints: [fileURLToPath(import.meta.url)], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile: bundle, logLevel: 'warning' });
  // Resolve undici and the rest from this checkout's node_modules.
  fs.symlinkSync(path.resolve('node_modules'), path.join(path.dirname(bundle), 'node_modules'));
  const results = new Map<string, Array<{ perSecond: number; cpuMicros: number }>>(modes.map((m) => [m, []]));
  for (let pair = 0; pair < pairs; pair++) {
    for (const mode of modes) {
      const run = spawnSync(process.execPath, [bundle], { env: { ...process.env, SPOUT_DELIVERY_THREAD_MODE: mode }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      if (run.status !== 0) throw new Error(`the ${mode} run failed (exit ${run.status})`);
      results.get(mode)!.push(...JSON.parse(run.stdout.trim().split('\n').pop() as string));
    }
  }
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  console.log(`Delivery thread modules, pinned, ${DELIVERIES} deliveries a round (median of ${pairs * (ROUNDS - 1)} rounds a mode):`);
  for (const [mode, rounds] of results) {
    console.log(`  ${mode.padEnd(7)} CPU ${median(rounds.map((r) => r.cpuMicros)).toFixed(1)} µs a delivery   ${median(rounds.map((r) => r.perSecond)).toFixed(0)} deliveries/s`);
  }
}

if (process.env.SPOUT_DELIVERY_THREAD_MODE) await measure(process.env.SPOUT_DELIVERY_THREAD_MODE);
else await main();
