// Reads V8's `--trace-gc-nvp` lines (one a collection, prefixed `[pid:isolate]`) into what each
// isolate's collector did: young-generation scavenges and what they promoted into the old
// generation, and full mark-compacts. Promotion is the figure to watch: an object that survives
// two scavenges is copied twice and then waits for a full collection, and a request whose objects
// are all promoted (something old still points at them) costs the collector several times more.

/** One isolate's collections over a stretch of trace (the main thread, a worker). */
export interface GcSummary {
  isolate: string;
  scavenges: number;
  scavengeMs: number;
  promotedBytes: number;
  markCompacts: number;
  markCompactMs: number;
}

/** Sums the collections in `trace` per isolate, busiest first. */
export function summariseGcTrace(trace: string): GcSummary[] {
  const byIsolate = new Map<string, GcSummary>();
  for (const line of trace.split('\n')) {
    const kind = / gc=(\w+) /.exec(line)?.[1];
    if (!kind) continue;
    const isolate = /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1] ?? '?';
    let s = byIsolate.get(isolate);
    if (!s) byIsolate.set(isolate, (s = { isolate, scavenges: 0, scavengeMs: 0, promotedBytes: 0, markCompacts: 0, markCompactMs: 0 }));
    const pause = field(line, 'pause');
    if (kind === 's') {
      s.scavenges++;
      s.scavengeMs += pause;
      s.promotedBytes += field(line, 'promoted');
    } else {
      s.markCompacts++;
      s.markCompactMs += pause;
    }
  }
  return [...byIsolate.values()].sort((a, b) => b.scavengeMs + b.markCompactMs - (a.scavengeMs + a.markCompactMs));
}

/** One line per isolate: collections, their pauses, and bytes promoted per request (or delivery). */
export function describeGc(summaries: GcSummary[], requests: number, unit: string): string[] {
  return summaries.map((s) => `isolate ${s.isolate}: ${s.scavenges} scavenges (${s.scavengeMs.toFixed(0)} ms), promoted ${Math.round(s.promotedBytes / requests)} B a ${unit}; ` + `${s.markCompacts} mark-compacts (${s.markCompactMs.toFixed(0)} ms)`);
}

function field(line: string, name: string): number {
  const value = Number(new RegExp(` ${name}=([0-9.]+)`).exec(line)?.[1]);
  return Number.isFinite(value) ? value : 0;
}
