/** Seconds to wait after failed attempt number `attempt` (1-based), with ±20% jitter; null when retries are used up. */
export function nextRetryDelayMs(schedule: readonly number[], attempt: number, random = Math.random): number | null {
  const seconds = schedule[attempt - 1];
  if (seconds === undefined) return null;
  // Jitter spreads out retries of messages that failed together, so a recovering receiver is not hit all at once.
  return Math.round(seconds * 1000 * (0.8 + 0.4 * random()));
}

/** The longest wait a receiver's `Retry-After` can impose before the next attempt. */
export const RETRY_AFTER_CAP_MS = 60 * 60 * 1000;

/** Statuses whose `Retry-After` is honoured. */
export const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * The wait a `Retry-After` value asks for (delay-seconds or an HTTP date), capped at an hour;
 * null when absent or unreadable. A date in the past asks for no wait.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date names its day and month; Date.parse alone would read "-5" as a year.
    const at = /[a-z]{3}/i.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.round(Math.min(Math.max(ms, 0), RETRY_AFTER_CAP_MS));
}

/**
 * The delay before the next scheduled attempt after a failed one: the schedule's (with jitter),
 * lengthened to what a 429 or 503 asked for with `Retry-After` (at most an hour). Retry-After never
 * shortens a delay and never adds an attempt: null (retries used up) stays null.
 */
export function retryDelayMs(schedule: readonly number[], attempt: number, status: number | null, retryAfter: string | undefined): number | null {
  const delay = nextRetryDelayMs(schedule, attempt);
  if (delay === null || status === null || !RETRY_AFTER_STATUSES.has(status)) return delay;
  return Math.max(delay, retryAfterMs(retryAfter) ?? 0);
}

/** Longest retry schedule entry a webhook may set: a week. */
export const MAX_RETRY_SECONDS = 7 * 24 * 3600;

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/**
 * Parses a duration such as `90`, `1.5s`, `30m`, `12h` or `5d` into seconds; throws a message
 * naming the problem.
 */
export function parseDurationSeconds(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/i.exec(text);
  if (!m) throw new Error(`"${text}" is not a duration; give seconds (e.g. 90) or a number with s, m, h or d (e.g. 30m, 5d)`);
  return Number(m[1]) * (UNITS[(m[2] as string).toLowerCase()] as number);
}
