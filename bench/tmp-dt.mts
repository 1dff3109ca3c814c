import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { Dispatcher } from '../runtime/delivery/dispatcher';
import { HttpSender } from '../runtime/delivery/http-sender';
import { Outbox } from '../runtime/delivery/outbox';
const recv = spawn(process.execPath, ['--import', 'tsx', 'bench/receiver.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<string>((r) => recv.stdout.on('data', (d) => r(/listening (\d+)/.exec(String(d))![1]!)));
const url = `http://127.0.0.1:${port}/hook`;
const count = async () => Number(await fetch(`http://127.0.0.1:${port}/count`).then((r) => r.text()));
const outbox = await Outbox.open(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dt-')), 'deliveries.jsonl'));
const target = { id: 'wh_1', url, secret: 'whsec_' + Buffer.alloc(24, 7).toString('base64'), active: true };
const disp = new Dispatcher(outbox, new HttpSender(15000), () => target, { retrySchedule: [1], concurrencyPerWebhook: 16 });
let seq = 0;
async function run(n: number) {
  const start = await count();
  const msgs = await outbox.add(Array.from({ length: n }, () => ({ id: 'msg_' + seq++, webhook_id: 'wh_1', event_id: '1-' + seq, emitter_id: 'dc_x', event_name: null, body: '{"i":' + seq + ',"body":{"x":1}}', created_at: Date.now() })));
  const cpu = process.cpuUsage(); const t = performance.now();
  disp.enqueue(msgs);
  while ((await count()) - start < n) await new Promise((r) => setTimeout(r, 10));
  const c = process.cpuUsage(cpu); const s = (performance.now() - t) / 1000;
  return { perSecond: n / s, cpuUs: (c.user + c.system) / n };
}
const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 16 });
async function bare(n: number) {
  let next = 0; const cpu = process.cpuUsage(); const t = performance.now();
  await Promise.all(Array.from({ length: 16 }, async () => { while (next++ < n) { const r = await pool.request({ method: 'POST', path: '/hook', headers: { 'content-type': 'application/json' }, body: '{"bench":true}' }); await r.body.dump(); } }));
  const c = process.cpuUsage(cpu); return { perSecond: n / ((performance.now() - t) / 1000), cpuUs: (c.user + c.system) / n };
}
await bare(20000); await run(20000);
for (let i = 0; i < 3; i++) {
  const b = await bare(40000); const d = await run(40000);
  console.log(`bare ${b.perSecond.toFixed(0)}/s ${b.cpuUs.toFixed(0)}us   dispatcher ${d.perSecond.toFixed(0)}/s ${d.cpuUs.toFixed(0)}us   ratio ${(d.perSecond / b.perSecond).toFixed(2)}`);
}
await pool.close(); recv.kill(); process.exit(0);
