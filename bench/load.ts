// A closed-loop load generator, run as its own process so that it does not share a thread with
// what it measures: `node --import tsx bench/load.ts URL CONCURRENCY DURATION_MS [BODY]`.
import { Pool } from 'undici';

const [url, concurrencyText, durationText, body = '{"bench":true}'] = process.argv.slice(2);
const target = new URL(url as string);
const concurrency = Number(concurrencyText);
const until = Date.now() + Number(durationText);
const pool = new Pool(target.origin, { connections: concurrency });
let ok = 0;
let failed = 0;
const latencies: number[] = [];

async function worker(): Promise<void> {
  while (Date.now() < until) {
    const sent = performance.now();
    const res = await pool.request({ method: 'POST', path: target.pathname + target.search, headers: { 'content-type': 'application/json' }, body });
    await res.body.dump();
    latencies.push(performance.now() - sent);
    if (res.statusCode >= 200 && res.statusCode < 300) ok++;
    else failed++;
  }
}

const started = Date.now();
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (Date.now() - started) / 1000;
await pool.close();
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.stdout.write(`${JSON.stringify({ ok, failed, seconds, perSecond: ok / seconds, p50: at(0.5), p99: at(0.99) })}\n`);
