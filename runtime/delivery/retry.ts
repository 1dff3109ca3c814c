/** Seconds to wait after failed attempt number `attempt` (1-based), with ±20% jitter; null when retries are used up. */
export function nextRetryDelayMs(schedule: readonly number[], attempt: number, random = Math.random): number | null {
  const seconds = schedule[attempt - 1];
  if (seconds === undefined) return null;
  // Jitter spreads out retries of messages that failed together, so a recovering receiver is not hit all at once.
  return Math.round(seconds * 1000 * (0.8 + 0.4 * random()));
}
