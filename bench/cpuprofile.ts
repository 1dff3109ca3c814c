// Reads a `.cpuprofile` (V8's format, from `node --cpu-prof`) into the tables bench/profile.ts
// prints: self time by function, inclusive time by function, and for the busiest native calls
// (writes, syncs, opens) the first project function above them, and each project function's own
// time with that of the library and native code it called. Positions in dist/'s bundles are
// mapped back to the TypeScript sources through their source maps.
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, SourceMap | null>();

function sourceMapOf(url: string): SourceMap | null {
  if (!maps.has(url)) {
    let map: SourceMap | null = null;
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
    } catch {
      map = null; // not a file of ours, or built without a map
    }
    maps.set(url, map);
  }
  return maps.get(url) ?? null;
}

/** `name file:line`, the file and line in the TypeScript source when the bundle has a map (0-based line and column, as V8 gives them). */
export function frameName(frame: ProfileNode['callFrame']): { key: string; file: string; ours: boolean } {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return { key: name, file: name.startsWith('(') ? name : '(native)', ours: false };
  const map = frame.url.startsWith('file:') ? sourceMapOf(frame.url) : null;
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  if (entry?.originalSource) {
    const source = entry.originalSource.replace(/^.*?\/(runtime|node_modules)\//, '$1/');
    return { key: `${name} ${source}:${(entry.originalLine ?? 0) + 1}`, file: source, ours: source.startsWith('runtime/') };
  }
  const base = path.basename(frame.url);
  return { key: `${name} ${base}:${frame.lineNumber + 1}`, file: base, ours: false };
}

/** Self time and inclusive time by function and file, as percentages of the busy (non-idle) time. */
export function summarise(file: string, count = 25): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const names = new Map(profile.nodes.map((n) => [n.id, frameName(n.callFrame)]));
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byFile = new Map<string, number>();
  const callers = new Map<string, number>();
  const nearest = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = names.get(id)!;
    if (leaf.key === '(idle)') {
      idle += dt;
      return;
    }
    busy += dt;
    self.set(leaf.key, (self.get(leaf.key) ?? 0) + dt);
    byFile.set(leaf.file, (byFile.get(leaf.file) ?? 0) + dt);
    const seen = new Set<string>();
    let ourCaller: string | null = null;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = names.get(at)!;
      if (!seen.has(n.key)) {
        seen.add(n.key);
        inclusive.set(n.key, (inclusive.get(n.key) ?? 0) + dt);
      }
      if (!ourCaller && n.ours && at !== id) ourCaller = n.key;
    }
    const owner = leaf.ours ? leaf.key : (ourCaller ?? `${leaf.key} (outside the project)`);
    nearest.set(owner, (nearest.get(owner) ?? 0) + dt);
    if (!leaf.ours && ourCaller) {
      const key = `${leaf.key.split(' ')[0]}  ←  ${ourCaller}`;
      callers.set(key, (callers.get(key) ?? 0) + dt);
    }
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, t]) => `${((t / busy) * 100).toFixed(1).padStart(5)}%  ${key}`);
  return [
    `busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms; percentages of busy time`,
    '  self time:',
    ...top(self, count),
    '  inclusive time (project functions):',
    ...top(new Map([...inclusive].filter(([k]) => k.includes(' runtime/'))), count),
    '  self time with the library and native calls it made, by project function:',
    ...top(nearest, count),
    '  library and native self time, by the project function above it:',
    ...top(callers, count),
    '  self time by file:',
    ...top(byFile, 12),
  ];
}
