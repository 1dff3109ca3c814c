import cron, { type ScheduledTask } from 'node-cron';

/** A timer prop's schedule: a fixed interval, or a cron expression (UTC unless a timezone is given). */
export type TimerSpec = { intervalSeconds: number } | { cron: string; timezone?: string };

/** Longest accepted interval: ten years, so anchor + k·interval stays exact in a double. */
const MAX_INTERVAL_SECONDS = 10 * 365 * 24 * 60 * 60;

const CRON_EXAMPLE = 'use 5 fields such as "*/15 * * * *"';
const SHAPES = '{ intervalSeconds: 900 } or { cron: "*/15 * * * *" } (optionally with timezone: "America/New_York")';

/** Display label and numeric range of each field of node-cron's 6-field form (seconds first). */
const CRON_FIELDS: Record<string, { label: string; min: number; max: number }> = {
  second: { label: 'second', min: 0, max: 59 },
  minute: { label: 'minute', min: 0, max: 59 },
  hour: { label: 'hour', min: 0, max: 23 },
  dayOfMonth: { label: 'day of month', min: 1, max: 31 },
  month: { label: 'month', min: 1, max: 12 },
  dayOfWeek: { label: 'day of week', min: 0, max: 7 },
};

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `${JSON.stringify(value)} (a string)`;
  if (typeof value === 'number') return String(value);
  return `a ${typeof value}`;
}

/** Turns node-cron's first validation error into a reason a user can act on. */
function cronReason(expression: string): string | null {
  const result = cron.validateDetailed(expression);
  if (result.valid) return null;
  const error = result.errors[0];
  if (!error) return 'node-cron rejected it';
  const field = CRON_FIELDS[error.field];
  if (!field) {
    const count = /expected 5 or 6 fields but got (\d+)/.exec(error.message);
    if (count) return `it has ${count[1]} fields; cron takes 5, or 6 with seconds first`;
    if (/illegal characters/.test(error.message)) return 'it contains characters other than digits, letters, spaces and * / , - # ?';
    return error.message;
  }
  const value = error.value ?? '';
  // node-cron reports an impossible date (31 2) against the day-of-month field.
  if (/impossible day of month/.test(error.message)) return `day of month ${value} never occurs in the given month`;
  const outOfRange = (value.match(/\d+/g) ?? []).map(Number).find((n) => n < field.min || n > field.max);
  if (outOfRange !== undefined) return `${field.label} ${outOfRange} is out of range ${field.min}-${field.max}`;
  return `${field.label} ${JSON.stringify(value)} is not valid`;
}

function timezoneKnown(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** A node-cron task used only to compute match times; it is never started, so it never runs. */
export function cronTask(spec: { cron: string; timezone?: string }): ScheduledTask {
  // Pipedream evaluates cron timers in UTC unless told otherwise; node-cron would use local time.
  return cron.createTask(spec.cron, () => undefined, { timezone: spec.timezone ?? 'UTC' });
}

/**
 * The first match of `task` strictly after `afterMs`, or null if none within node-cron's
 * 100-year search. node-cron walks from the global clock (`new Date()`), not from `afterMs`.
 */
export function cronNextAfter(task: ScheduledTask, afterMs: number): number | null {
  try {
    // Two matches cover the case where the global clock still sits on the match just fired.
    const next = task.getNextRuns(2).find((d) => d.getTime() > afterMs);
    return next ? next.getTime() : null;
  } catch {
    return null;
  }
}

/** Validates a timer prop's default or configured value; `where` names the prop, e.g. "prop `timer`". */
export function parseTimerSpec(value: unknown, where: string): { spec: TimerSpec } | { problem: string } {
  const problem = (text: string) => ({ problem: `${where}: ${text}` });
  if (value === undefined || value === null) return problem(`no schedule given; give ${SHAPES}`);
  if (typeof value !== 'object' || Array.isArray(value)) return problem(`expected ${SHAPES}, not ${describe(value)}`);
  const record = value as Record<string, unknown>;
  const hasInterval = record.intervalSeconds !== undefined;
  const hasCron = record.cron !== undefined;
  if (hasInterval && hasCron) return problem('give either intervalSeconds or cron, not both');
  if (!hasInterval && !hasCron) {
    const keys = Object.keys(record);
    return problem(`neither intervalSeconds nor cron is set${keys.length ? ` (found ${keys.join(', ')})` : ''}; give ${SHAPES}`);
  }
  const allowed = hasInterval ? ['intervalSeconds'] : ['cron', 'timezone'];
  const unknown = Object.keys(record).filter((k) => !allowed.includes(k));
  if (unknown.length) {
    const what = unknown.length === 1 ? `key ${unknown[0]}` : `keys ${unknown.join(', ')}`;
    const why = hasInterval && unknown.includes('timezone') ? ' (timezone applies only to cron timers)' : '';
    return problem(`unknown ${what}${why}; a timer takes ${SHAPES}`);
  }

  if (hasInterval) {
    const n = record.intervalSeconds;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
      return problem(`intervalSeconds must be a whole number of seconds ≥ 1, not ${describe(n)}`);
    }
    if (n > MAX_INTERVAL_SECONDS) return problem(`intervalSeconds must be at most ${MAX_INTERVAL_SECONDS} (ten years), not ${n}`);
    return { spec: { intervalSeconds: n } };
  }

  const expression = record.cron;
  if (typeof expression !== 'string') return problem(`cron must be a string such as "*/15 * * * *", not ${describe(expression)}`);
  if (expression.trim() === '') return problem(`cron is empty; ${CRON_EXAMPLE}`);
  const reason = cronReason(expression);
  if (reason) return problem(`cron ${JSON.stringify(expression)} is not a valid cron expression (${reason}); ${CRON_EXAMPLE}`);
  const timezone = record.timezone;
  if (timezone !== undefined) {
    if (typeof timezone !== 'string' || !timezoneKnown(timezone)) {
      return problem(`unknown timezone ${typeof timezone === 'string' ? JSON.stringify(timezone) : describe(timezone)}; use an IANA name such as "UTC" or "America/New_York"`);
    }
  }
  const spec: TimerSpec = timezone === undefined ? { cron: expression } : { cron: expression, timezone: timezone as string };
  // A pattern can pass field validation yet never match (node-cron then finds nothing in 100 years).
  const task = cronTask(spec);
  try {
    if (cronNextAfter(task, -Infinity) === null) return problem(`cron ${JSON.stringify(expression)} never fires; ${CRON_EXAMPLE}`);
  } finally {
    void task.destroy();
  }
  return { spec };
}

/** The event a timer source's `run` receives: the firing time in epoch seconds plus the schedule. */
export function timerEvent(spec: TimerSpec, firedAtMs: number): Record<string, unknown> {
  const timestamp = Math.floor(firedAtMs / 1000);
  return 'intervalSeconds' in spec ? { timestamp, interval_seconds: spec.intervalSeconds } : { timestamp, cron: spec.cron };
}
