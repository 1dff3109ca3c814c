// A typed client of the service's /v1 API and SSE streams. The UI is signed in by its session
// cookie (same origin), never by an API key in the page.
import { create } from 'zustand';
import type { AccountView, ComponentView, DataStoreRecordView, DataStoreView } from '../../runtime/contract/component-api';
import type { ActionRunView, ConsoleLine, SendView, StepError } from '../../runtime/contract/action-api';
import type { StepRunView, TimerSchedule, WorkflowExport, WorkflowRunView, WorkflowTriggerInput, WorkflowView, WorkflowInput, WorkflowStepInput } from '../../runtime/contract/workflow-api';
import type { AttemptView, MessageView, SecretRotationView, SubscriptionView, WebhookView } from '../../runtime/contract/webhook-api';
import type { Cassette, CassetteEntry, NetworkMode } from '../../runtime/contract/network-api';
import type { EventSummary, LogLineView, SourceView } from '../../runtime/contract/source-api';
import type { InstanceSettings, UiRequestHeader } from '../../runtime/contract/settings-api';
import type { InvocationStatus, InvocationTrigger, InvocationView } from '../../runtime/contract/invocation-api';
import type { ListResponse } from '../../runtime/contract/page';
import type { ApplyEvent, PlanItem, RemoteView, SyncJobView, SyncPlan } from '../../runtime/contract/sync-api';

export type { ApplyEvent, PlanItem, RemoteView, SyncJobView, SyncPlan };

/** What a sync plan or apply is asked for. */
export interface SyncRequest {
  remote: string;
  direction: 'push' | 'pull';
  with_secrets: boolean;
  with_data: boolean;
  force: boolean;
}

export type { Cassette, CassetteEntry, NetworkMode };
export type { InstanceSettings, InvocationStatus, InvocationTrigger, InvocationView, WorkflowInput, WorkflowStepInput };
/** A delivery message an invocation's event caused (times in epoch ms). */
export interface InvocationDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  status: MessageView['status'];
  attempts: number;
  next_attempt_at: number | null;
  created_at: number;
}
/** A recorded run as read alone: with the delivery messages its events caused. */
export type InvocationRecord = InvocationView & { deliveries: InvocationDelivery[] };
/** What a replay may change: the request of an HTTP run, the event of others. */
export interface ReplayEdits {
  method?: string;
  path?: string;
  query?: string;
  headers?: Record<string, string | string[]>;
  body?: string;
  event?: unknown;
}
/** Filters of a source's invocation list (all applied by the service). */
export interface InvocationFilter {
  status?: InvocationStatus;
  q?: string;
}
export type { ActionRunView, ConsoleLine, SendView, StepError, StepRunView, TimerSchedule, WorkflowExport, WorkflowRunView, WorkflowTriggerInput, WorkflowView };
/** A workflow trigger as the API shows it (an HTTP trigger with its endpoint URL). */
export type WorkflowTrigger = WorkflowView['trigger'];
export type WorkflowStepView = WorkflowView['steps'][number];

/** A configurable prop as the API describes it (see runtime/components/describe.ts). */
import type { ConfigurableProp } from '../../runtime/contract/component-shape';

export type { ConfigurableProp };

/** One problem of a 400: `path` such as `file:3:7` or `props.x.min`. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** An error answered by /v1, with its `detail` and, for validation errors, every problem. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldProblem[] = [],
    /** Warnings found beside the errors (a 400 for an invalid component lists them too). */
    readonly warnings: FieldProblem[] = [],
  ) {
    super(message);
  }
}

export interface RunResult {
  invocation_id: string;
  error: { name: string; message: string } | null;
  emitted: string[];
}

export interface OptionsAnswer {
  options: Array<{ label: string; value: unknown }>;
  context: Record<string, unknown> | null;
  errors: string[];
  logs?: unknown[];
}



/** A component read from the registry; `code` when the service gives the module text. */
export type RegistryComponent = ComponentView & { code?: string; component_code?: string; filename?: string };

type Query = Record<string, string | number | undefined | null>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The service did not answer at all (stopped, restarting, network down): not an error of the request. */
export class ServiceUnreachable extends Error {
  constructor() {
    super(`The Spout service at ${window.location.host} is not answering; retrying.`);
  }
}

/** Whether the service answered the last request; the app shows a banner while it does not. */
export const useConnection = create<{ reachable: boolean; since: number | null }>(() => ({ reachable: true, since: null }));

function markReachable(reachable: boolean): void {
  const now = useConnection.getState();
  if (now.reachable !== reachable) useConnection.setState({ reachable, since: reachable ? null : Date.now() });
}

/** Sent on every call: the service refuses a session-cookie write without it (CSRF, see docs/security.md). */
const UI_HEADER: UiRequestHeader = 'x-spout-ui';

async function request<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
  let res: Response;
  try {
    res = await fetch(withQuery(path, query), {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', [UI_HEADER]: '1', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    // fetch rejects only when no answer came ("Failed to fetch"): say what that means.
    markReachable(false);
    throw new ServiceUnreachable();
  }
  markReachable(true);
  if (!res.ok) {
    const problem = (await res.json().catch(() => null)) as { detail?: string; errors?: FieldProblem[]; warnings?: FieldProblem[] } | null;
    throw new ApiError(res.status, problem?.detail ?? `${res.status} ${res.statusText}`, problem?.errors ?? [], problem?.warnings ?? []);
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

const enc = encodeURIComponent;

export const api = {
  // Sources
  listSources: () => request<ListResponse<SourceView>>('GET', '/v1/users/me/sources', undefined, { limit: 100 }),
  getSource: (id: string) => request<{ data: SourceView }>('GET', `/v1/sources/${enc(id)}`).then((r) => r.data),
  deploySource: (body: Record<string, unknown>) => request<{ data: SourceView }>('POST', '/v1/sources', body).then((r) => r.data),
  updateSource: (id: string, body: Record<string, unknown>) => request<{ data: SourceView }>('PUT', `/v1/sources/${enc(id)}`, body).then((r) => r.data),
  deleteSource: (id: string) => request<void>('DELETE', `/v1/sources/${enc(id)}`),
  runSource: (id: string) => request<{ data: RunResult }>('POST', `/v1/sources/${enc(id)}/run`).then((r) => r.data),
  listEvents: (id: string, query: { limit?: number; before?: string; event_name?: string; q?: string } = {}) =>
    request<ListResponse<EventSummary>>('GET', `/v1/sources/${enc(id)}/event_summaries`, undefined, { limit: 100, expand: 'event', ...query }),
  deleteEvents: (id: string, query: { start_id?: string; end_id?: string; event_name?: string }) =>
    request<{ data: { deleted: number } }>('DELETE', `/v1/sources/${enc(id)}/events`, undefined, query).then((r) => r.data),
  redeliverEvent: (id: string, eventId: string, webhook_id: string) =>
    request<{ data: { event_id: string; webhook_id: string } }>('POST', `/v1/sources/${enc(id)}/events/${enc(eventId)}/redeliver`, { webhook_id }).then((r) => r.data),
  /** One event by id, its data in full (an emit of an invocation, a link). */
  getEvent: (id: string, eventId: string) => request<{ data: EventSummary }>('GET', `/v1/sources/${enc(id)}/event_summaries/${enc(eventId)}`).then((r) => r.data),
  listInvocations: (id: string, query: InvocationFilter & { limit?: number; before?: string } = {}) =>
    request<ListResponse<InvocationView>>('GET', `/v1/sources/${enc(id)}/invocations`, undefined, { limit: 100, ...query }),
  /** An action's recorded runs (test runs and workflow steps). */
  listComponentInvocations: (id: string, limit = 10) => request<ListResponse<InvocationView>>('GET', `/v1/components/${enc(id)}/invocations`, undefined, { limit }),
  getInvocation: (id: string) => request<{ data: InvocationRecord }>('GET', `/v1/invocations/${enc(id)}`).then((r) => r.data),
  /** Runs a recorded run again against the current code (edited as given); answers the new record. */
  replayInvocation: (id: string, edits: ReplayEdits = {}) => request<{ data: InvocationView }>('POST', `/v1/invocations/${enc(id)}/replay`, edits).then((r) => r.data),
  /** A source's recorded outgoing calls and how they are matched. */
  getCassette: (id: string) => request<{ data: Cassette }>('GET', `/v1/sources/${enc(id)}/cassette`).then((r) => r.data),
  /** Replaces a source's cassette (what replay answers from next). */
  putCassette: (id: string, cassette: Cassette) => request<{ data: Cassette }>('PUT', `/v1/sources/${enc(id)}/cassette`, cassette).then((r) => r.data),
  listLogs: (id: string, limit = 100) => request<ListResponse<LogLineView>>('GET', `/v1/sources/${enc(id)}/logs`, undefined, { limit }),

  // Components
  saveComponent: (component_code: string, component_filename: string) =>
    request<{ data: ComponentView }>('POST', '/v1/components', { component_code, component_filename }).then((r) => r.data),
  getComponent: (idOrKey: string) => request<{ data: ComponentView }>('GET', `/v1/components/${enc(idOrKey)}`).then((r) => r.data),
  registryComponent: (key: string) => request<{ data: RegistryComponent }>('GET', `/v1/components/registry/${enc(key)}`).then((r) => r.data),
  configureProp: (body: { id: string; prop_name: string; configured_props: Record<string, unknown>; page?: number; prev_context?: Record<string, unknown> | null; query?: string }) =>
    request<OptionsAnswer>('POST', '/v1/components/configure', body),
  listComponents: () => request<ListResponse<ComponentView>>('GET', '/v1/users/me/components', undefined, { limit: 100 }),
  /** One test run of an action (`$.context.JIT` true): by `id` (saved id or key) or by `component_code`. */
  runAction: (body: { id?: string; component_code?: string; component_filename?: string; configured_props: Record<string, unknown>; steps?: Record<string, unknown> }) =>
    request<ActionRunView>('POST', '/v1/actions/run', body),
  /** The deploy rules applied to a form's values, without deploying: problems with a message for each field. */
  checkProps: (configurable_props: ConfigurableProp[], configured_props: Record<string, unknown>) =>
    request<{ data: { errors: Array<FieldProblem & { prop: string | null; field_message: string }> } }>('POST', '/v1/components/props/check', { configurable_props, configured_props }).then((r) => r.data.errors),
  reloadProps: (id: string, configured_props: Record<string, unknown>) =>
    request<{ data: { configurable_props: ConfigurableProp[] } }>('POST', '/v1/components/props', { id, configured_props }).then((r) => r.data.configurable_props),

  // Workflows
  listWorkflows: () => request<ListResponse<WorkflowView>>('GET', '/v1/users/me/workflows', undefined, { limit: 100 }),
  getWorkflow: (id: string) => request<{ data: WorkflowView }>('GET', `/v1/workflows/${enc(id)}`).then((r) => r.data),
  createWorkflow: (body: WorkflowInput) => request<{ data: WorkflowView }>('POST', '/v1/workflows', body).then((r) => r.data),
  updateWorkflow: (id: string, body: WorkflowInput) => request<{ data: WorkflowView }>('PUT', `/v1/workflows/${enc(id)}`, body).then((r) => r.data),
  deleteWorkflow: (id: string) => request<void>('DELETE', `/v1/workflows/${enc(id)}`),
  /** Runs the steps now; without `event`, the service makes one (a timer's event, or a timestamp). */
  runWorkflow: (id: string, event?: unknown) => request<{ data: WorkflowRunView }>('POST', `/v1/workflows/${enc(id)}/run`, event === undefined ? {} : { event }).then((r) => r.data),
  listWorkflowRuns: (id: string) => request<ListResponse<WorkflowRunView>>('GET', `/v1/workflows/${enc(id)}/runs`, undefined, { limit: 100 }),
  replayRun: (id: string, runId: string) => request<{ data: WorkflowRunView }>('POST', `/v1/workflows/${enc(id)}/runs/${enc(runId)}/replay`).then((r) => r.data),
  exportWorkflow: (id: string) => request<WorkflowExport>('GET', `/v1/workflows/${enc(id)}/export`),
  importWorkflow: (definition: unknown) => request<{ data: WorkflowView }>('POST', '/v1/workflows/import', definition).then((r) => r.data),

  // Accounts and data stores
  listAccounts: () => request<ListResponse<AccountView>>('GET', '/v1/accounts', undefined, { limit: 100 }),
  createAccount: (body: { app: string; name: string; credentials: Record<string, string> }) => request<{ data: AccountView }>('POST', '/v1/accounts', body).then((r) => r.data),
  deleteAccount: (id: string) => request<void>('DELETE', `/v1/accounts/${enc(id)}`),
  listDataStores: () => request<ListResponse<DataStoreView>>('GET', '/v1/data_stores', undefined, { limit: 100 }),
  createDataStore: (name: string) => request<{ data: DataStoreView }>('POST', '/v1/data_stores', { name }).then((r) => r.data),
  renameDataStore: (id: string, name: string) => request<{ data: DataStoreView }>('PUT', `/v1/data_stores/${enc(id)}`, { name }).then((r) => r.data),
  deleteDataStore: (id: string) => request<void>('DELETE', `/v1/data_stores/${enc(id)}`),
  listRecords: (id: string, after?: string) => request<ListResponse<DataStoreRecordView>>('GET', `/v1/data_stores/${enc(id)}/records`, undefined, { limit: 100, after }),
  putRecord: (id: string, key: string, value: unknown, ttl?: number | null) =>
    request<{ data: DataStoreRecordView }>('PUT', `/v1/data_stores/${enc(id)}/records/${key.split('/').map(enc).join('/')}`, { value, ...(ttl ? { ttl } : {}) }).then((r) => r.data),
  deleteRecord: (id: string, key: string) => request<void>('DELETE', `/v1/data_stores/${enc(id)}/records/${key.split('/').map(enc).join('/')}`),
  clearRecords: (id: string) => request<void>('DELETE', `/v1/data_stores/${enc(id)}/records`),

  // Settings
  getSettings: () => request<{ data: InstanceSettings }>('GET', '/v1/settings').then((r) => r.data),
  /** A new key in `DATA_DIR/api-key`; the answer renews this browser's session cookie (409 when the key comes from a flag or the environment). */
  rotateApiKey: () => request<{ data: { api_key: string } }>('POST', '/v1/settings/api-key/rotate').then((r) => r.data.api_key),

  // Remote instances and sync
  listRemotes: () => request<{ data: RemoteView[] }>('GET', '/v1/remotes').then((r) => r.data),
  addRemote: (body: { name: string; kind: 'spout' | 'pipedream'; api_url?: string; api_key: string; org_id?: string }) => request<{ data: RemoteView }>('POST', '/v1/remotes', body).then((r) => r.data),
  removeRemote: (name: string) => request<void>('DELETE', `/v1/remotes/${enc(name)}`),
  testRemote: (name: string) => request<{ data: { ok: boolean; detail: string } }>('POST', `/v1/remotes/${enc(name)}/test`).then((r) => r.data),
  syncPlan: (body: SyncRequest) => request<{ data: SyncPlan }>('POST', '/v1/sync/plan', body).then((r) => r.data),
  /** Starts applying (in the background): follow the job with `syncJob`. */
  syncApply: (body: SyncRequest & { plan_id: string; confirm_deletions: boolean }) => request<{ data: SyncJobView }>('POST', '/v1/sync/apply', body).then((r) => r.data),
  syncJob: (id: string) => request<{ data: SyncJobView }>('GET', `/v1/sync/jobs/${enc(id)}`).then((r) => r.data),

  // Webhooks, messages, subscriptions
  listWebhooks: () => request<ListResponse<WebhookView>>('GET', '/v1/users/me/webhooks', undefined, { limit: 100 }),
  createWebhook: (body: { url: string; name?: string; description?: string; retry_schedule?: number[] | null }) =>
    request<{ data: WebhookView }>('POST', '/v1/webhooks', body).then((r) => r.data),
  updateWebhook: (id: string, body: Partial<{ url: string; name: string; description: string; active: boolean; retry_schedule: number[] | null }>) =>
    request<{ data: WebhookView }>('PUT', `/v1/webhooks/${enc(id)}`, body).then((r) => r.data),
  deleteWebhook: (id: string) => request<void>('DELETE', `/v1/webhooks/${enc(id)}`),
  webhookSecret: (id: string) => request<{ data: { signing_secret: string } }>('GET', `/v1/webhooks/${enc(id)}/secret`).then((r) => r.data.signing_secret),
  rotateSecret: (id: string, grace_seconds?: number) =>
    request<{ data: SecretRotationView }>('POST', `/v1/webhooks/${enc(id)}/secret/rotate`, grace_seconds === undefined ? {} : { grace_seconds }).then((r) => r.data),
  listMessages: (id: string, status?: string) => request<ListResponse<MessageView>>('GET', `/v1/webhooks/${enc(id)}/messages`, undefined, { limit: 100, status }),
  listAttempts: (id: string, msg: string) => request<ListResponse<AttemptView>>('GET', `/v1/webhooks/${enc(id)}/messages/${enc(msg)}/attempts`, undefined, { limit: 100 }),
  resendMessage: (id: string, msg: string) => request<{ data: MessageView }>('POST', `/v1/webhooks/${enc(id)}/messages/${enc(msg)}/resend`).then((r) => r.data),
  recover: (id: string, since: number, until?: number) =>
    request<{ data: { recovered: number } }>('POST', `/v1/webhooks/${enc(id)}/recover`, { since, ...(until !== undefined ? { until } : {}) }).then((r) => r.data),
  listSubscriptions: () => request<ListResponse<SubscriptionView>>('GET', '/v1/users/me/subscriptions', undefined, { limit: 100 }),
  subscribe: (emitter_id: string, listener_id: string, event_name?: string) =>
    request<{ data: SubscriptionView }>('POST', '/v1/subscriptions', { emitter_id, listener_id, ...(event_name ? { event_name } : {}) }).then((r) => r.data),
  unsubscribe: (emitter_id: string, listener_id: string, event_name?: string | null) =>
    request<void>('DELETE', '/v1/subscriptions', { emitter_id, listener_id, ...(event_name ? { event_name } : {}) }),
};

/**
 * Follows an SSE stream (`/sse/dc/{id}/emits` or `/observations`); returns the function that stops.
 * EventSource can only listen to event types it names in advance and channels are open-ended, so
 * the stream is read with fetch; it reconnects with `Last-Event-ID`, so nothing is missed.
 */
/**
 * Follows a stream of items with ids, skipping those in `seen` and handing new ones over in
 * batches (a run emitting thousands gives a few renders, not one per item).
 */
export function followBatched<T extends { id: string }>(path: string, seen: Set<string>, onBatch: (items: T[]) => void, onState: (live: boolean) => void, lastEventId: string | null): () => void {
  let pending: T[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const batch = pending;
    pending = [];
    onBatch(batch);
  };
  return followStream<T>(
    path,
    (item) => {
      if (seen.has(item.id)) return;
      seen.add(item.id);
      pending.push(item);
      timer ??= setTimeout(flush, 30);
    },
    onState,
    lastEventId,
  );
}

export function followStream<T>(path: string, onItem: (item: T) => void, onState: (live: boolean) => void, lastEventId: string | null = null): () => void {
  const abort = new AbortController();
  let lastId = lastEventId;
  const connect = async (): Promise<void> => {
    const headers: Record<string, string> = { accept: 'text/event-stream', [UI_HEADER]: '1' };
    if (lastId) headers['last-event-id'] = lastId;
    let res: Response;
    try {
      res = await fetch(path, { credentials: 'same-origin', headers, signal: abort.signal });
    } catch (err) {
      if (!abort.signal.aborted) markReachable(false);
      throw err;
    }
    markReachable(true);
    if (!res.ok || !res.body) throw new ApiError(res.status, `stream answered ${res.status}`);
    onState(true);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) lastId = line.slice(4);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (data) onItem(JSON.parse(data) as T);
      }
    }
  };
  const loop = async () => {
    while (!abort.signal.aborted) {
      await connect().catch(() => undefined);
      if (abort.signal.aborted) return;
      onState(false);
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  void loop();
  return () => abort.abort();
}

/** The endpoint URL of a source's first HTTP interface prop, if any. */
export function endpointOf(source: SourceView): string | null {
  for (const value of Object.values(source.configured_props)) {
    if (value && typeof value === 'object' && 'endpoint_url' in value) return String((value as { endpoint_url: unknown }).endpoint_url);
  }
  return null;
}

/**
 * A message for any thrown value. With `labels` (parameter → the form's label), a validation error
 * names each field as the form labels it ("URL: must be…") instead of by its API parameter.
 */
export function messageOf(err: unknown, labels?: Record<string, string>): string {
  if (labels && err instanceof ApiError && err.errors.length) return err.errors.map((e) => (e.path ? `${labels[e.path] ?? e.path}: ${e.message}` : e.message)).join(' ');
  return err instanceof Error ? err.message : String(err);
}
