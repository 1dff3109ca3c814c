// The order runs are listed in: by the time they started, which differs from the order a store
// keeps them in (the order they ended) when one started before another ended.

/** Ids in order: a shorter one first (`<ms>-9` before `<ms>-10`), else as text. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Runs oldest first by start, ties by id. Those kept in the order they ended are mostly in order
 * already: the list is checked first and used as it is, else sorted.
 */
export function byStart<R extends { started_at: number; id: string }>(runs: readonly R[]): readonly R[] {
  const before = (a: R, b: R) => a.started_at - b.started_at || compareIds(a.id, b.id);
  for (let i = 1; i < runs.length; i++) if (before(runs[i - 1] as R, runs[i] as R) > 0) return [...runs].sort(before);
  return runs;
}
