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
