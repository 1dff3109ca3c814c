// Where the service's time goes under the benchmark's load: `node --import tsx bench/profile.ts
// ingest|delivery [SECONDS]` starts `spout serve` under `--cpu-prof`, runs the load of `npm run
// bench`, then prints CPU µs per request of the service (by thread) and of the component host,
// the latency the load generator saw, and each thread's profile: the top functions by self time.
// `BENCH_CLI=/path/to/dist/cli.js` profiles another build the same way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuPerRequest, describeCpu, treeCpu } from './cpu';
import { BENCH_SOURCE, runJson, startChild, startSpout, stopChild } from './procs';

const [mode = 'ingest', secondsText = '10'] = process.argv.slice(2);
const ms = Number(secondsText) * 1000;
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-prof-'));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time in a `.cpuprofile`, as percentages of the profile, then the files with the most. */
function topEntries(file: string, count = Number(process.env.PROFILE_TOP ?? 25)): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id) as ProfileNode;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    const fileKey = url ? path.basename(url) : functionName.startsWith('(') ? functionName : '(native)';
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + dt);
    total += dt;
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, t]) => `${((t / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  return [...top(self, count), '  by file:', ...top(byFile, 12)];
}

async function main(): Promise<void> {
  const spout = await startSpout(['--event-retention', '200000', '--invocation-retention', '200000'], undefined, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  const pid = spout.child.pid as number;
  const source = await spout.api('POST', '/v1/sources', { component_code: BENCH_SOURCE });
  const endpoint = source.configured_props.http.endpoint_url as string;
  let requests = 0;
  let before = treeCpu(pid);
  let started = performance.now();
  let latency = '';
  if (mode === 'ingest') {
    await runJson(['--import', 'tsx', 'bench/load.ts', endpoint, '32', '2000']);
    before = treeCpu(pid);
    started = performance.now();
    const load = await runJson<{ ok: number; perSecond: number; p50: number; p99: number }>(['--import', 'tsx', 'bench/load.ts', endpoint, '32', String(ms)]);
    requests = load.ok;
    latency = `${load.perSecond.toFixed(0)} req/s, latency p50 ${load.p50.toFixed(2)} ms p99 ${load.p99.toFixed(2)} ms`;
  } else {
    const receiver = await startChild(['--import', 'tsx', 'bench/receiver.ts'], /listening (\d+)\n/);
    const base = `http://127.0.0.1:${receiver.match[1]}`;
    const hook = await spout.api('POST', '/v1/webhooks', { url: `${base}/hook` });
    await spout.api('POST', '/v1/subscriptions', { emitter_id: source.id, listener_id: hook.id });
    const count = async () => Number(await fetch(`${base}/count`).then((r) => r.text()));
    const n = Math.round((ms / 1000) * 10_000);
    for (let sent = 0; sent < n; sent += 1000) await fetch(`${endpoint}?n=1000`, { method: 'POST', body: '{"x":1}' });
    while ((await count()) < n) await new Promise((r) => setTimeout(r, 20));
    requests = n;
    latency = `${(n / ((performance.now() - started) / 1000)).toFixed(0)} deliveries/s`;
    await stopChild(receiver.child);
  }
  const after = treeCpu(pid);
  console.log(`${mode}: ${requests} in ${((performance.now() - started) / 1000).toFixed(1)} s; ${latency}`);
  console.log(`CPU per ${mode === 'ingest' ? 'request' : 'delivery'}: ${describeCpu(cpuPerRequest(before, after, requests))}`);
  await stopChild(spout.child);
  for (const file of fs.readdirSync(profileDir).sort()) {
    console.log(`\n${file}`);
    for (const line of topEntries(path.join(profileDir, file))) console.log(`  ${line}`);
  }
  fs.rmSync(profileDir, { recursive: true, force: true });
}

await main();
