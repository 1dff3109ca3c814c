// Editing the stream's filter text (the language of docs/api.md) from its controls: a chip or the
// time range replaces its own key's term and leaves what was typed.

const terms = (filter: string) => filter.split(/\s+/).filter(Boolean);

/** The value of the first `key:` term (not negated), or null. */
export function termValue(filter: string, key: string): string | null {
  const term = terms(filter).find((t) => t.startsWith(`${key}:`));
  return term ? term.slice(key.length + 1) : null;
}

/** `filter` with its `key:` terms replaced by `key:value` (or removed, for null). */
export function withTerm(filter: string, key: string, value: string | null): string {
  const kept = terms(filter).filter((t) => !t.startsWith(`${key}:`));
  if (value !== null) kept.push(`${key}:${value}`);
  return kept.join(' ');
}

/** The time-range presets: the `since:` they write. */
export const RANGES = [
  { value: '15m', label: 'Last 15 min' },
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 h' },
] as const;

/** Local `YYYY-MM-DDTHH:MM:SS` of a `datetime-local` input as the ISO time the filter takes (empty for none). */
export function isoOfLocal(local: string): string | null {
  if (!local) return null;
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** An ISO time of the filter as a `datetime-local` value (empty when it is a duration like `15m` or absent). */
export function localOfIso(iso: string | null): string {
  if (!iso?.includes('T')) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
