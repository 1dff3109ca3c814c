/** Epoch seconds as local date and time; null as a dash. */
export const when = (s: number | null) => (s === null ? '—' : new Date(s * 1000).toLocaleString());

/** Parses "5, 300, 1800" into seconds; empty text is the service's schedule (null). */
export function parseSchedule(text: string): number[] | null {
  if (text.trim() === '') return null;
  return text.split(',').map((p) => Number(p.trim()));
}

/** A time as a datetime-local input value. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date().getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** Seconds in the largest whole unit: 5 → "5 s", 300 → "5 min", 7200 → "2 h", 432000 → "5 d". */
export function seconds(n: number): string {
  for (const [size, unit] of [[86_400, 'd'], [3600, 'h'], [60, 'min']] as const) if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  return `${n} s`;
}
