/** Bad command-line usage: reported with a hint and exit status 2. */
export class UsageError extends Error {}

/** Edit distance of two short words (commands, option names). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length] as number;
}

/** The candidate closest to `word` (a typo of it, or one it starts), if any is close enough. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const d = name.startsWith(word) || word.startsWith(name) ? 1 : distance(word, name);
    if (d <= Math.max(2, Math.floor(name.length / 3)) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}
