// Reads a `perf record -g` of the service (bench/profile.ts with PROFILE=perf) into, per thread,
// where its CPU time goes: each sample is charged to the nearest project function on its stack
// (with the library, V8 and kernel work it called), or to the outermost library frame when no
// project function is on it. Unlike --cpu-prof, which samples wall time, perf counts only time on
// a CPU: a write that wakes another process and is preempted costs what it cost, not the wait.
// TurboFan inlines small functions into their callers, which are then charged for them;
// PROFILE_NO_INLINE=1 (bench/profile.ts) turns inlining off to see each one (slower, but spread alike).
import { execFileSync } from 'node:child_process';
import { frameName } from './cpuprofile';

interface Frame {
  key: string;
  ours: boolean;
}

/** A frame of `perf script`: V8's `JS:*name file:///…:line:col` mapped to the sources, else the symbol. */
function parseFrame(symbol: string): Frame {
  const js = /^JS:[*^~+]?(\S*) (file:\/\/\S+):(\d+):(\d+)$/.exec(symbol);
  if (js) {
    const f = frameName({ functionName: js[1] ?? '', url: js[2] as string, lineNumber: Number(js[3]) - 1, columnNumber: Number(js[4]) - 1 });
    return { key: f.key, ours: f.ours };
  }
  return {
    key: symbol
      .replace(/^JS:[*^~+]?/, '')
      .replace(/\s*\(.*$/, '')
      .slice(0, 80),
    ours: false,
  };
}

/** Per thread (the busiest `threads`), the top `count` owners of its CPU samples, as percentages of that thread's samples. */
export function perfSummary(file: string, threads = 2, count = 25): string[] {
  const text = execFileSync('perf', ['script', '-i', file, '-F', 'tid,ip,sym'], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
  const byThread = new Map<string, Map<string, number>>();
  const totals = new Map<string, number>();
  const known = new Map<string, Frame>();
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    const tid = (lines[0] as string).trim();
    // Each frame line is `<address> <symbol>`.
    const frames = lines.slice(1).map((l) => {
      const symbol = l.trim().replace(/^[0-9a-f]+ /, '');
      let frame = known.get(symbol);
      if (!frame) known.set(symbol, (frame = parseFrame(symbol)));
      return frame;
    });
    const ours = frames.find((f) => f.ours);
    const owner = ours ? ours.key : `(no project frame) ${frames[0]?.key ?? '?'}`;
    const counts = byThread.get(tid) ?? new Map<string, number>();
    counts.set(owner, (counts.get(owner) ?? 0) + 1);
    byThread.set(tid, counts);
    totals.set(tid, (totals.get(tid) ?? 0) + 1);
  }
  const out: string[] = [];
  for (const [tid, total] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, threads)) {
    out.push(`thread ${tid}: ${total} samples; each charged to the nearest project function on its stack`);
    const counts = [...(byThread.get(tid) as Map<string, number>)].sort((a, b) => b[1] - a[1]).slice(0, count);
    for (const [owner, n] of counts) out.push(`  ${((n / total) * 100).toFixed(1).padStart(5)}%  ${owner}`);
  }
  return out;
}
