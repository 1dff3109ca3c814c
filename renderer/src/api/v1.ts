// The service's /v1 API, one typed function per call; every shape comes from runtime/contract.
import type { ActionRunInput, ActionRunView, SavedActionView } from '../../../runtime/contract/action-api';
import type { AccountInput, AccountView, ComponentCheckView, ComponentLint, ComponentView, ConfigurePropRequest, ConfigureTarget, DataStoreRecordView, DataStoreView, OptionsAnswer, PropCheckProblem, RegistryComponent, RegistryComponentWithCode } from '../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../runtime/contract/component-shape';
import type { ConnectCredentialsView } from '../../../runtime/contract/connect-api';
import type { InvocationFilter, InvocationRecordView, InvocationView, ReplayEdits, RunTestView } from '../../../runtime/contract/invocation-api';
import type { McpSettings, McpSnippets, McpToolView } from '../../../runtime/contract/mcp-api';
import type { Cassette } from '../../../runtime/contract/network-api';
import type { ListResponse } from '../../../runtime/contract/page';
import type { RunNowInput, RunRequest, RunRequestView, SavedPayload } from '../../../runtime/contract/run-request-api';
import type { InstanceSettings, SettingsPatch } from '../../../runtime/contract/settings-api';
import type { EventQuery, EventSummary, LogLineView, RunNowView, SourceInput, SourceUpdate, SourceView } from '../../../runtime/contract/source-api';
import type { SavedFilter, StreamCount, StreamPage } from '../../../runtime/contract/stream-api';
import type { RemoteCheck, RemoteInput, RemoteView, SyncApplyRequest, SyncJobView, SyncPlan, SyncRequest } from '../../../runtime/contract/sync-api';
import type { AttemptView, MessageView, SecretRotationView, SubscriptionView, WebhookInput, WebhookUpdate, WebhookView } from '../../../runtime/contract/webhook-api';
import type { StepRunView, StepTestRequest, WorkflowExport, WorkflowInput, WorkflowRunView, WorkflowView } from '../../../runtime/contract/workflow-api';
import { request } from './client';

const enc = encodeURIComponent;
/** A data store record's key as a path: each `/`-separated part encoded. */
const recordPath = (key: string) => key.split('/').map(enc).join('/');

/** Items per page the UI asks for (the most the API gives). */
const PAGE = 100;

/** Every item of a list the UI shows whole (sources, webhooks, …): page after page to the end. */
async function allPages<T>(path: string, query: Record<string, string> = {}): Promise<T[]> {
  const items: T[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await request<ListResponse<T>>('GET', path, undefined, { ...query, limit: PAGE, before });
    items.push(...page.data);
    if (page.data.length < PAGE || !page.page_info.end_cursor) return items;
    before = page.page_info.end_cursor;
  }
}

export const api = {
  // Sources
  /** Every source with its recent work (`activity`): the sources list's whole refresh, one request a page. */
  listSources: () => allPages<SourceView>('/v1/users/me/sources', { expand: 'activity' }),
  getSource: (id: string) => request<{ data: SourceView }>('GET', `/v1/sources/${enc(id)}`).then((r) => r.data),
  deploySource: (body: SourceInput) => request<{ data: SourceView }>('POST', '/v1/sources', body).then((r) => r.data),
  updateSource: (id: string, body: SourceUpdate) => request<{ data: SourceView }>('PUT', `/v1/sources/${enc(id)}`, body).then((r) => r.data),
  deleteSource: (id: string) => request<void>('DELETE', `/v1/sources/${enc(id)}`),
  runSource: (id: string, input?: RunNowInput) => request<{ data: RunNowView }>('POST', `/v1/sources/${enc(id)}/run`, input).then((r) => r.data),
  /** The request Run now sends a source with an HTTP interface when given none: its last, or the default. */
  runRequest: (id: string) => request<{ data: RunRequestView }>('GET', `/v1/sources/${enc(id)}/run/request`).then((r) => r.data),
  listPayloads: (id: string) => request<ListResponse<SavedPayload>>('GET', `/v1/sources/${enc(id)}/payloads`, undefined, { limit: PAGE }).then((r) => r.data),
  /** Saves (or replaces) a test payload of a source. */
  savePayload: (id: string, name: string, fields: RunRequest) => request<{ data: SavedPayload }>('PUT', `/v1/sources/${enc(id)}/payloads/${enc(name)}`, fields).then((r) => r.data),
  deletePayload: (id: string, name: string) => request<void>('DELETE', `/v1/sources/${enc(id)}/payloads/${enc(name)}`),
  listEvents: (id: string, query: EventQuery = {}) => request<ListResponse<EventSummary>>('GET', `/v1/sources/${enc(id)}/event_summaries`, undefined, { limit: 100, expand: 'event', ...query }),
  deleteEvents: (id: string, query: { start_id?: string; end_id?: string; event_name?: string }) => request<{ data: { deleted: number } }>('DELETE', `/v1/sources/${enc(id)}/events`, undefined, query).then((r) => r.data),
  redeliverEvent: (id: string, eventId: string, webhook_id: string) => request<{ data: { event_id: string; webhook_id: string } }>('POST', `/v1/sources/${enc(id)}/events/${enc(eventId)}/redeliver`, { webhook_id }).then((r) => r.data),
  /** One event by id, its data in full (an emit of an invocation, a link). */
  getEvent: (id: string, eventId: string) => request<{ data: EventSummary }>('GET', `/v1/sources/${enc(id)}/event_summaries/${enc(eventId)}`).then((r) => r.data),
  listInvocations: (id: string, query: InvocationFilter & { limit?: number; before?: string } = {}) => request<ListResponse<InvocationView>>('GET', `/v1/sources/${enc(id)}/invocations`, undefined, { limit: 100, ...query }),
  /** An action's recorded runs (test runs and workflow steps). */
  listComponentInvocations: (id: string, limit = 10) => request<ListResponse<InvocationView>>('GET', `/v1/components/${enc(id)}/invocations`, undefined, { limit }),
  getInvocation: (id: string) => request<{ data: InvocationRecordView }>('GET', `/v1/invocations/${enc(id)}`).then((r) => r.data),
  /** A test of a source's run: the files to put beside its component. */
  cassetteSkeleton: (id: string) => request<{ data: Cassette; added: number }>('GET', `/v1/invocations/${enc(id)}/cassette-skeleton`),
  runTest: (id: string) => request<{ data: RunTestView }>('GET', `/v1/invocations/${enc(id)}/test`).then((r) => r.data),
  /** Runs a recorded run again against the current code (edited as given); answers the new record. */
  replayInvocation: (id: string, edits: ReplayEdits = {}) => request<{ data: InvocationView }>('POST', `/v1/invocations/${enc(id)}/replay`, edits).then((r) => r.data),
  /** A source's recorded outgoing calls and how they are matched. */
  getCassette: (id: string) => request<{ data: Cassette }>('GET', `/v1/sources/${enc(id)}/cassette`).then((r) => r.data),
  /** Replaces a source's cassette (what replay answers from next). */
  putCassette: (id: string, cassette: Cassette) => request<{ data: Cassette }>('PUT', `/v1/sources/${enc(id)}/cassette`, cassette).then((r) => r.data),
  listLogs: (id: string, limit = 100) => request<ListResponse<LogLineView>>('GET', `/v1/sources/${enc(id)}/logs`, undefined, { limit }),

  // Components
  saveComponent: (component_code: string, component_filename: string) => request<{ data: ComponentView }>('POST', '/v1/components', { component_code, component_filename }).then((r) => r.data),
  /** What saving the code would answer (a 400 with its problems, or the component), with nothing saved. */
  checkComponent: (component_code: string, component_filename: string) => request<{ data: ComponentCheckView }>('POST', '/v1/components/check', { component_code, component_filename }).then((r) => r.data),
  /** Deletes a saved component version (409 naming what uses it). */
  deleteComponent: (id: string) => request<void>('DELETE', `/v1/components/${enc(id)}`),
  /** Deletes the versions of a key that nothing uses; answers their ids. */
  deleteUnusedVersions: (key: string) => request<{ data: { deleted: string[] } }>('DELETE', `/v1/components/${enc(key)}`, undefined, { unused_only: 'true' }).then((r) => r.data.deleted),
  /** Checks code without saving it: its errors, warnings and props. */
  lintComponent: (component_code: string, component_filename: string) => request<{ data: ComponentLint }>('POST', '/v1/components/lint', { component_code, component_filename }).then((r) => r.data),
  getComponent: (idOrKey: string) => request<{ data: ComponentView }>('GET', `/v1/components/${enc(idOrKey)}`).then((r) => r.data),
  /** The bundled and `--registry` components, a page at a time (`pending`: files still being read). */
  listRegistry: (query: { type?: 'source' | 'action'; app?: string; limit?: number; before?: string } = {}) => request<ListResponse<RegistryComponent> & { pending: number }>('GET', '/v1/components/registry', undefined, { limit: 100, ...query }),
  /** Registry components whose key, name, app or description match `q`. */
  searchRegistry: (q: string, type?: 'source' | 'action', limit = 100) => request<{ data: RegistryComponent[] }>('GET', '/v1/components/search', undefined, { q, type, limit }).then((r) => r.data),
  registryComponent: (key: string) => request<{ data: RegistryComponentWithCode }>('GET', `/v1/components/registry/${enc(key)}`).then((r) => r.data),
  configureProp: (body: ConfigurePropRequest) => request<OptionsAnswer>('POST', '/v1/components/configure', body),
  listComponents: () => allPages<ComponentView>('/v1/users/me/components'),
  /** One test run of an action (`$.context.JIT` true): by `id` (saved id or key) or by `component_code`. */
  listActions: () => allPages<SavedActionView>('/v1/users/me/actions'),
  getAction: (ref: string) => request<{ data: SavedActionView }>('GET', `/v1/actions/${enc(ref)}`).then((r) => r.data),
  runAction: (body: ActionRunInput) => request<ActionRunView>('POST', '/v1/actions/run', body),
  /** The deploy rules applied to a form's values, without deploying: problems with a message for each field. */
  checkProps: (configurable_props: ConfigurableProp[], configured_props: Record<string, unknown>) => request<{ data: { errors: PropCheckProblem[] } }>('POST', '/v1/components/props/check', { configurable_props, configured_props }).then((r) => r.data.errors),
  reloadProps: (target: ConfigureTarget, configured_props: Record<string, unknown>) => request<{ data: { configurable_props: ConfigurableProp[] } }>('POST', '/v1/components/props', { ...target, configured_props }).then((r) => r.data.configurable_props),

  // Workflows
  listWorkflows: () => allPages<WorkflowView>('/v1/users/me/workflows'),
  getWorkflow: (id: string) => request<{ data: WorkflowView }>('GET', `/v1/workflows/${enc(id)}`).then((r) => r.data),
  createWorkflow: (body: WorkflowInput) => request<{ data: WorkflowView }>('POST', '/v1/workflows', body).then((r) => r.data),
  updateWorkflow: (id: string, body: WorkflowInput) => request<{ data: WorkflowView }>('PUT', `/v1/workflows/${enc(id)}`, body).then((r) => r.data),
  deleteWorkflow: (id: string) => request<void>('DELETE', `/v1/workflows/${enc(id)}`),
  /** Runs the steps now; without `event`, the service makes one (a timer's event, or a timestamp). */
  runWorkflow: (id: string, event?: unknown) => request<{ data: WorkflowRunView }>('POST', `/v1/workflows/${enc(id)}/run`, event === undefined ? {} : { event }).then((r) => r.data),
  testWorkflowStep: (id: string, step: string, body: StepTestRequest) => request<{ data: StepRunView }>('POST', `/v1/workflows/${enc(id)}/steps/${enc(step)}/test`, body).then((r) => r.data),
  listWorkflowRuns: (id: string) => request<ListResponse<WorkflowRunView>>('GET', `/v1/workflows/${enc(id)}/runs`, undefined, { limit: 100 }),
  replayRun: (id: string, runId: string) => request<{ data: WorkflowRunView }>('POST', `/v1/workflows/${enc(id)}/runs/${enc(runId)}/replay`).then((r) => r.data),
  exportWorkflow: (id: string) => request<WorkflowExport>('GET', `/v1/workflows/${enc(id)}/export`),
  importWorkflow: (definition: unknown) => request<{ data: WorkflowView }>('POST', '/v1/workflows/import', definition).then((r) => r.data),

  // Accounts and data stores
  listAccounts: () => allPages<AccountView>('/v1/accounts'),
  createAccount: (body: AccountInput) => request<{ data: AccountView }>('POST', '/v1/accounts', body).then((r) => r.data),
  deleteAccount: (id: string) => request<void>('DELETE', `/v1/accounts/${enc(id)}`),
  listDataStores: () => allPages<DataStoreView>('/v1/data_stores'),
  createDataStore: (name: string) => request<{ data: DataStoreView }>('POST', '/v1/data_stores', { name }).then((r) => r.data),
  renameDataStore: (id: string, name: string) => request<{ data: DataStoreView }>('PUT', `/v1/data_stores/${enc(id)}`, { name }).then((r) => r.data),
  deleteDataStore: (id: string) => request<void>('DELETE', `/v1/data_stores/${enc(id)}`),
  /** A page of a store's records by key; `before` the last key shown gives the next. */
  listRecords: (id: string, before?: string) => request<ListResponse<DataStoreRecordView>>('GET', `/v1/data_stores/${enc(id)}/records`, undefined, { limit: 100, before }),
  putRecord: (id: string, key: string, value: unknown, ttl?: number | null) => request<{ data: DataStoreRecordView }>('PUT', `/v1/data_stores/${enc(id)}/records/${recordPath(key)}`, { value, ...(ttl ? { ttl } : {}) }).then((r) => r.data),
  deleteRecord: (id: string, key: string) => request<void>('DELETE', `/v1/data_stores/${enc(id)}/records/${recordPath(key)}`),
  clearRecords: (id: string) => request<void>('DELETE', `/v1/data_stores/${enc(id)}/records`),

  // Settings
  getSettings: () => request<{ data: InstanceSettings }>('GET', '/v1/settings').then((r) => r.data),
  /** Saves and applies settings; answers the settings in force. */
  patchSettings: (patch: SettingsPatch) => request<{ data: InstanceSettings }>('PATCH', '/v1/settings', patch).then((r) => r.data),
  /** A new key in `DATA_DIR/api-key`; the answer renews this browser's session cookie (409 when the key comes from a flag or the environment). */
  rotateApiKey: () => request<{ data: { api_key: string } }>('POST', '/v1/settings/api-key/rotate').then((r) => r.data.api_key),
  /** The Connect project's base URL, project id and OAuth client credentials (docs/connect.md). */
  getConnectCredentials: () => request<{ data: ConnectCredentialsView }>('GET', '/v1/settings/connect').then((r) => r.data),
  /** A new Connect client id and secret; the old ones stop working. */
  rotateConnectCredentials: () => request<{ data: ConnectCredentialsView }>('POST', '/v1/settings/connect/rotate').then((r) => r.data),
  /** Whether the project's end users may point webhooks and accounts at this machine, and the proxy may call it (docs/security.md). */
  setConnectLocalTargets: (allow: boolean) => request<{ data: ConnectCredentialsView }>('PUT', '/v1/settings/connect', { allow_local_targets: allow }).then((r) => r.data),

  // The MCP server (docs/mcp.md)
  getMcpSettings: () => request<{ data: McpSettings }>('GET', '/v1/mcp/settings').then((r) => r.data),
  /** Replaces the settings given; the others stay. Answers the settings in force. */
  putMcpSettings: (change: Partial<McpSettings>) => request<{ data: McpSettings }>('PUT', '/v1/mcp/settings', change).then((r) => r.data),
  /** Every candidate tool, hidden ones too, as an agent would see it. */
  listMcpTools: () => allPages<McpToolView>('/v1/mcp/tools'),
  /** How clients connect; with `dev`, to the developer toolset with these folders (`spout mcp --dev --root …`). */
  getMcpSnippets: (dev?: { roots: string[] }) => request<{ data: McpSnippets }>('GET', `/v1/mcp/snippets${dev ? `?${new URLSearchParams([['toolset', 'dev'], ...dev.roots.map((r): [string, string] => ['root', r])]).toString()}` : ''}`).then((r) => r.data),

  // Remote instances and sync
  listRemotes: () => request<{ data: RemoteView[] }>('GET', '/v1/remotes').then((r) => r.data),
  addRemote: (body: RemoteInput) => request<{ data: RemoteView }>('POST', '/v1/remotes', body).then((r) => r.data),
  removeRemote: (name: string) => request<void>('DELETE', `/v1/remotes/${enc(name)}`),
  testRemote: (name: string) => request<{ data: RemoteCheck }>('POST', `/v1/remotes/${enc(name)}/test`).then((r) => r.data),
  syncPlan: (body: SyncRequest) => request<{ data: SyncPlan }>('POST', '/v1/sync/plan', body).then((r) => r.data),
  /** Starts applying (in the background): follow the job with `syncJob`. */
  syncApply: (body: SyncApplyRequest) => request<{ data: SyncJobView }>('POST', '/v1/sync/apply', body).then((r) => r.data),
  syncJob: (id: string) => request<{ data: SyncJobView }>('GET', `/v1/sync/jobs/${enc(id)}`).then((r) => r.data),

  // Webhooks, messages, subscriptions
  listWebhooks: () => allPages<WebhookView>('/v1/users/me/webhooks'),
  createWebhook: (body: WebhookInput) => request<{ data: WebhookView }>('POST', '/v1/webhooks', body).then((r) => r.data),
  updateWebhook: (id: string, body: WebhookUpdate) => request<{ data: WebhookView }>('PUT', `/v1/webhooks/${enc(id)}`, body).then((r) => r.data),
  /** Holds (`pause`) or releases (`resume`) a webhook's queue. */
  pauseWebhook: (id: string, action: 'pause' | 'resume') => request<{ data: WebhookView }>('POST', `/v1/webhooks/${enc(id)}/${action}`).then((r) => r.data),
  deleteWebhook: (id: string) => request<void>('DELETE', `/v1/webhooks/${enc(id)}`),
  webhookSecret: (id: string) => request<{ data: { signing_secret: string } }>('GET', `/v1/webhooks/${enc(id)}/secret`).then((r) => r.data.signing_secret),
  rotateSecret: (id: string, grace_seconds?: number) => request<{ data: SecretRotationView }>('POST', `/v1/webhooks/${enc(id)}/secret/rotate`, grace_seconds === undefined ? {} : { grace_seconds }).then((r) => r.data),
  /** A page of a webhook's messages, newest first; `before` the last id shown gives the next. */
  /** A page of a webhook's messages, newest first, matching the filters (docs/api.md); `limit` up to 100. */
  listMessages: (id: string, query: { status?: string; source?: string; event_id?: string; event_name?: string; since?: number; until?: number; before?: string; limit?: number } = {}) =>
    request<ListResponse<MessageView>>('GET', `/v1/webhooks/${enc(id)}/messages`, undefined, { limit: 100, ...query }),
  listAttempts: (id: string, msg: string) => request<ListResponse<AttemptView>>('GET', `/v1/webhooks/${enc(id)}/messages/${enc(msg)}/attempts`, undefined, { limit: 100 }),
  resendMessage: (id: string, msg: string) => request<{ data: MessageView }>('POST', `/v1/webhooks/${enc(id)}/messages/${enc(msg)}/resend`).then((r) => r.data),
  /** One more attempt of each failed (or failing) message the filters take (created since `since`, epoch s): the bulk retry. */
  recover: (id: string, filters: { since: number; until?: number; status?: string; source?: string; event_id?: string; event_name?: string }) => request<{ data: { recovered: number } }>('POST', `/v1/webhooks/${enc(id)}/recover`, filters).then((r) => r.data),
  listSubscriptions: () => allPages<SubscriptionView>('/v1/users/me/subscriptions'),
  subscribe: (emitter_id: string, listener_id: string, event_name?: string) => request<{ data: SubscriptionView }>('POST', '/v1/subscriptions', { emitter_id, listener_id, ...(event_name ? { event_name } : {}) }).then((r) => r.data),
  unsubscribe: (emitter_id: string, listener_id: string, event_name?: string | null) => request<void>('DELETE', '/v1/subscriptions', { emitter_id, listener_id, ...(event_name ? { event_name } : {}) }),

  // The stream across sources, actions and workflows
  /** A page of the stream, newest first, matching `filter` (the filter language of docs/api.md); a filter that does not parse is a 400. */
  stream: (query: { filter?: string; limit?: number; before?: string }) => request<StreamPage>('GET', '/v1/stream', undefined, { limit: 100, ...query }),
  /** Every row matching `filter`, counted (a page's `total_partial` count was cut short). */
  streamCount: (filter: string | undefined) => request<StreamCount>('GET', '/v1/stream/count', undefined, { filter }).then((r) => r.total_count),
  streamFilters: () => request<{ data: SavedFilter[] }>('GET', '/v1/stream/filters').then((r) => r.data),
  /** Replaces the saved filters with `data`; answers them as saved. */
  saveStreamFilter: (f: SavedFilter) => request<{ data: SavedFilter[] }>('PUT', `/v1/stream/filters/${encodeURIComponent(f.name)}`, { filter: f.filter }).then((r) => r.data),
  deleteStreamFilter: (name: string) => request<{ data: SavedFilter[] }>('DELETE', `/v1/stream/filters/${encodeURIComponent(name)}`).then((r) => r.data),
};
