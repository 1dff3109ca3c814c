import { UsageError } from './usage';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * A time option as epoch seconds: epoch seconds as given, an ISO 8601 time, or an age such as
 * `30m`, `2h`, `1d` (that long ago).
 */
export function timeOption(name: string, text: string | undefined, now = Date.now()): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const age = /^(\d+(?:\.\d+)?)\s*([smhd])$/.exec(trimmed);
  if (age) return Math.floor(now / 1000 - Number(age[1]) * (UNITS[age[2] as string] as number));
  const ms = Date.parse(trimmed);
  if (!Number.isNaN(ms)) return Math.floor(ms / 1000);
  throw new UsageError(`--${name}: "${text}" is not a time; give epoch seconds, an ISO time (2026-11-28T09:00:00Z) or an age (30m, 2h, 1d)`);
}
