// Durable records of the local Pipedream Connect API (docs/connect.md): projects, the OAuth client
// that signs in to them, and external users. Accounts and deployed triggers stay where they are
// (metadata's accounts and sources) and carry a ConnectOwner.

/** Connect keeps development and production data apart, as Pipedream does (`x-pd-environment`). */
export type ConnectEnvironment = 'development' | 'production';

/** Who owns a Connect resource: an external user of one project, in one environment. */
export interface ConnectOwner {
  project_id: string;
  environment: ConnectEnvironment;
  external_user_id: string;
}

/** A Connect project (`proj_…`). */
export interface ConnectProjectRecord {
  id: string;
  name: string;
  app_name: string | null;
  support_email: string | null;
  /** The Spout webhook (`wh_…`) of each environment that takes the events of triggers deployed without a webhook_url. */
  webhooks?: Partial<Record<ConnectEnvironment, string>>;
  /** Whether its end users (Connect tokens) may point webhooks at this machine (docs/security.md); absent: no. */
  allow_local_targets?: boolean;
  created_at: number;
  updated_at: number;
}

/** The OAuth client whose credentials `POST /v1/oauth/token` exchanges for an access token. */
export interface ConnectClientRecord {
  client_id: string;
  sealed_secret: string;
  created_at: number;
}

/** An external user (`exu_…`), made the first time a project names it. */
export interface ExternalUserRecord extends ConnectOwner {
  id: string;
  created_at: number;
  updated_at: number;
}

/** What a deployed trigger delivers to, besides being a source: the Spout webhooks made for its webhook URLs. */
export interface TriggerDeliveryRecord {
  source_id: string;
  webhook_ids: string[];
  workflow_ids: string[];
  emit_on_deploy: boolean;
}

/** Everything Connect keeps in the metadata file. */
export interface ConnectShape {
  projects: ConnectProjectRecord[];
  clients: ConnectClientRecord[];
  users: ExternalUserRecord[];
  triggers: TriggerDeliveryRecord[];
  /** Key that signs access and Connect tokens (sealed); made on first use. */
  sealed_token_key: string | null;
}

/** Connect's records in a data dir that has none yet (or was written by an older Spout). */
export function connectShape(kept: Partial<ConnectShape> | undefined): ConnectShape {
  return {
    projects: kept?.projects ?? [],
    clients: kept?.clients ?? [],
    users: kept?.users ?? [],
    triggers: kept?.triggers ?? [],
    sealed_token_key: kept?.sealed_token_key ?? null,
  };
}
