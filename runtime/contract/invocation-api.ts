// /v1 shapes of recorded runs (invocations): trigger, request, answer, emits, error.
import type { ConsoleLine } from './action-api';
import type { MessageSummary } from './delivery-protocol';
import type { OutgoingCall } from './network-api';

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

/** The emits of a run its record does not list (past its first MAX_RECORDED_EMITS): how many were stored and dropped. */
export interface EmitsOmitted {
  stored: number;
  dropped: number;
}

/** What an invocation threw; `stack` points at the component's files, `full_stack` adds the runtime's frames. */
export interface InvocationError {
  name: string;
  message: string;
  stack: string | null;
  full_stack: string | null;
}

/** Who asked for an action run other than a test run or a workflow: an MCP client's tool call, with its arguments. */
export interface InvocationVia {
  kind: 'mcp';
  /** The MCP tool name the agent called. */
  tool: string;
  /** The arguments the agent gave (secret props masked); accounts bound by Spout are not among them. */
  arguments: Record<string, unknown>;
  /** The MCP client's name and version from its `initialize` (`Claude Desktop 1.2`), when it gave one. */
  client: string | null;
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
  /** The first emits (MAX_RECORDED_EMITS, contract/limits.ts), in emit order. */
  emits: InvocationEmit[];
  /** The emits past those listed, counted; null (or absent in older records) when `emits` lists them all. */
  emits_omitted?: EmitsOmitted | null;
  error: InvocationError | null;
  /** The HTTP calls the run made (`live`) or that were answered from the cassette. */
  calls: OutgoingCall[];
  /** For `action`: what the run exported, returned, and whether it exited the flow. */
  result: { exports: Record<string, unknown>; ret: unknown; exit: { reason: string | null } | null } | null;
  /** The invocation this one replayed. */
  replay_of: string | null;
  /** For `action`: the MCP tool call that ran it; null (or absent in older records) for test runs and workflow steps. */
  via?: InvocationVia | null;
  /** For a workflow step: the workflow and its run (null for a step tested alone) and the step's name; absent otherwise and in records written before it. */
  workflow_step?: WorkflowStepOf | null;
}

/** The workflow run a step's action run belongs to. */
export interface WorkflowStepOf {
  workflow_id: string;
  /** Null for a step tested alone ("Test step"), which belongs to no run. */
  run_id: string | null;
  step: string;
}

/** A recorded run as read alone (`GET /v1/invocations/{id}`): with the delivery messages its events caused (times in epoch ms). */
export type InvocationRecordView = InvocationView & { deliveries: MessageSummary[] };

/** What a replay may change (`POST /v1/invocations/{id}/replay`): the request of an HTTP run, the event of others; what is not given is sent as recorded. */
export interface ReplayEdits {
  method?: string;
  path?: string;
  query?: string;
  headers?: Record<string, string | string[]>;
  body?: string;
  event?: unknown;
}

/** Filters of a run list (`GET /v1/sources/{id}/invocations`), applied by the service. */
export interface InvocationFilter {
  status?: InvocationStatus;
  trigger?: InvocationTrigger;
  q?: string;
}

/** A test of a source's run (`GET /v1/invocations/{id}/test`): files to put beside the component file, and what the test could not reproduce. */
export interface RunTestView {
  /** The component file the test loads (`./NAME.mjs`). */
  component: string;
  /** `NAME.test.mjs`, and `NAME.cassette.json` when the run made calls. */
  files: Array<{ name: string; content: string }>;
  warnings: string[];
}
