// Times and lengths of time as a test writes them: `now: "2026-01-01T00:00:00Z"`, `advance("15m")`.
import type { DurationInput, TimeInput } from './public-api';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const PART = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)/gy;

/** Milliseconds in a duration: a number of ms, or text such as `15m`, `90s`, `1h30m`, `2d`. */
export function durationMs(input: DurationInput): number {
  if (typeof input === 'number') {
    if (Number.isFinite(input) && input >= 0) return input;
    throw new RangeError(`clock.advance(${input}): a duration is a number of milliseconds of 0 or more, or text such as "15m"`);
  }
  const text = String(input).replace(/\s+/g, '');
  let total = 0;
  let end = 0;
  PART.lastIndex = 0;
  for (let m = PART.exec(text); m; m = PART.exec(text)) {
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    end = PART.lastIndex;
  }
  if (text === '' || end !== text.length) throw new RangeError(`clock.advance(${JSON.stringify(input)}): not a duration; write a number of milliseconds or text such as "500ms", "90s", "15m", "1h30m", "2d"`);
  return total;
}

/** Epoch ms of a time given as ISO text, epoch ms or a Date. */
export function timeMs(input: TimeInput): number {
  const ms = input instanceof Date ? input.getTime() : typeof input === 'number' ? input : Date.parse(input);
  if (!Number.isFinite(ms)) throw new RangeError(`now: ${JSON.stringify(input)} is not a time; give ISO text such as "2026-01-01T00:00:00Z", epoch milliseconds or a Date`);
  return ms;
}
