// Shapes of a sync plan and its progress, shared by the CLI, the /v1/sync routes and the renderer
// (types only).

/** What sync moves, in the order it creates them (a kind may refer to the kinds before it). */
export const KINDS = ['data_store', 'account', 'component', 'source', 'webhook', 'workflow', 'subscription', 'auto_subscription'] as const;
export type Kind = (typeof KINDS)[number];

/** Which way a plan goes: push takes this instance's work to the remote, pull brings the remote's here. */
export type Direction = 'push' | 'pull';

/** The kind of remote a profile names. */
export type RemoteKind = 'spout' | 'pipedream';

/**
 * What a plan will do to one resource on the receiving side: `replace` deletes and creates it
 * (the remote cannot change it in place: it gets a new id); `skip` leaves it this time, for the
 * reason given (e.g. an account without --with-secrets); `unsupported` the remote cannot hold.
 */
export type Action = 'create' | 'update' | 'replace' | 'delete' | 'conflict' | 'skip' | 'unsupported';

/** One line of a plan. */
export interface PlanItem {
  kind: Kind;
  action: Action;
  /** A name for people: `source "Echo" (dc_…)`. */
  label: string;
  /** Ids on this instance and on the remote (null where it does not exist yet or any more). */
  local_id: string | null;
  remote_id: string | null;
  /** Why: what changed, what conflicts, what the remote cannot do. */
  reason: string;
  /** A unified diff of the resource as the receiving side has it (`-`) and as it will be (`+`). */
  diff: string | null;
  /** Secret values the user must enter on the receiving side (not sent without --with-secrets). */
  secrets: string[];
  /** Further things to know (folders not synced, signing secrets, …). */
  notes: string[];
}

/** A plan: what applying it would do, item by item. */
export interface SyncPlan {
  direction: Direction;
  /** The profile named, its kind and address. */
  remote: { name: string; kind: RemoteKind; url: string };
  local: { url: string };
  /** Changes to make, conflicts and unsupported resources; unchanged ones are only counted. */
  items: PlanItem[];
  summary: Record<Action, number> & { unchanged: number };
  /** When the last apply with this remote ended (epoch seconds), null before the first. */
  last_sync_at: number | null;
  /** Identifies these changes: apply refuses a plan id that no longer matches what it would do. */
  plan_id: string;
  options: SyncOptions;
}

/** What a plan or an apply includes. */
export interface SyncOptions {
  /** Send secret props and account credentials in clear to the receiving side. */
  with_secrets: boolean;
  /** Include data store records. */
  with_data: boolean;
}

/** One step of an apply as it happens. */
export interface ApplyEvent {
  index: number;
  total: number;
  item: PlanItem;
  status: 'started' | 'done' | 'failed';
  /** For `done`: the id on the receiving side; for `failed`: the message. */
  remote_id?: string | null;
  error?: string;
}

/** How an apply ended: what was done, what failed, what was not reached. */
export interface ApplyResult {
  ok: boolean;
  done: PlanItem[];
  failed: { item: PlanItem; error: string } | null;
  not_done: PlanItem[];
  /** Refused before anything was done (conflicts, deletions not confirmed, a changed plan). */
  refused: string | null;
  plan: SyncPlan;
}

/** A sync job started from the UI (`POST /v1/sync/apply`), read with `GET /v1/sync/jobs/{id}`. */
export interface SyncJobView {
  id: string;
  status: 'running' | 'done' | 'failed' | 'refused';
  /** Steps so far, in order, each with its latest status. */
  events: ApplyEvent[];
  total: number;
  result: ApplyResult | null;
  /** Why it could not run at all (the remote unreachable, its key refused). */
  error: string | null;
  started_at: number;
}

/** A remote instance profile as the API shows it: never its key. */
export interface RemoteView {
  name: string;
  kind: RemoteKind;
  url: string;
  /** Pipedream workspace (`o_…`) the profile acts in, if any. */
  org_id: string | null;
  /** The key's last four characters. */
  api_key_hint: string;
}

/** What `spout sync status` and `GET /v1/sync/status` say about one remote. */
export interface SyncStatus {
  remote: SyncPlan['remote'];
  last_sync_at: number | null;
  /** Resources linked between the two sides. */
  linked: number;
  /** What a push would do, and what a pull would. */
  push: SyncPlan['summary'];
  pull: SyncPlan['summary'] | null;
  /** Sources on the remote that wait for secrets to be entered there. */
  awaiting_secrets: Array<{ label: string; remote_id: string; secrets: string[] }>;
}

/** What `POST /v1/sync/plan` takes. */
export interface SyncRequest extends SyncOptions {
  remote: string;
  direction: Direction;
  /** Overwrite conflicts: what the receiving side changed since the last sync is replaced. */
  force: boolean;
}

/** What `POST /v1/sync/apply` takes: the plan the user saw, and whether its deletions may be made. */
export interface SyncApplyRequest extends SyncRequest {
  plan_id: string;
  confirm_deletions: boolean;
}

/** What `POST /v1/remotes` takes: a profile and its key (checked against the remote unless `verify` is false). */
export interface RemoteInput {
  name: string;
  kind: RemoteKind;
  api_url?: string;
  api_key: string;
  org_id?: string;
  verify?: boolean;
}

/** The answer to `POST /v1/remotes/{name}/test`. */
export interface RemoteCheck {
  ok: boolean;
  detail: string;
}
