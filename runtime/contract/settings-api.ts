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
}

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
