// Headers as the UI edits them: one `Name: value` per line.

/** Headers as lines of `Name: value` (a repeated header on several lines). */
export function headerLines(headers: Record<string, string | string[]>): string {
  return Object.entries(headers)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`))
    .join('\n');
}

/** Lines of `Name: value` as headers; a name on several lines keeps every value. Throws on a line without a name. */
export function parseHeaderLines(text: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const at = line.indexOf(':');
    if (at <= 0) throw new Error(`Headers, line ${i + 1}: write it as "Name: value"`);
    const name = line.slice(0, at).trim();
    const value = line.slice(at + 1).trim();
    const had = headers[name];
    headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return headers;
}
