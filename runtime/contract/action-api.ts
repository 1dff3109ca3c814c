// /v1 shapes of action runs: what a step logged, threw, exported and sent.
import type { Warning } from './component-api';

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
