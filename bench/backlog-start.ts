// A start with a big delivery backlog (issue 44: "start in about a second, whatever is stored";
// "memory bounded by work, not by history"): a data dir whose one webhook has BACKLOG undelivered
// messages, beside the same data dir without them. Per start: from the spawn to the first /v1
// answer, to the first delivery at the receiver (the delivery thread has replayed its outbox;
// on the empty data dir, of an event posted once /v1 answers), and the service's peak RSS by then
// (VmHWM, the delivery thread included). The webhook is made through the service; the backlog is
// then written straight into deliveries.jsonl with the outbox's own line encoder. Each start gets
// a fresh copy of its data dir. `BENCH_BASELINE=<other checkout>/dist/cli.js` measures that build
// too, in the same run.
// `npm run bench:backlog-start` (BACKLOG=1000000 for a bigger one).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { messageLine } from '../runtime/delivery/worker/outbox-lines';
import { BENCH_SOURCE, benchCli, startSpout, stopChild, untilFirstV1 } from './procs';
import { median } from './stats';

const BACKLOG = Number(process.env.BACKLOG) || 200_000;
const STARTS = Number(process.env.STARTS) || 3;

const load = () =>
  execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/.*load average/, 'load average');

/** The receiver: when the next POST arrives (performance.now()). */
let firstDelivery: (() => void) | null = null;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    firstDelivery?.();
    firstDelivery = null;
    res.end('ok');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const copies = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-bench-backlog-'));
process.once('exit', () => fs.rmSync(copies, { recursive: true, force: true }));
let copied = 0;

/** Two data dirs with one source subscribed to one webhook at the receiver: without a backlog, and with one. */
async function dataDirs(): Promise<{ empty: string; backlog: string; endpointPath: string }> {
  const spout = await startSpout([], path.join(copies, 'empty'));
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const hook = await spout.api('POST', '/v1/webhooks', { url: hookUrl });
  await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: hook.id });
  await stopChild(spout.child);
  const backlog = path.join(copies, 'backlog');
  fs.cpSync(spout.dataDir, backlog, { recursive: true });
  const fd = fs.openSync(path.join(backlog, 'deliveries.jsonl'), 'w', 0o600);
  const base = Date.now() - 86_400_000;
  for (let from = 0; from < BACKLOG; from += 5000) {
    const lines: string[] = [];
    for (let i = from; i < Math.min(BACKLOG, from + 5000); i++) {
      const body = JSON.stringify({ i, body: { text: 'an event of the bench source, waiting for its receiver', at: base + i } });
      lines.push(messageLine({ id: `msg_${String(i).padStart(20, '0')}`, webhook_id: hook.id, event_id: `${base + i}-0`, emitter_id: source.id, event_name: null, body, created_at: base + i, hops: 1 }));
    }
    fs.writeSync(fd, `${lines.join('\n')}\n`);
  }
  fs.closeSync(fd);
  return { empty: spout.dataDir, backlog, endpointPath: new URL(source.configured_props.http.endpoint_url).pathname };
}

interface Start {
  v1: number;
  delivery: number;
  peakMb: number;
}

/** Starts `cli` on a copy of `dataDir`: to the first /v1 answer, to the first delivery, and the peak RSS then. */
async function timedStart(cli: string, dataDir: string, emitPath: string | null): Promise<Start> {
  const copy = path.join(copies, `start-${copied++}`);
  fs.cpSync(dataDir, copy, { recursive: true });
  const delivered = new Promise<number>((resolve) => (firstDelivery = () => resolve(performance.now())));
  const started = performance.now();
  const spout = await startSpout([], copy, [], cli);
  const v1 = await untilFirstV1(spout.url, started);
  if (emitPath) await (await fetch(spout.url + emitPath, { method: 'POST', body: '{}' })).arrayBuffer();
  const delivery = (await delivered) - started;
  const peakMb = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${spout.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  await stopChild(spout.child);
  fs.rmSync(copy, { recursive: true, force: true });
  return { v1, delivery, peakMb };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;
const row = (starts: Start[]) => `first /v1 ${ms(median(starts.map((s) => s.v1)))}, first delivery ${ms(median(starts.map((s) => s.delivery)))}, peak RSS ${median(starts.map((s) => s.peakMb)).toFixed(0)} MB`;

const builds = [...(process.env.BENCH_BASELINE ? [{ name: 'baseline', cli: process.env.BENCH_BASELINE }] : []), { name: 'this build', cli: benchCli }];
const made = performance.now();
const dirs = await dataDirs();
console.log(`backlog start: data dir with ${BACKLOG} undelivered messages to one webhook made in ${ms(performance.now() - made)}; medians of ${STARTS} starts; ${load()}`);
for (const { name, cli } of builds) {
  const empty: Start[] = [];
  const backlog: Start[] = [];
  for (let i = 0; i < STARTS; i++) {
    empty.push(await timedStart(cli, dirs.empty, dirs.endpointPath));
    backlog.push(await timedStart(cli, dirs.backlog, null));
  }
  console.log(`${name} (${cli}):\n  empty data dir: ${row(empty)}\n  ${BACKLOG} backlog:  ${row(backlog)}\n  ${load()}`);
}
receiver.close();
