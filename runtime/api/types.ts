// Shapes of /v1 responses, shared with the renderer (types only: the renderer imports no runtime code).

export interface PageInfo {
  total_count: number;
  count: number;
  start_cursor: string | null;
  end_cursor: string | null;
}

export interface ListResponse<T> {
  page_info: PageInfo;
  data: T[];
}

export interface WebhookView {
  id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  /** Why delivery disabled it (410 Gone, failing too long); null when active or disabled by hand. */
  disabled_reason: string | null;
  /** Seconds between delivery attempts for this webhook; null uses the service's schedule. */
  retry_schedule: number[] | null;
  /** Present only in the response that created the webhook. */
  signing_secret?: string;
  /** How its deliveries are going (list and read): epoch seconds, null for never. */
  health?: {
    state: 'healthy' | 'failing' | 'disabled' | 'idle';
    last_success_at: number | null;
    failing_since: number | null;
    pending: number;
    failing: number;
    failed: number;
  };
  created_at: number;
  updated_at: number;
}

export interface SubscriptionView {
  id: string;
  emitter_id: string;
  listener_id: string;
  event_name: string | null;
  created_at: number;
}

export interface SourceView {
  id: string;
  component_id: string;
  component_key: string | null;
  name: string;
  name_slug: string;
  /** User inputs as configured; an HTTP interface prop shows `{endpoint_url}`. */
  configured_props: Record<string, unknown>;
  /** Props `additionalProps` added for the configured values (only for components that have it). */
  dynamic_props?: Array<Record<string, unknown> & { name: string; type: string }>;
  /** The source's own run timeout; null runs with the service's. */
  timeout_seconds: number | null;
  /** Each timer prop's schedule and next firing (epoch ms; null while inactive). */
  timers: Record<string, { schedule: { intervalSeconds: number } | { cron: string; timezone?: string }; next_run_at: number | null }>;
  active: boolean;
  /** How its outgoing HTTP calls are served: live, saved to its cassette, or answered from it. */
  network_mode: NetworkMode;
  /** Folders its component may read (`read`) or read and write (`write`) beyond the defaults. */
  permissions: { read: string[]; write: string[] };
  /** Why the service deactivated it (its component host kept crashing); null when active or deactivated by hand. */
  deactivated_reason: string | null;
  /** Required props this inactive source has no value for yet; give them to activate it. */
  missing_props?: string[];
  created_at: number;
  updated_at: number;
  /** The code the source runs and its file name: only in the single read (`GET /v1/sources/{id}`). */
  code?: string;
  filename?: string;
}

export interface EventSummary {
  id: string;
  indexed_at_ms: number;
  /** The emitted data; a string preview with `truncated: true` when over 1 KB and not expanded. */
  event: unknown;
  truncated?: boolean;
  /** The recorded run that emitted it (`GET /v1/invocations/{id}`); null for events older than run recording. */
  invocation_id: string | null;
  metadata: {
    emit_id: string;
    id: string | number;
    name: string | null;
    summary: string | null;
    emitter_id: string;
    ts: number;
  };
}

export interface LogLineView {
  id: string;
  ts: number;
  level: string;
  message: string;
  invocation_id: string | null;
}

export interface MessageView {
  id: string;
  event_id: string;
  emitter_id: string;
  event_name: string | null;
  /** The event's summary and the emitter's name, for people reading the list (null when gone). */
  event_summary?: string | null;
  emitter_name?: string | null;
  status: 'pending' | 'delivered' | 'failing' | 'failed';
  attempts: number;
  next_attempt_at: number | null;
  created_at: number;
}

export interface AttemptView {
  id: string;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  /** Response headers, names in lower case; null when there was no response. */
  response_headers: Record<string, string> | null;
  error: string | null;
  trigger: 'scheduled' | 'manual';
  created_at: number;
}

/** The answer to a signing secret rotation. */
export interface SecretRotationView {
  /** The new secret; the old one keeps signing, alongside it, until `previous_secret_expires_at`. */
  signing_secret: string;
  /** Epoch seconds; null when the old secret stopped signing at once (`grace_seconds: 0`). */
  previous_secret_expires_at: number | null;
}

export interface AccountView {
  id: string;
  app: string;
  name: string;
  /** The credential names, each value masked. */
  credentials: Record<string, string>;
  created_at: number;
}

export interface ComponentView {
  id: string;
  key: string | null;
  name: string;
  version: string;
  type: 'source' | 'action';
  description: string | null;
  code_hash: string;
  configurable_props: Array<Record<string, unknown> & { name: string; type: string }>;
  /** Rules of the spec or the registry the component does not follow; it loads and runs anyway. */
  warnings: Warning[];
  created_at: number;
  /** The module text and its file name: only in the single read (`GET /v1/components/{id}`). */
  code?: string;
  filename?: string;
}

/** A finding that does not stop a component: where it is and what to do. */
export interface Warning {
  path: string;
  message: string;
}

export interface DataStoreView {
  id: string;
  name: string;
  /** Live (unexpired) records. */
  record_count: number;
  created_at: number;
}

export interface DataStoreRecordView {
  key: string;
  /** Any JSON value. */
  value: unknown;
  /** Epoch seconds (fractional for sub-second TTLs) after which the record is gone; null never expires. */
  expires_at: number | null;
}

/** A workflow (`p_…`); secret step props show as the mask, an HTTP trigger carries its URL. */
export interface WorkflowView {
  id: string;
  name: string;
  trigger:
    | { type: 'source'; source_id: string; event_name?: string | null }
    | { type: 'http'; endpoint_id: string; custom_response: boolean; endpoint_url: string }
    | { type: 'timer'; schedule: TimerSchedule }
    | { type: 'manual' };
  steps: Array<{ name: string; component_id: string; configured_props: Record<string, unknown> }>;
  active: boolean;
  created_at: number;
  updated_at: number;
}

/** A console line of an action run, a workflow step or a configuration call. */
export interface ConsoleLine {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  message: string;
}

/** What a step threw, with its stack. */
export interface StepError {
  name: string;
  message: string;
  stack: string | null;
}

/** A `$.send` as recorded (`GET /v1/outbox`); HTTP sends carry what came of them. */
export interface SendView {
  id: string;
  kind: 'http' | 'email' | 's3' | 'sse';
  config: unknown;
  /** Who sent it: an action run id. */
  run_id: string;
  created_at: number;
  result?: { status: number } | { error: string };
}

/** The answer to `POST /v1/actions/run`: everything one run of an action produced. */
export interface ActionRunView {
  id: string;
  /** The run's record (`GET /v1/invocations/{id}`). */
  invocation_id: string;
  /** Exports by name, `$summary` among them. */
  exports: Record<string, unknown>;
  /** Observations: the console lines of the run. */
  os: ConsoleLine[];
  ret: unknown;
  error: StepError | null;
  /** Set when the step ended with `$.flow.exit(reason)`. */
  exit: { reason: string | null } | null;
  /** What `$.respond` sent (a workflow's HTTP caller would get it). */
  response: { status: number; headers: Record<string, string>; body: string | null } | null;
  /** Events sent with `$.send.emit`. */
  emitted: unknown[];
  sends: SendView[];
  /** The component's warnings and those of its configuration (an app without an account); in `POST /v1/actions/run` answers. */
  warnings?: Warning[];
}

export type TimerSchedule = { intervalSeconds: number } | { cron: string; timezone?: string };

/** A workflow trigger as given to create, update or import a workflow. */
export type WorkflowTriggerInput =
  | { type: 'source'; source_id: string; event_name?: string | null }
  | { type: 'http'; custom_response?: boolean }
  | { type: 'timer'; schedule: unknown }
  | { type: 'manual' };

/** How one step of a workflow run went. */
export interface StepRunView {
  name: string;
  component_id: string;
  /** The step's recorded run (`GET /v1/invocations/{id}`); null when it did not start (a missing component, a bad reference). */
  invocation_id: string | null;
  exports: Record<string, unknown>;
  ret: unknown;
  logs: ConsoleLine[];
  duration_ms: number;
  error: StepError | null;
  exit: { reason: string | null } | null;
}

/** One run of a workflow, replayable from its trigger event. */
export interface WorkflowRunView {
  id: string;
  workflow_id: string;
  /** What the trigger gave: `steps.trigger.event`. */
  event: unknown;
  /** The run this one replays, if it is a replay. */
  replay_of: string | null;
  status: 'success' | 'error' | 'exited';
  started_at_ms: number;
  duration_ms: number;
  steps: StepRunView[];
}

/** A workflow definition as exported to JSON (to keep in git): components travel as code. */
export interface WorkflowExport {
  spout_workflow: 1;
  name: string;
  trigger: WorkflowTriggerInput;
  steps: Array<{ name: string; component_key: string | null; component_code: string; configured_props: Record<string, unknown> }>;
}

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
  npm_registry: string | null;
  registry_dirs: string[];
}

/** A workflow step as given to create or update: its action by saved component id or key, or by module text. */
export interface WorkflowStepInput {
  name: string;
  component_id?: string;
  component_code?: string;
  configured_props?: Record<string, unknown>;
}

/** A workflow as given to create or update (`POST /v1/workflows`, `PUT /v1/workflows/{id}`). */
export interface WorkflowInput {
  name?: string;
  trigger?: WorkflowTriggerInput;
  steps?: WorkflowStepInput[];
  active?: boolean;
}

/** What started an invocation. */
export type InvocationTrigger = 'http' | 'timer' | 'run_now' | 'event' | 'hook' | 'action';

/** How an invocation ended: by itself, with a throw, stopped at its timeout, or with its host gone. */
export type InvocationStatus = 'ok' | 'error' | 'timeout' | 'crashed';

/** A body as recorded: text (or base64 for bytes that are not UTF-8), cut at a limit with the real size kept. */
export interface RecordedBody {
  body: string;
  body_encoding: 'utf8' | 'base64';
  body_size: number;
  /** True when `body` holds only the first bytes. */
  body_truncated: boolean;
}

/** An HTTP request to a source's endpoint, as it arrived. */
export interface RecordedRequest extends RecordedBody {
  method: string;
  /** The sub-path after the endpoint id (`event.path`). */
  path: string;
  /** The query string as sent, without `?` ('' when none). */
  query: string;
  headers: Record<string, string | string[]>;
  /** The endpoint URL the request was sent to (without path and query). */
  endpoint_url: string;
}

/** The answer the caller of an endpoint got. */
export interface RecordedResponse extends RecordedBody {
  status: number;
  headers: Record<string, string>;
  /** `component` when it called respond(), `service` for the service's own answer. */
  from: 'component' | 'service';
}

/** One emit of an invocation: stored (with its event id) or dropped by dedupe. */
export interface InvocationEmit {
  event_id: string | null;
  dropped: boolean;
  name: string | null;
  summary: string | null;
  /** Webhooks subscribed to it when it was stored. */
  webhooks: string[];
}

/** What an invocation threw; `stack` points at the component's files, `full_stack` adds the runtime's frames. */
export interface InvocationError {
  name: string;
  message: string;
  stack: string | null;
  full_stack: string | null;
}

/** One run of a component, recorded (`GET /v1/invocations/{id}`). */
export interface InvocationView {
  id: string;
  /** The source (`dc_…`) or, for action runs, the component (`sc_…`) it belongs to. */
  owner_id: string;
  trigger: InvocationTrigger;
  /** For `hook`: which one. */
  hook: 'deploy' | 'activate' | 'deactivate' | null;
  /** Epoch ms. */
  started_at: number;
  duration_ms: number;
  status: InvocationStatus;
  /** For `http`: the request. */
  request: RecordedRequest | null;
  /** For `http`: what the caller got. */
  response: RecordedResponse | null;
  /** The event `run` got, for triggers other than `http` (a timer's, a listened-to event, an action's `steps`). */
  event: unknown;
  /** For `event`: the emitter and event that ran it. */
  listened_to: { emitter_id: string; event_id: string } | null;
  logs: Array<{ ts: number; level: ConsoleLine['level']; message: string }>;
  emits: InvocationEmit[];
  error: InvocationError | null;
  /** The HTTP calls the run made (`live`) or that were answered from the cassette. */
  calls: OutgoingCall[];
  /** For `action`: what the run exported, returned, and whether it exited the flow. */
  result: { exports: Record<string, unknown>; ret: unknown; exit: { reason: string | null } | null } | null;
  /** The invocation this one replayed. */
  replay_of: string | null;
}

/** How a component's outgoing HTTP calls are served: for real, saved to its cassette, answered from it, or from it where it can. */
export type NetworkMode = 'live' | 'record' | 'replay' | 'replay-or-live';

/** An outgoing HTTP call's request, as recorded (credentials masked). */
export interface CallRequest extends RecordedBody {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** An outgoing HTTP call's response, as recorded or mocked (credentials masked). */
export interface CallResponse extends RecordedBody {
  status: number;
  headers: Record<string, string>;
}

/** One outgoing HTTP call a run made (`InvocationView.calls`). */
export interface OutgoingCall {
  request: CallRequest;
  /** Null when no response came (a network error, or a replay with nothing recorded). */
  response: CallResponse | null;
  /** What went wrong when there is no response. */
  error: string | null;
  duration_ms: number;
  /** `live`: it went out; `cassette`: answered from the source's cassette (entry `entry`). */
  served_by: 'live' | 'cassette';
  entry: number | null;
}

/** How recorded calls are matched to new ones in replay. */
export interface CassetteMatching {
  /** Query parameters left out when comparing URLs (timestamps, page tokens, nonces). */
  ignore_query: string[];
  /** Compare request bodies too. */
  body: boolean;
  /**
   * `sequence`: calls to the same request get the recordings in the order they were made (a feed
   * polled again gets its next recording; the last one repeats); `content`: any recording of the
   * same request answers.
   */
  order: 'sequence' | 'content';
}

/** One recorded (or hand-written) call. */
export interface CassetteEntry {
  request: CallRequest;
  response: CallResponse;
  /** Epoch ms; null for an entry written by hand. */
  recorded_at: number | null;
}

/** A source's (or an action's) recorded calls: a plain file, reviewable and committable (`NAME.cassette.json`). */
export interface Cassette {
  version: 1;
  matching: CassetteMatching;
  entries: CassetteEntry[];
}

/**
 * The header the UI sends on every /v1 call: a write made with the browser session cookie is
 * refused without it (no page of another origin can add a header without a CORS preflight).
 */
export type UiRequestHeader = 'x-spout-ui';
