// How deeply a parsed JSON value nests, asked without recursion: a document deep enough to
// overflow the stack of JSON.stringify (or of any recursive walk) must be refused, not walked.

/** Deepest nesting of arrays and objects a request body may have (docs/security.md). */
export const MAX_JSON_DEPTH = 256;

/** Whether `value` nests arrays and objects more than `limit` levels deep (a scalar is level 0). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** What a caller whose body nests too deep is told: the limit and the fix. */
export function tooDeepMessage(what: string): string {
  return `${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, Spout's limit (docs/security.md): send a shallower document`;
}
