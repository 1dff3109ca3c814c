// /v1 shapes of deployed sources, their events and their logs.

import type { VersionFields } from './change-api';
import type { ComponentFile } from './component-api';
import type { EmitsOmitted, RecordedRequest, RecordedResponse } from './invocation-api';
import type { NetworkMode } from './network-api';

/** A source's component host: running, starting for work that came, or parked (stopped while idle; it starts again for the next work). */
export type HostState = 'running' | 'starting' | 'parked';

export interface SourceView extends VersionFields {
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
  /** Its component host now (docs/runtime.md, "How hosts live and park"). */
  host: HostState;
  /** Why the service deactivated it (its component host kept crashing); null when active or deactivated by hand. */
  deactivated_reason: string | null;
  /** Required props this inactive source has no value for yet; give them to activate it. */
  missing_props?: string[];
  /** A Connect deployed trigger: the external user it runs for (docs/connect.md). */
  external_user_id?: string;
  /** Its recent work, only in the list read with `expand=activity` (the UI's sources list). */
  activity?: SourceActivity;
  created_at: number;
  updated_at: number;
  /** The code the source runs and its file name: only in the single read (`GET /v1/sources/{id}`). */
  code?: string;
  filename?: string;
  /** The original files of a registry component (or files edited since), in the single read; absent for single-file code. */
  files?: ComponentFile[];
  /** The path among `files` of the component's own file. */
  entry_file?: string;
  /** True when `code` is a registry component's bundle kept without its files (deployed by an older Spout): editing it edits the bundle. */
  code_is_bundle?: boolean;
}

/** What the sources list shows of a source's recent work, read with the list so that its refresh is one request. */
export interface SourceActivity {
  /** When its newest event was stored (epoch ms); null when it has none. */
  last_event_at: number | null;
  /** Error lines among its newest 100 log lines. */
  recent_errors: number;
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

/** What `POST /v1/sources` takes: the component by code, URL, saved id or registry key, and its configuration. */
export interface SourceInput {
  component_code?: string;
  component_filename?: string;
  component_url?: string;
  component_id?: string;
  component_key?: string;
  name?: string;
  configured_props?: Record<string, unknown>;
  timeout_seconds?: number | null;
  permissions?: { read: string[]; write: string[] };
  network_mode?: NetworkMode;
}

/** What `PUT /v1/sources/{id}` takes: any of a deploy's fields (no saved id or key), and `active`. */
export type SourceUpdate = Omit<SourceInput, 'component_id' | 'component_key'> & {
  active?: boolean;
  /** The version this change was based on; another version is refused (409, docs/api.md "Versions"). */
  base_version?: number;
  /** Original files to bundle instead of `component_code`; `entry_file` names the component's own (by default the one it has). */
  files?: ComponentFile[];
  entry_file?: string;
};

/** The answer to `POST /v1/sources/{id}/run`: the run's record and the events it stored. */
export interface RunNowView {
  invocation_id: string;
  error: { name: string; message: string } | null;
  /** Ids of the events stored, as the run's record lists them (its first emits). */
  emitted: string[];
  /** The emits the record does not list, counted (`emits_omitted` of the record). */
  emits_omitted: EmitsOmitted | null;
  /** For a run that sent a request to the source's endpoint (an HTTP source): the request, and the answer it got. */
  request?: RecordedRequest | null;
  response?: RecordedResponse | null;
}

/** Filters of `GET /v1/sources/{id}/event_summaries` (cursor and search). */
export interface EventQuery {
  limit?: number;
  before?: string;
  event_name?: string;
  q?: string;
}
