import type { ComponentDescription, PropShape } from './component-shape';
import type { CallRequest, CallResponse, NetworkMode, OutgoingCall } from './network-api';

/** Metadata passed as the second argument of `$emit`. */
export interface EmitMeta {
  id?: string | number;
  name?: string;
  summary?: string;
  ts?: number;
}

/** One `$emit` call: the event already serialised inside the worker, and its metadata. */
export interface EmitPayload {
  json: string;
  meta: EmitMeta;
}

/** A response issued with `respond()` from an HTTP-triggered run. */
export interface HttpResponsePayload {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

/**
 * What one invocation runs: the component's `run` with an event, or one of its hooks. The service
 * holds the event as JSON text (events are JSON by nature); on the wire it is embedded as it is
 * (see WireHostMessage).
 */
export type InvocationTarget =
  | { kind: 'run'; eventJson: string }
  | { kind: 'hook'; name: 'deploy' | 'activate' | 'deactivate' }
  | OptionsTarget
  | { kind: 'additionalProps' }
  | ActionTarget
  /** Moves a test's clock (`load` with `clock`) to `nowMs`, running the component's timers due by then (their emits and logs are this invocation's). */
  | { kind: 'clock'; nowMs: number };

/** Runs an action's `run({ steps, $ })`. */
export interface ActionTarget {
  kind: 'action';
  /** The `steps` object as JSON (`{trigger: {event}, <step>: {$return_value, …}}`). */
  stepsJson: string;
  /** `$.context.JIT`: true when run by hand (a test run), not by a workflow's trigger. */
  jit: boolean;
  /** `$.context.deadline`, epoch ms. */
  deadlineMs: number;
  runId: string;
}

/** Something a step asked to send, performed (http) or recorded (email, s3, sse) by the service. */
export interface StepSend {
  kind: 'http' | 'email' | 's3' | 'sse';
  config: unknown;
}

/** How an action's run ended (a thrown error comes as the invocation's error). */
export interface ActionResult {
  /** `$.export`ed values by name, `$summary` among them. */
  exports: Record<string, unknown>;
  /** What `run` returned. */
  ret: unknown;
  /** Set when the step called `$.flow.exit`. */
  exit: { reason: string | null } | null;
  sends: StepSend[];
  /** What `$.respond` sent, if it was called. */
  response: HttpResponsePayload | null;
}

/** Loads one page of a prop's options: its `options` method, or its propDefinition's. */
export interface OptionsTarget {
  kind: 'options';
  prop: string;
  page: number;
  prevContext: Record<string, unknown>;
  query?: string;
}

/** One option as the API lists it. */
export interface PropOption {
  label: string;
  value: unknown;
}

/** What an `options` invocation returns. */
export interface OptionsResult {
  options: PropOption[];
  context: unknown;
}

/** What an `additionalProps` invocation returns: the shapes of the props it added (null when the component has no `additionalProps`). */
export interface AdditionalPropsResult {
  props: Record<string, PropShape> | null;
}

/** The values `this` exposes in the component, prepared by the service. */
export interface SandboxContext {
  sourceId: string;
  /** User-input prop values by prop name. */
  props: Record<string, unknown>;
  /** Endpoint URL of each `$.interface.http` prop, by prop name. */
  endpoints: Record<string, string>;
  /** Credentials of the connected account of each app prop (its `$auth`), by prop name. */
  auth: Record<string, Record<string, unknown>>;
  /**
   * The source's prop set includes `additionalProps` results: a host that has not computed them
   * (a fresh or restarted one) runs `additionalProps` before building `this`.
   */
  dynamicProps: boolean;
  /** Ids of the data stores its `data_store` props are configured with: the only ones it may call. */
  dataStores: string[];
  /** How its outgoing HTTP calls are served. */
  network: NetworkMode;
  /** The folder of each `dir` prop, by prop name, and whether it may be written. */
  dirs: Record<string, { path: string; write: boolean }>;
}

export interface SerializedError {
  name: string;
  message: string;
  /** Mapped to the component's files, the runtime's own frames left out. */
  stack?: string;
  /** The mapped stack with the runtime's frames, when it differs from `stack`. */
  fullStack?: string;
}

export type LogLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

/** One operation on a data store, as a `data_store` prop's methods make them. */
export interface DataStoreCall {
  op: 'get' | 'set' | 'setTtl' | 'has' | 'keys' | 'delete' | 'clear' | 'entries';
  key?: string;
  value?: unknown;
  ttl?: number | null;
}

/** An asynchronous request from component code to the service. */
export type HostCall =
  | { service: 'data_store'; storeId: string; call: DataStoreCall }
  /** In a replay mode: the recording that answers an outgoing call, if any. */
  | { service: 'network'; request: CallRequest };

/** The service's answer to a `network` host call. */
export interface NetworkAnswer {
  response: CallResponse | null;
  /** Set when a test made this call fail on purpose (`network.fail`): `response` is the fault's answer, or none comes (`timeout`) or the connection resets (`reset`). */
  fault?: 'response' | 'timeout' | 'reset';
  /** The cassette entry that answered. */
  entry: number | null;
  /** Why nothing answered, and how to record it. */
  miss: string | null;
}

/** `this.db` contents as the service holds them: JSON text of each value, by key. */
export type DbEntries = Record<string, string>;

/** A key `this.db.set` changed during an invocation, with its new value as JSON text (null: removed). */
export type DbWrite = [key: string, json: string | null];

/** Messages from the service to a component host. */
export type HostMessage =
  /**
   * `tmp`: the host's own temp folder (`dir`), which its code reaches as `/tmp`, and folders whose
   * paths stay real even under the machine's /tmp (`real`: the data dir); absent, it has none.
   * `moved`: its owner's folder, moved for a spare host (`from` is where its code sees it, `to` where it is).
   */
  /** `clock`: a test's clock (sandbox/child/test-clock.ts), installed before the module loads. */
  | { type: 'load'; bundle: string; filename: string; tmp?: { dir: string; real: string[]; moved?: { from: string; to: string } }; clock?: { nowMs: number } }
  | { type: 'configure'; context: SandboxContext }
  /** `db` is sent when the host's copy of `this.db` is not the service's (first run, or written elsewhere). */
  | { type: 'invoke'; invocationId: string; target: InvocationTarget; db?: DbEntries }
  | { type: 'call-result'; callId: number; value?: unknown; error?: SerializedError }
  /** The events of a `run-emits` batch are stored (or refused): the host may send another. */
  | { type: 'emits-ack'; invocationId: string };

/**
 * A message as the host reads it: a run's event is embedded in the frame as JSON (`event`), not
 * as a string of it, so it is encoded once and parsed once (sandbox/host-process.ts writes it).
 */
export type WireHostMessage = Exclude<HostMessage, { type: 'invoke' }> | (Omit<Extract<HostMessage, { type: 'invoke' }>, 'target'> & { target: Exclude<InvocationTarget, { kind: 'run' }> | { kind: 'run'; event: unknown } });

/** A `respond()` as it crosses the channel: binary bodies travel as base64. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string | { base64: string } | null;
}

/** Messages from a component host to the service (untrusted: the service validates each one). */
export type HostReply =
  | { type: 'loaded'; description: ComponentDescription }
  | { type: 'load-failed'; error: SerializedError }
  /** `clockMs`: the test clock's time when the run ended (it moves while a run waits on its timers). */
  | { type: 'done'; invocationId: string; error: SerializedError | null; emits: EmitPayload[]; value?: unknown; dbWrites: DbWrite[]; calls: OutgoingCall[]; clockMs?: number }
  | { type: 'respond'; invocationId: string; response: WireResponse }
  | { type: 'emits'; emits: EmitPayload[] }
  /**
   * A batch of a running invocation's emits, in emit order, sent when they are more than one batch
   * (EMIT_BATCH_COUNT or EMIT_BATCH_CHARS): every batch but the last, which comes in `done`. The
   * host sends the next once the service answers `emits-ack`, at most EMIT_BATCHES_UNACKED ahead.
   */
  | { type: 'run-emits'; invocationId: string; emits: EmitPayload[] }
  | { type: 'call'; callId: number; request: HostCall }
  | { type: 'log'; invocationId: string | null; level: LogLevel; message: string }
  /** A connection or lookup refused in replay (no cassette can answer it), said as it happens: a client retrying it may run into the timeout, which loses the run's record. */
  | { type: 'unrecorded'; invocationId: string; message: string }
  /** Sent as the host dies of an uncaught exception, so the source's log says why. */
  | { type: 'fatal'; error: SerializedError };

/** Folders (or files) a host may read, and may write, beyond its own code. */
export interface HostGrants {
  read: string[];
  write: string[];
}
