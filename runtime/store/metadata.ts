import path from 'node:path';
import { JSONFilePreset } from 'lowdb/node';
import type { Low } from 'lowdb';
import type { ConfigurableProp } from '../components/describe';

/** A webhook as kept on disk; the signing secret is sealed. */
export interface WebhookRecord {
  id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  sealed_secret: string;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionRecord {
  id: string;
  emitter_id: string;
  listener_id: string;
  /** The channel listened to; null is the default channel. */
  event_name: string | null;
  created_at: number;
}

/** Subscribes a listener to a channel (`$errors`, `$logs`, …) of every source deployed after it. */
export interface AutoSubscriptionRecord {
  id: string;
  event_name: string;
  listener_id: string;
  created_at: number;
}

/** A saved component: its source text, the bundle the sandbox loads, and what it declares. */
export interface ComponentRecord {
  id: string;
  key: string | null;
  name: string;
  version: string;
  type: 'source' | 'action';
  description: string | null;
  code: string;
  /** Name the code is known by in stack traces. */
  filename: string;
  bundle: string;
  code_hash: string;
  configurable_props: ConfigurableProp[];
  /** Dedupe strategy of a source (absent in records saved before it was kept). */
  dedupe?: 'unique' | 'greatest' | 'last' | null;
  created_at: number;
}

export interface SourceRecord {
  id: string;
  component_id: string;
  name: string;
  name_slug: string;
  /**
   * Configured values of user-input props (secret ones sealed) and of app props
   * (`{authProvisionId}`); interface props are not kept here.
   */
  configured_props: Record<string, unknown>;
  /** Endpoint id of each `$.interface.http` prop, by prop name. */
  endpoints: Record<string, string>;
  /** Props `additionalProps` added for the configured values; absent when the component has no `additionalProps`. */
  dynamic_props?: ConfigurableProp[];
  /** Run timeout of this source in seconds; absent, the service's (60 s). */
  timeout_seconds?: number;
  active: boolean;
  created_at: number;
  updated_at: number;
}

/** A connected account (`apn_…`): credentials for one app, sealed. */
export interface AccountRecord {
  id: string;
  app: string;
  name: string;
  sealed_credentials: string;
  created_at: number;
}

export interface MetadataShape {
  webhooks: WebhookRecord[];
  subscriptions: SubscriptionRecord[];
  components: ComponentRecord[];
  sources: SourceRecord[];
  accounts: AccountRecord[];
  auto_subscriptions: AutoSubscriptionRecord[];
}

/** Account-level metadata (webhooks, subscriptions, components, sources, accounts) in `DATA_DIR/metadata.json`. */
export type Metadata = Low<MetadataShape>;

/** Opens the metadata file, creating it empty on first use. */
export async function openMetadata(dataDir: string): Promise<Metadata> {
  const db = await JSONFilePreset<MetadataShape>(path.join(dataDir, 'metadata.json'), {
    webhooks: [],
    subscriptions: [],
    components: [],
    sources: [],
    accounts: [],
    auto_subscriptions: [],
  });
  // Files written by an older version may lack a collection added since.
  db.data.webhooks ??= [];
  db.data.subscriptions ??= [];
  db.data.components ??= [];
  db.data.sources ??= [];
  db.data.accounts ??= [];
  db.data.auto_subscriptions ??= [];
  return db;
}
