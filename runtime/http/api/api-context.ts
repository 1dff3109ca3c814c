import type { ComponentLibrary, SandboxFactory } from '../../components/library';
import type { ComponentRegistry } from '../../components/registry';
import type { McpStdioCommand } from '../../contract/mcp-api';
import type { InstanceSettings } from '../../contract/settings-api';
import type { DeliveryService } from '../../delivery/delivery-service';
import type { ConnectService } from '../../engine/connect/connect-service';
import type { NetworkService } from '../../engine/network/network-service';
import type { ComponentSessions } from '../../engine/sessions/component-sessions';
import type { SendLog } from '../../engine/sessions/send-log';
import type { SourceManager } from '../../engine/sources/source-manager';
import type { StreamReader } from '../../engine/stream/stream-reader';
import type { ToolCatalog } from '../../engine/tools/tool-catalog';
import type { WorkflowManager } from '../../engine/workflows/workflow-manager';
import type { DataStores } from '../../store/data-stores';
import type { EventStore } from '../../store/event-store';
import type { InvocationStore } from '../../store/invocation-store';
import type { LogStore } from '../../store/log-store';
import type { McpSettingsStore } from '../../store/mcp-settings';
import type { Metadata } from '../../store/metadata';
import type { PayloadStore } from '../../store/payload-store';
import type { SavedFilterStore } from '../../store/saved-filters';
import type { SecretBox } from '../../store/secrets';
import type { ServiceSettings } from '../../store/service-settings';
import type { AuthConfig } from '../edge/auth';
import type { RunNowRequests } from '../ingress/run-now-requests';

/** What the HTTP layer reaches of the runtime. */
export interface ApiContext {
  metadata: Metadata;
  library: ComponentLibrary;
  /** The local component registry (bundled components and `--registry` folders), by key. */
  registry: ComponentRegistry;
  /** Starts a sandbox that only describes a module (saving a component). */
  describeSandbox: SandboxFactory;
  sources: SourceManager;
  /** Runs async options and additionalProps for configuration forms. */
  sessions: ComponentSessions;
  /** How the service was started (GET /v1/settings), without the key's hint. */
  settings: () => Omit<InstanceSettings, 'api_key_hint'>;
  /** The settings `PATCH /v1/settings` saves and applies. */
  savedSettings: ServiceSettings;
  workflows: WorkflowManager;
  /** What action steps sent with `$.send`. */
  sendLog: SendLog;
  events: EventStore;
  logs: LogStore;
  /** Every recorded run of sources and actions. */
  invocations: InvocationStore;
  /** Cassettes of recorded outgoing calls, and replay. */
  network: NetworkService;
  delivery: DeliveryService;
  secrets: SecretBox;
  /** Account-level key-value stores behind `data_store` props. */
  dataStores: DataStores;
  auth: AuthConfig;
  endpointUrl: (endpointId: string) => string;
  /** The MCP server's settings, the actions it exposes, and the `spout mcp` command of this service (docs/mcp.md). */
  mcp: { settings: McpSettingsStore; catalog: ToolCatalog; stdio: McpStdioCommand };
  /** The local Pipedream Connect API's projects, tokens, tenants and apps. */
  connect: ConnectService;
  /** Each source's saved test payloads (run now). */
  payloads: PayloadStore;
  /** Requests run now sends to sources' endpoints, waiting for the runs they start. */
  runNow: RunNowRequests;
  /** One stream of runs and events across sources, actions and workflows, with its filter language. */
  stream: StreamReader;
  /** The stream's saved filters. */
  savedFilters: SavedFilterStore;
}
