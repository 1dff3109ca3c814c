// /v1 shapes of workflows, their triggers and runs.
import type { ConsoleLine, StepError } from './action-api';
import type { VersionFields } from './change-api';

/** A workflow (`p_…`); secret step props show as the mask, an HTTP trigger carries its URL. */
export interface WorkflowView extends VersionFields {
  id: string;
  name: string;
  trigger: { type: 'source'; source_id: string; event_name?: string | null } | { type: 'http'; endpoint_id: string; custom_response: boolean; endpoint_url: string } | { type: 'timer'; schedule: TimerSchedule } | { type: 'manual' };
  steps: Array<{ name: string; component_id: string; configured_props: Record<string, unknown> }>;
  active: boolean;
  created_at: number;
  updated_at: number;
}

export type TimerSchedule = { intervalSeconds: number } | { cron: string; timezone?: string };

/** A workflow trigger as given to create, update or import a workflow. */
export type WorkflowTriggerInput = { type: 'source'; source_id: string; event_name?: string | null } | { type: 'http'; custom_response?: boolean } | { type: 'timer'; schedule: unknown } | { type: 'manual' };

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
  /** On update: the version this change was based on; another version is refused (409). */
  base_version?: number;
}

/** What `POST /v1/workflows/{id}/steps/{step}/test` takes: the event, earlier steps' outputs, an unsaved edit of the step. */
export interface StepTestRequest {
  event?: unknown;
  /** Earlier steps' outputs by name: `{ ...exports, $return_value }`. */
  steps?: Record<string, unknown>;
  component_id?: string;
  configured_props?: Record<string, unknown>;
}
