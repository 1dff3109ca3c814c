// The public shapes of `spout/testing`: what a test written by a user sees. This file imports
// nothing, so its declarations are the package's `testing.d.ts` as they are (scripts/build.js);
// `spout-testing.ts` (the entry) is typed against it, so the two cannot drift.

/** A point in time: ISO text (`2026-01-01T00:00:00Z`), epoch milliseconds, or a Date. */
export type TimeInput = string | number | Date;

/** A length of time: milliseconds, or text such as `15m`, `90s`, `2h`, `1d`, `1h30m`. */
export type DurationInput = number | string;

/** How a loaded component runs: its configured props, accounts, recorded calls and clock. */
export interface LoadOptions {
  /** Configured values of its user-input props, as `configured_props` takes them. */
  props?: Record<string, unknown>;
  /** The `$auth` of each app prop, by prop name (`{ shopify: { access_token: "t" } }`). */
  accounts?: Record<string, Record<string, unknown>>;
  /** The cassette answering its outgoing HTTP calls: a path, default `NAME.cassette.json` beside the component; `false` for none. */
  cassette?: string | false;
  /** The clock the component sees at load (default: the real time then); it moves only with `clock.advance` and the component's own timers. */
  now?: TimeInput;
  /** Folders the component may read, as `spout deploy --allow-read` grants them. */
  allowRead?: string[];
  /** A run (or hook) longer than this fails as a timeout, in real milliseconds (default 30 000). */
  timeoutMs?: number;
}

/** One event a run emitted and kept (after dedupe), as `$emit(event, metadata)` gave it. */
export interface TestEvent {
  event: unknown;
  metadata: {
    /** The `id` given to `$emit`, else the event's own id. */
    id: string | number;
    summary: string | null;
    /** Epoch ms: the `ts` given to `$emit`, else the clock's time when it was emitted. */
    ts: number;
    /** The channel, null for the default one. */
    name: string | null;
  };
}

/** One line the component logged (console, or the runtime about it). */
export interface TestLog {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  message: string;
}

/** One outgoing HTTP call a run made, credentials masked. */
export interface TestCall {
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: Record<string, string>; body: string } | null;
  error: string | null;
  /** `cassette`: answered from the cassette (entry `entry`), `fault`: by `network.fail`, `live`: it went out (`--record`). */
  served_by: 'live' | 'cassette' | 'fault' | 'discovery';
  entry: number | null;
}

/** What a run threw, its stack pointing at the component's own file, line and column. */
export interface TestError {
  name: string;
  message: string;
  stack: string | null;
}

/** What one invocation of a source came to. */
export interface SourceResult {
  /** The HTTP answer (`http()` only): what `respond()` sent, else the service's own answer. */
  status?: number;
  headers?: Record<string, string>;
  /** The answer's body: parsed JSON when it is JSON, else text. */
  body?: unknown;
  events: TestEvent[];
  logs: TestLog[];
  calls: TestCall[];
  error: TestError | null;
}

/** An HTTP request to a source's endpoint. */
export interface TestRequest {
  method?: string;
  /** The path after the endpoint (`/orders`), with an optional `?query`. */
  path?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or bytes as they are. */
  body?: unknown;
  /** Query parameters, added to the path's. */
  query?: Record<string, string>;
}

/** An outgoing call made to fail on purpose. */
export interface TestFault {
  /** Answer with this status (401, 403, 429, 500, …). */
  status?: number;
  /** With a 429 or 503: the `Retry-After` header, seconds. */
  retryAfter?: number;
  /** The answer's body (an object is sent as JSON). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer: the call ends only when the client's own timeout (or the run's) ends it. */
  timeout?: boolean;
  /** The connection is reset (`ECONNRESET`). */
  reset?: boolean;
  /** How many matching calls fail; later ones are answered as usual (default: every one). */
  times?: number;
}

/** The network a loaded component sees. */
export interface TestNetwork {
  /** Makes calls matching `pattern` (`"GET https://api.example.com/orders*"`, method optional, `*` any text) fail as `fault` says. */
  fail(pattern: string, fault: TestFault): void;
  /** Removes every fault. */
  reset(): void;
}

/** The clock a loaded component sees. */
export interface TestClock {
  /** Epoch ms now. */
  now(): number;
  /** Moves the clock on; the source's timers fire as their schedules say, in order. Resolves with each firing's result. */
  advance(duration: DurationInput): Promise<SourceResult[]>;
}

/** `this.db` of a loaded source, as its runs left it. */
export interface TestDb {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  keys(): string[];
}

/** A source loaded for a test. */
export interface LoadedSource {
  /** Runs its hooks as a deploy does: `deploy()`, then `activate()`. */
  deploy(): Promise<SourceResult>;
  /** Sends a request to its HTTP interface. */
  http(request?: TestRequest): Promise<SourceResult>;
  /** Runs it once as its timer would (`{timestamp, interval_seconds}` or `{timestamp, cron}`). */
  timer(): Promise<SourceResult>;
  /** Runs a hook by name (`deactivate` on the way out, say). */
  hook(name: 'deploy' | 'activate' | 'deactivate'): Promise<SourceResult>;
  readonly clock: TestClock;
  readonly db: TestDb;
  readonly network: TestNetwork;
  /** Every event kept so far, oldest first. */
  readonly events: TestEvent[];
  /** Stops its host and removes its temporary files (also done when the test process ends). */
  close(): Promise<void>;
}

/** What an action run came to. */
export interface ActionResult {
  /** `$.export("$summary", …)`. */
  summary: string | null;
  returnValue: unknown;
  /** Everything `$.export`ed, by name. */
  exports: Record<string, unknown>;
  logs: TestLog[];
  calls: TestCall[];
  error: TestError | null;
}

/** An action loaded for a test. */
export interface LoadedAction {
  /** Runs it once (a test run), with `steps` as the earlier steps' results. */
  run(options?: { steps?: Record<string, unknown> }): Promise<ActionResult>;
  readonly clock: TestClock;
  readonly network: TestNetwork;
  close(): Promise<void>;
}

/** Options of an action: as a source's, with no timers or endpoints. */
export type ActionLoadOptions = LoadOptions;

/** Loads a source component file for a test: bundled, checked and configured as a deploy would, in a component host of its own. */
export declare function loadSource(file: string, options?: LoadOptions): Promise<LoadedSource>;

/** Loads an action component file for a test; it loads on its first `run()`. */
export declare function loadAction(file: string, options?: ActionLoadOptions): LoadedAction;

/** The test (or test context) a snapshot belongs to: node:test's `t`, Vitest's or Jest's context, or a name. */
export type SnapshotOwner = { name: string } | { task: { name: string } } | string;

/**
 * Compares `value` (emitted events, say) with the snapshot kept for this test in `<test file>.snap.json`
 * beside it; writes it when there is none (not under CI), and rewrites it under `spout test --update-snapshots`.
 */
export declare function matchSnapshot(owner: SnapshotOwner, value: unknown, name?: string): void;
