// The settings the UI changes (GET/PATCH /v1/settings: retry schedule, delivery timeout, disable
// after, retention, run timeout, host parking), saved in DATA_DIR/settings.json. A value given at
// start (a `spout serve` flag or its environment variable) wins over the saved one for that run;
// listeners hear of each change of a value in force, which the parts that use it apply at once.
import path from 'node:path';
import { z } from 'zod';
import { type EditableSettingName, type EditableSettings, type InstanceSettings, SETTING_DEFAULTS, SETTING_RANGES, type SettingsPatch } from '../contract/settings-api';
import type { ProblemSink } from '../lib/file-problems';
import { readStateFile, writeStateFileSync } from '../lib/state-file';

/** The flag that sets each editable setting at start. */
const FLAGS: Record<EditableSettingName, string> = {
  retry_schedule: '--retry-schedule',
  delivery_timeout_seconds: '--delivery-timeout',
  disable_after_seconds: '--disable-after',
  event_retention: '--event-retention',
  invocation_retention: '--invocation-retention',
  run_timeout_seconds: '--run-timeout',
  host_idle_seconds: '--host-idle',
  warm_hosts: '--warm-hosts',
};

/** Settings whose change waits for a restart: none, each is applied by the part that uses it (docs/api.md). */
const RESTART_REQUIRED: ReadonlySet<EditableSettingName> = new Set();

const range = (name: keyof typeof SETTING_RANGES, unit: string, whole: boolean) => {
  const { min, max } = SETTING_RANGES[name];
  const message = `must be ${whole ? 'a whole number' : 'a number'} of ${unit} from ${min} to ${max}`;
  const n = z.number({ message }).min(min, message).max(max, message);
  return whole ? n.int(message) : n;
};

const waits = SETTING_RANGES.retry_schedule_length;
const wait = SETTING_RANGES.retry_wait_seconds;
const scheduleMessage = `must be a list of ${waits.min} to ${waits.max} waits in seconds, each from ${wait.min} to ${wait.max}, e.g. [1, 60, 300]`;

/** Each editable setting's allowed values: a bad one is refused naming the setting and its range. */
export const settingSchemas = {
  retry_schedule: z
    .array(range('retry_wait_seconds', 'seconds', false), { message: scheduleMessage })
    .min(waits.min, scheduleMessage)
    .max(waits.max, scheduleMessage),
  delivery_timeout_seconds: range('delivery_timeout_seconds', 'seconds', false),
  disable_after_seconds: range('disable_after_seconds', 'seconds (0: never)', true),
  event_retention: range('event_retention', 'events', true),
  invocation_retention: range('invocation_retention', 'runs', true),
  run_timeout_seconds: range('run_timeout_seconds', 'seconds', false),
  host_idle_seconds: range('host_idle_seconds', 'seconds', false),
  warm_hosts: range('warm_hosts', 'hosts', true),
} satisfies Record<EditableSettingName, z.ZodType>;

/** `PATCH /v1/settings`'s body: any of the settings, null for back to the default; nothing else. */
export const settingsPatchSchema = z.strictObject(Object.fromEntries(Object.entries(settingSchemas).map(([name, schema]) => [name, schema.nullable().optional()])) as { [K in EditableSettingName]: z.ZodOptional<z.ZodNullable<(typeof settingSchemas)[K]>> });

/** Saved values of a file: those still valid (a range narrowed by a later version drops a value, not the file). */
function parseSaved(text: string): Partial<EditableSettings> {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const saved: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(settingSchemas)) {
    const parsed = schema.safeParse(raw[name]);
    if (parsed.success) saved[name] = parsed.data;
  }
  return saved as Partial<EditableSettings>;
}

/** The editable settings as `startService` takes them (its options): those given are the start's flags. */
export interface SettingOptions {
  /** Seconds between delivery attempts. */
  retrySchedule?: readonly number[];
  /** Webhook request timeout. Default 15 s. */
  deliveryTimeoutMs?: number;
  /** A webhook whose delivery attempts have all failed for this long is disabled; 0 never. Default 5 days. */
  disableAfterMs?: number;
  /** Events kept per source. Default 10 000. */
  eventRetention?: number;
  /** Invocations kept per source (and per action). Default 1000. */
  invocationRetention?: number;
  /** Per-run limit of component code. Default 60 s. */
  runTimeoutMs?: number;
  /** A deployed source's host idle this long is stopped ("parked"), started again by its next work. Default 300 s. */
  hostIdleSeconds?: number;
  /** Most sources' hosts kept running; the least recently used idle ones park first. Default 8. */
  warmHosts?: number;
}

const seconds = (ms: number | undefined) => (ms === undefined ? undefined : ms / 1000);

export class ServiceSettings {
  private saved: Partial<EditableSettings>;
  private readonly listeners = new Set<(changed: Partial<EditableSettings>) => void>();

  private constructor(
    private readonly file: string,
    private readonly defaults: EditableSettings,
    /** Values given at start by flag or environment. */
    private readonly flags: Partial<EditableSettings>,
    report?: ProblemSink,
  ) {
    this.saved = readStateFile(file, parseSaved, report).value ?? {};
  }

  /** Reads DATA_DIR/settings.json (none: the defaults); the values `options` give (the start's flags) win. */
  static open(dataDir: string, options: SettingOptions, report?: ProblemSink): ServiceSettings {
    const o = options;
    const flags = {
      retry_schedule: o.retrySchedule,
      delivery_timeout_seconds: seconds(o.deliveryTimeoutMs),
      disable_after_seconds: seconds(o.disableAfterMs),
      event_retention: o.eventRetention,
      invocation_retention: o.invocationRetention,
      run_timeout_seconds: seconds(o.runTimeoutMs),
      host_idle_seconds: o.hostIdleSeconds,
      warm_hosts: o.warmHosts,
    };
    const given = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) as Partial<EditableSettings>;
    return new ServiceSettings(path.join(dataDir, 'settings.json'), SETTING_DEFAULTS, given, report);
  }

  /** The delivery thread's rules now. */
  deliveryRules(): { retrySchedule: readonly number[]; timeoutMs: number; disableAfterMs: number } {
    const s = this.current();
    return { retrySchedule: s.retry_schedule, timeoutMs: s.delivery_timeout_seconds * 1000, disableAfterMs: s.disable_after_seconds * 1000 };
  }

  /** When sources' hosts park, now. */
  parkingRules(): { idleMs: number; warmHosts: number } {
    const s = this.current();
    return { idleMs: s.host_idle_seconds * 1000, warmHosts: s.warm_hosts };
  }

  /** The values in force: a flag's, else the saved one, else the default. */
  current(): EditableSettings {
    return { ...this.defaults, ...this.saved, ...this.flags };
  }

  /** Where each value in force comes from, its saved value, and whether a change of it waits for a restart. */
  states(): InstanceSettings['editable'] {
    const states: Record<string, unknown> = {};
    for (const name of Object.keys(FLAGS) as EditableSettingName[]) {
      states[name] = {
        origin: name in this.flags ? 'flag' : name in this.saved ? 'saved' : 'default',
        saved: this.saved[name] ?? null,
        restart_required: RESTART_REQUIRED.has(name),
        flag: FLAGS[name],
      };
    }
    return states as InstanceSettings['editable'];
  }

  /** Saves a checked patch (null: back to the default), then tells the listeners of the values in force that changed. */
  update(patch: SettingsPatch): void {
    const before = this.current();
    const next: Record<string, unknown> = { ...this.saved };
    for (const [name, value] of Object.entries(patch)) {
      if (value === null) delete next[name];
      else if (value !== undefined) next[name] = value;
    }
    writeStateFileSync(this.file, `${JSON.stringify(next, null, 2)}\n`);
    this.saved = next as Partial<EditableSettings>;
    const after = this.current();
    const changed = Object.fromEntries(Object.entries(after).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(before[name as EditableSettingName])));
    if (Object.keys(changed).length === 0) return;
    for (const listener of this.listeners) listener(changed as Partial<EditableSettings>);
  }

  /** Calls `listener` with the values in force that a change changed. */
  onChange(listener: (changed: Partial<EditableSettings>) => void): void {
    this.listeners.add(listener);
  }
}
