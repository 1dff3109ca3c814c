// /v1 shapes of action runs: what a step logged, threw, exported and sent.
import type { Warning } from './component-api';
import type { InvocationStatus } from './invocation-api';

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

/** What `POST /v1/actions/run` takes: the action by saved id or key, or by module text, and its input. */
export interface ActionRunInput {
  id?: string;
  component_code?: string;
  component_filename?: string;
  configured_props: Record<string, unknown>;
  /** What the action reads as `steps` (a workflow passes the trigger event and earlier steps). */
  steps?: Record<string, unknown>;
}

/** One saved version of an action (a saved component with the action's key). */
export interface ActionVersionView {
  id: string;
  version: string;
  code_hash: string;
  created_at: number;
  /** Saved because a registry key was run or configured, not by the user. */
  registry: boolean;
}

/** A saved action (`GET /v1/users/me/actions`, `GET /v1/actions/{key or id}`): its newest version, every version, and its last run. */
export interface SavedActionView {
  /** What names the action in addresses: its key, or the component id of a keyless one. */
  ref: string;
  key: string | null;
  /** The newest version's component id. */
  id: string;
  name: string;
  version: string;
  description: string | null;
  /** When the newest version was saved (epoch seconds). */
  saved_at: number;
  /** The newest version is the registry's file, saved when it was run or configured. */
  registry: boolean;
  /** Newest first. */
  versions: ActionVersionView[];
  /** The newest test run, workflow step or MCP call of any version. */
  last_run: { invocation_id: string; component_id: string; status: InvocationStatus; started_at: number } | null;
}
