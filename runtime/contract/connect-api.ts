// Wire shapes of the local Pipedream Connect API (`/v1/connect/…`, `/v1/oauth/token`), as
// `@pipedream/sdk` v3 reads them (docs/connect.md). Field names are Pipedream's, snake_case.

/** `page_info` of Connect lists: `end_cursor` is null on the last page, so the SDK's pager stops. */
export interface ConnectPageInfo {
  total_count: number;
  count: number;
  start_cursor: string | null;
  end_cursor: string | null;
}

export interface ConnectList<T> {
  page_info: ConnectPageInfo;
  data: T[];
}

/** An app: every app that has components in the local registry. */
export interface ConnectApp {
  id: string;
  name_slug: string;
  name: string;
  auth_type: 'keys' | 'oauth' | 'none';
  description: string;
  img_src: string;
  /** JSON text of the fields an account of the app holds (what the Connect Link page asks for). */
  custom_fields_json: string;
  categories: string[];
  featured_weight: number;
  scope_profiles: unknown[];
}

export interface ConnectAppCategory {
  id: string;
  name: string;
  description: string;
}

/** A prop as Connect describes it: `remoteOptions` marks async options. */
export type ConnectProp = Record<string, unknown> & { name: string; type: string };

/** A registry component (action or trigger). */
export interface ConnectComponent {
  key: string;
  name: string;
  version: string;
  description: string;
  component_type: 'action' | 'source';
  configurable_props: ConnectProp[];
}

/** A console line, an export or an error of a run, as Connect's `os` lists them. */
export interface ConnectObservation {
  k: string;
  ts: number;
  msg?: string;
  err?: { name: string; message: string; stack?: string };
}

export interface ConnectConfigureAnswer {
  options: Array<{ label: string; value: unknown }>;
  stringOptions: string[] | null;
  observations: ConnectObservation[];
  context: Record<string, unknown> | null;
  errors: string[];
}

export interface ConnectReloadAnswer {
  observations: ConnectObservation[];
  errors: string[];
  dynamicProps: { id: string; configurableProps: ConnectProp[] };
}

export interface ConnectRunAnswer {
  exports: Record<string, unknown>;
  os: ConnectObservation[];
  ret: unknown;
  stash_id: string | null;
}

/** A deployed trigger (a Spout source, `dc_…`). */
export interface ConnectDeployedTrigger {
  type: 'DeployedComponent';
  id: string;
  /** The external user's `exu_…` id. */
  owner_id: string;
  name: string;
  name_slug: string;
  component_id: string;
  component_key: string;
  configurable_props: ConnectProp[];
  configured_props: Record<string, unknown>;
  active: boolean;
  emit_on_deploy: boolean;
  created_at: number;
  updated_at: number;
}

/** An event a deployed trigger emitted. */
export interface ConnectEmittedEvent {
  e: unknown;
  k: string;
  ts: number;
  id: string;
  sum?: string;
}

export interface ConnectTriggerWebhook {
  id: string;
  url: string;
  signing_key?: string;
  signing_key_set: boolean;
  created_at: number;
  updated_at: number;
}

export interface ConnectAccount {
  id: string;
  name: string;
  external_id: string;
  healthy: boolean;
  dead: boolean;
  app: ConnectApp;
  created_at: string;
  updated_at: string;
  /** Only with `include_credentials=true`. */
  credentials?: Record<string, unknown>;
}

export interface ConnectExternalUser {
  id: string;
  external_id: string;
  created_at: string;
  updated_at: string;
}

export interface ConnectProject {
  id: string;
  name: string;
  app_name?: string;
  support_email?: string;
  /** Spout's own: whether end users (Connect tokens) may point webhooks at this machine. */
  allow_local_targets: boolean;
}

export interface ConnectTokenAnswer {
  token: string;
  expires_at: string;
  connect_link_url: string;
}

export interface OAuthTokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** `GET /v1/settings/connect`: what a server using the SDK is configured with. */
export interface ConnectCredentialsView {
  base_url: string;
  project_id: string;
  client_id: string;
  client_secret: string;
  environment: 'development';
  /** Whether the project's end users may point webhooks and accounts at this machine, and the proxy may call it (docs/security.md). */
  allow_local_targets: boolean;
}

/**
 * The PIPEDREAM_* variables @pipedream/sdk reads, for a server using these credentials (`spout
 * connect credentials --env`, Settings → Connect); `secret` stands in for the client secret.
 * The workflow domain is the base URL's host, so `workflows.invoke` reaches Spout's endpoints.
 */
export function connectEnvironment(c: ConnectCredentialsView, secret = c.client_secret): Record<string, string> {
  return {
    PIPEDREAM_BASE_URL: c.base_url,
    PIPEDREAM_PROJECT_ID: c.project_id,
    PIPEDREAM_CLIENT_ID: c.client_id,
    PIPEDREAM_CLIENT_SECRET: secret,
    PIPEDREAM_PROJECT_ENVIRONMENT: c.environment,
    PIPEDREAM_WORKFLOW_DOMAIN: new URL(c.base_url).hostname,
  };
}
