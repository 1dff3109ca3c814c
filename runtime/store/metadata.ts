import path from 'node:path';
import { type Adapter, Low } from 'lowdb';
import type { ComponentFile, ComponentView } from '../contract/component-api';
import type { ComponentProblem, ConfigurableProp } from '../contract/component-shape';
import type { NetworkMode } from '../contract/network-api';
import { ContentFiles } from '../lib/content-files';
import type { ProblemSink } from '../lib/file-problems';
import { keepPrivate } from '../lib/private-files';
import type { Versioned } from '../lib/record-versions';
import { readStateFile, writeStateFile } from '../lib/state-file';
import { ComponentTexts } from './component-content';
import { type ConnectOwner, type ConnectShape, connectShape } from './connect-records';
import { parseMetadata, setAsideRecords } from './metadata-records';

/** A webhook as kept on disk; the signing secret is sealed. */
export interface WebhookRecord extends Versioned {
  id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  /** Its delivery queue is held (POST …/pause); absent or false: delivering. */
  paused?: boolean;
  sealed_secret: string;
  /** Secrets rotated out, each still signing until `expires_at_ms` (epoch ms), newest first. */
  previous_secrets?: Array<{ sealed_secret: string; expires_at_ms: number }>;
  /** Seconds between delivery attempts for this webhook; absent or null: the service's schedule. */
  retry_schedule?: number[] | null;
  /** Why delivery disabled the webhook (410 Gone, failing too long); null once it is enabled again. */
  disabled_reason?: string | null;
  /** Failed attempts before this time (epoch ms) do not count toward disabling it; set on re-enable and URL change. */
  failures_counted_from?: number;
  /** The Connect project whose end user (a Connect token) set its URL: unless the project allows local targets, each delivery connection is kept off this machine. */
  end_user_project?: string;
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

/** One step of a workflow: an action and its configured props, which may hold `{{steps…}}` references. */
export interface WorkflowStep {
  name: string;
  component_id: string;
  configured_props: Record<string, unknown>;
}

/** What starts a workflow's runs. A source trigger is also a subscription of the workflow to it. */
export type WorkflowTrigger = { type: 'source'; source_id: string; event_name?: string | null } | { type: 'http'; endpoint_id: string; custom_response: boolean } | { type: 'timer'; schedule: { intervalSeconds: number } | { cron: string; timezone?: string } } | { type: 'manual' };

/** A local workflow (`p_…`): a trigger and ordered action steps; an emitter and a listener. */
export interface WorkflowRecord extends Versioned {
  id: string;
  name: string;
  trigger: WorkflowTrigger;
  steps: WorkflowStep[];
  active: boolean;
  created_at: number;
  updated_at: number;
}

/** Subscribes a listener to a channel (`$errors`, `$logs`, …) of every source deployed after it. */
export interface AutoSubscriptionRecord {
  id: string;
  event_name: string;
  listener_id: string;
  created_at: number;
}

/** A saved component: its source text, the bundle the sandbox loads, and what it declares. */
export interface ComponentRecord extends Pick<ComponentView, 'id' | 'key' | 'name' | 'version' | 'type' | 'description' | 'code_hash' | 'created_at'> {
  code: string;
  /** Name the code is known by in stack traces. */
  filename: string;
  bundle: string;
  configurable_props: ConfigurableProp[];
  /** Rules of Pipedream or its registry it does not follow (it loads anyway); absent in records saved before they were kept. */
  warnings?: ComponentProblem[];
  /** Dedupe strategy of a source (absent in records saved before it was kept). */
  dedupe?: 'unique' | 'greatest' | 'last' | null;
  /** `registry`: saved only because a registry key was run or configured, not by the user (absent: the user saved it). */
  origin?: 'registry';
  /** The original files `code` was bundled from (a registry component's, or those edited since); absent for single-file code and records saved before files were kept. */
  files?: ComponentFile[];
  /** The path among `files` of the component's own file (present with `files`). */
  entry_file?: string;
  /** Its `sampleEmit` as JSON text: what Run now and `spout run --sample` send a webhook source. */
  sample_event?: string;
}

export interface SourceRecord extends Versioned {
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
  /** How its component's outgoing HTTP calls are served; absent: live. */
  network_mode?: NetworkMode;
  /** Folders its component may read or write beyond the defaults (docs/security.md). */
  permissions?: { read: string[]; write: string[] };
  /** Why the service deactivated it (its host kept crashing); absent when the user decides. */
  deactivated_reason?: string;
  /** Required props an inactive source has no value for yet (deployed by sync without its secrets); it cannot be activated until they are set. */
  missing_props?: string[];
  /** Deployed inactive: its `deploy()` hook runs when it is first activated. */
  pending_deploy?: boolean;
  /** A Connect deployed trigger: the external user it runs for. */
  connect?: ConnectOwner;
  created_at: number;
  updated_at: number;
}

/** A connected account (`apn_…`): credentials for one app, sealed. */
export interface AccountRecord {
  id: string;
  app: string;
  name: string;
  sealed_credentials: string;
  /** Connected through Connect: the external user it belongs to (no other user's runs may use it). */
  connect?: ConnectOwner;
  created_at: number;
}

export interface MetadataShape {
  webhooks: WebhookRecord[];
  subscriptions: SubscriptionRecord[];
  components: ComponentRecord[];
  sources: SourceRecord[];
  accounts: AccountRecord[];
  auto_subscriptions: AutoSubscriptionRecord[];
  workflows: WorkflowRecord[];
  connect: ConnectShape;
}

/** Account-level metadata (webhooks, subscriptions, components, sources, accounts) in `DATA_DIR/metadata.json`. */
export type Metadata = Low<MetadataShape>;

/**
 * lowdb's JSON file adapter, but private (lowdb writes with the process's default mode, and this
 * file holds sealed secrets and every source's configuration) and robust: writes are made one after
 * the other, each whole, synced, twice (the file and its copy), with the version before kept
 * (lib/state-file.ts); a damaged file keeps the whole document it starts with, or is restored from
 * its copy (else that earlier version), and records the service cannot use are left out (metadata-records.ts).
 * Components' texts are kept in content files (component-content.ts), each written before the
 * metadata.json that names it.
 */
class PrivateJsonFile implements Adapter<MetadataShape> {
  private writing: Promise<void> = Promise.resolve();
  /** The content files the last write named: one that names fewer is followed by a sweep. */
  private named = new Set<string>();

  constructor(
    private readonly file: string,
    private readonly texts: ComponentTexts,
    private readonly report?: ProblemSink,
  ) {}

  async read(): Promise<MetadataShape | null> {
    const read = readStateFile(this.file, parseMetadata, this.report);
    if (read.status === 'missing') return null;
    if (read.status === 'lost') {
      this.report?.({
        file: this.file,
        message: `the service starts with no webhooks, components or sources. To get them back, stop the service and put a mended copy of ${path.basename(read.aside)} (or a backup) in place of metadata.json`,
      });
      return null;
    }
    keepPrivate(this.file);
    const { leftOut } = read.value;
    const data = read.value.data as MetadataShape;
    // Texts an older Spout kept inline move to content files now, with nothing lost.
    const inline = this.texts.attach(data.components ?? []);
    if (leftOut.length > 0) setAsideRecords(this.file, leftOut, this.report);
    if (leftOut.length > 0 || inline) await this.write(data);
    const components = data.components ?? [];
    for (const problem of this.texts.problems({ components, sources: data.sources ?? [] }, this.file, false)) this.report?.(problem);
    // No write is under way yet: what a crash left (texts written, their record not) goes.
    this.texts.sweep(components, this.file);
    this.named = this.texts.names(components);
    return data;
  }

  write(data: MetadataShape): Promise<void> {
    const { components, held } = this.texts.stored(data.components ?? []);
    const text = JSON.stringify({ ...data, components }, null, 2);
    const done = this.writing.then(async () => {
      await this.texts.keep(held);
      await writeStateFile(this.file, text);
      // Removed components' texts go once no version of metadata.json names them (component-content.ts).
      const names = this.texts.names(data.components ?? []);
      if ([...this.named].some((name) => !names.has(name))) this.texts.sweep(data.components ?? [], this.file);
      this.named = names;
    });
    this.writing = done.catch(() => undefined);
    return done;
  }
}

/** Opens the metadata file, creating it empty on first use; what was found damaged goes to `report`. */
export async function openMetadata(dataDir: string, report?: ProblemSink): Promise<Metadata> {
  const texts = new ComponentTexts(new ContentFiles(path.join(dataDir, 'components')));
  const db = new Low<MetadataShape>(new PrivateJsonFile(path.join(dataDir, 'metadata.json'), texts, report), {
    webhooks: [],
    subscriptions: [],
    components: [],
    sources: [],
    accounts: [],
    auto_subscriptions: [],
    workflows: [],
    connect: connectShape(undefined),
  });
  await db.read();
  // Files written by an older version may lack a collection added since.
  db.data.webhooks ??= [];
  db.data.subscriptions ??= [];
  db.data.components ??= [];
  db.data.sources ??= [];
  db.data.accounts ??= [];
  db.data.auto_subscriptions ??= [];
  db.data.workflows ??= [];
  db.data.connect = connectShape(db.data.connect);
  return db;
}
