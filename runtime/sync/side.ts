// One side of a sync: a Spout instance or Pipedream, read and written through its REST API.

import type { Kind, SyncOptions } from '../contract/sync-api';
import type { RecordValue, Resource } from './portable';

/** What to write on the receiving side: content with its ids, secrets to set, values to keep. */
export interface WriteInput {
  kind: Kind;
  name: string;
  /** Content with ids already those of the receiving side. */
  content: Record<string, unknown>;
  /** Secret values to set, in clear (only with --with-secrets): prop name (`step.prop` for workflows) → value. */
  secrets: Record<string, unknown>;
  /** Secret values the receiving side has and keeps (sent back masked). */
  keep: string[];
  /** Data store records to write in place of the current ones (--with-data). */
  records?: RecordValue[];
}

/** How a changed resource can be written on a side. */
export type ChangeMode = { mode: 'update' } | { mode: 'replace'; why: string } | { mode: 'unsupported'; why: string };

/** A side of a sync. Every call goes through the side's REST API. */
export interface Side {
  /** `this instance (http://…)`, `"b" (http://…)`, `Pipedream (workspace o_…)`. */
  readonly label: string;
  /** Every resource it has; `known` lists ids it holds that it cannot list (Pipedream's components, auto-subscriptions). */
  snapshot(options: SyncOptions, known: Map<Kind, string[]>): Promise<Resource[]>;
  /** Why it cannot hold a resource of this kind at all (null when it can). */
  refuses(kind: Kind): string | null;
  /** What it does not keep of a resource it takes (listed in the plan, not dropped silently). */
  drops(resource: Resource): string[];
  /** The content as this side keeps it (what it drops left out), for diffs that show only real changes. */
  shape(kind: Kind, content: Record<string, unknown>): Record<string, unknown>;
  /** How it writes a change from `before` to `after` (content with its own ids); `secretsChanged` when new secret values go with it. */
  changeMode(kind: Kind, before: Resource, after: Record<string, unknown>, secretsChanged: boolean): ChangeMode;
  /** Why it cannot delete a resource of this kind (null when it can). */
  cannotDelete(kind: Kind): string | null;
  /** The secret values a resource holds, in clear (as the sending side). */
  secrets(resource: Resource): Promise<Record<string, unknown>>;
  create(input: WriteInput): Promise<string>;
  update(current: Resource, input: WriteInput): Promise<void>;
  remove(resource: Resource): Promise<void>;
  /** The resource as it now is (to remember its hash after writing it). */
  read(kind: Kind, id: string, options: SyncOptions): Promise<Resource | null>;
}
