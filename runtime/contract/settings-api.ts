// /v1 shapes of the instance settings, and the header that marks the UI's requests.

/** How the service was started, as the settings screen shows it (never the API key itself). */
export interface InstanceSettings {
  url: string;
  data_dir: string;
  /** Where the API key comes from: only a key kept in the data dir can be rotated here. */
  api_key_source: 'option' | 'env' | 'data_dir';
  /** The key's last four characters, to tell keys apart. */
  api_key_hint: string;
  /** Seconds between delivery attempts. */
  retry_schedule: readonly number[];
  delivery_timeout_seconds: number;
  disable_after_seconds: number;
  event_retention: number;
  /** Invocations kept per source. */
  invocation_retention: number;
  run_timeout_seconds: number;
  /** Resident memory limit of one component host, MB. */
  component_memory_mb: number;
  /** A source's host idle this long is stopped ("parked") until its next work, seconds (`--host-idle`). */
  host_idle_seconds: number;
  /** Most sources' hosts kept running at once (`--warm-hosts`). */
  warm_hosts: number;
  npm_registry: string | null;
  registry_dirs: string[];
  /** The settings that `PATCH /v1/settings` changes: where each value in force comes from. */
  editable: { [K in EditableSettingName]: EditableSettingState<EditableSettings[K]> };
}

/** Settings the UI changes (`PATCH /v1/settings`), saved in DATA_DIR/settings.json. */
export type EditableSettingName = 'retry_schedule' | 'delivery_timeout_seconds' | 'disable_after_seconds' | 'event_retention' | 'invocation_retention' | 'run_timeout_seconds' | 'host_idle_seconds' | 'warm_hosts';

/** The editable settings' values. */
export type EditableSettings = Pick<InstanceSettings, EditableSettingName>;

/** `PATCH /v1/settings`: the settings to change; null returns one to its default. */
export type SettingsPatch = { [K in EditableSettingName]?: EditableSettings[K] | null };

/** Where an editable setting's value in force comes from, and when a change of it applies. */
export interface EditableSettingState<V> {
  /** `flag`: given at start (`spout serve` flag or environment), which wins over the saved value for this run. */
  origin: 'default' | 'saved' | 'flag';
  /** The value saved in the data dir (used from the next start without the flag); null when none. */
  saved: V | null;
  /** A saved change applies only after a restart (false: it applies at once, unless a flag overrides it). */
  restart_required: boolean;
  /** The `spout serve` flag that sets it at start. */
  flag: string;
}

/** The editable settings of a service started without their flags and with none saved. */
export const SETTING_DEFAULTS: Readonly<EditableSettings> = {
  // Svix's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
  retry_schedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
  delivery_timeout_seconds: 15,
  // Svix's: a webhook whose every attempt failed for 5 days is disabled.
  disable_after_seconds: 5 * 24 * 3600,
  event_retention: 10_000,
  invocation_retention: 1000,
  run_timeout_seconds: 60,
  host_idle_seconds: 300,
  warm_hosts: 8,
};

/** Allowed values of each numeric editable setting (inclusive); a retry schedule has 1 to 20 waits within `retry_wait_seconds`. */
export const SETTING_RANGES = {
  retry_wait_seconds: { min: 0, max: 604_800 },
  retry_schedule_length: { min: 1, max: 20 },
  delivery_timeout_seconds: { min: 0.1, max: 3600 },
  disable_after_seconds: { min: 0, max: 31_536_000 },
  event_retention: { min: 1, max: 1_000_000 },
  invocation_retention: { min: 1, max: 100_000 },
  run_timeout_seconds: { min: 1, max: 3600 },
  host_idle_seconds: { min: 1, max: 86_400 },
  warm_hosts: { min: 1, max: 1000 },
} as const;

/**
 * The header the UI sends on every /v1 call: a write made with the browser session cookie is
 * refused without it (no page of another origin can add a header without a CORS preflight).
 */
export type UiRequestHeader = 'x-spout-ui';

/** `POST /v1/ui/sign-in-links`: a new one-time link that signs one browser in to the UI. */
export interface SignInLinkView {
  /** The UI address with `?token=`, on the origin the request was sent to. */
  url: string;
  /** The one-time token alone (`spt_…`), for a client that knows the origin better. */
  token: string;
  expires_at: string;
}
