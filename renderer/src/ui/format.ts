const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Epoch ms as local `YYYY-MM-DD HH:MM:SS`: one 24-hour format everywhere (as the CLI prints), whatever the locale. */
export function dateTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${clockTime(ms)}`;
}

/** Epoch ms as local `HH:MM:SS`, with `.mmm` when `millis`. */
export function clockTime(ms: number, millis = false): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${millis ? `.${pad(d.getMilliseconds(), 3)}` : ''}`;
}

/** Epoch seconds or ms (values below 1e12 are seconds) as local date and time; null as a dash. */
export const when = (t: number | null) => (t === null ? '—' : dateTime(t < 1e12 ? t * 1000 : t));

/** Parses "5, 300, 1800" into seconds; empty text is the service's schedule (null). */
export function parseSchedule(text: string): number[] | null {
  if (text.trim() === '') return null;
  return text.split(',').map((p) => Number(p.trim()));
}

/** Seconds in the largest whole unit: 5 → "5 s", 300 → "5 min", 7200 → "2 h", 432000 → "5 d". */
export function seconds(n: number): string {
  for (const [size, unit] of [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'min'],
  ] as const)
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  return `${n} s`;
}

/** How many bytes a body held as text in `encoding` stands for (base64 counted without its padding). */
export function bodyBytes(text: string, encoding: 'utf8' | 'base64'): number {
  return encoding === 'base64' ? Math.floor((text.replace(/=+$/, '').length * 3) / 4) : new TextEncoder().encode(text).length;
}
