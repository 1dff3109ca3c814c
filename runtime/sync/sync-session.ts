// A sync between this instance and a remote named by a profile: the sides, the links, and the
// three things a user does (plan, apply, status). Used by `spout sync` and by /v1/sync for the UI.

import type { ApplyResult, Direction, RemoteKind, SyncOptions, SyncStatus } from '../contract/sync-api';
import { ApiClient } from '../remote/api-client';
import type { Target } from '../remote/profiles';
import { type ApplyOptions, applyPlan } from './apply';
import type { LinkStore } from './links';
import { PipedreamSide } from './pipedream-side';
import { computePlan, labelOf, type PlanInput, type Planned } from './plan';
import type { Side } from './side';
import { SpoutSide } from './spout-side';

/** A remote as a profile gives it. */
export interface RemoteSpec {
  name: string;
  kind: RemoteKind;
  /** `http(s)://host:port` of a Spout, or Pipedream's API (`https://api.pipedream.com`). */
  url: string;
  apiKey: string;
  /** Pipedream workspace (`o_…`). */
  orgId: string | null;
}

/** Pipedream's API, when a profile of kind pipedream gives no URL. */
export const PIPEDREAM_API = 'https://api.pipedream.com';

/** The key links are kept under: the remote's address (a profile may be renamed). */
export function remoteKey(remote: RemoteSpec): string {
  return remote.kind === 'pipedream' ? `pipedream:${remote.url}#${remote.orgId ?? 'me'}` : `spout:${remote.url}`;
}

/** An HTTP client of a remote, its messages naming the profile. */
export function remoteClient(remote: RemoteSpec): ApiClient {
  const pipedream = remote.kind === 'pipedream';
  const target: Target = {
    url: remote.url,
    apiKey: remote.apiKey,
    origin: `profile "${remote.name}"`,
    keyOrigin: `profile "${remote.name}"`,
    service: pipedream ? 'Pipedream' : `the Spout instance "${remote.name}"`,
    loginHint: `"spout login -p ${remote.name}${pipedream ? ' --pipedream' : ' --api-url URL'} --api-key KEY" or in Settings → Remote instances`,
  };
  return new ApiClient(target, 'sync');
}

/** What a sync needs: this instance (its /v1), the remote, where links live. */
export interface SyncContext {
  local: ApiClient;
  remote: RemoteSpec;
  links: LinkStore;
}

function remoteSide(remote: RemoteSpec): Side {
  const client = remoteClient(remote);
  return remote.kind === 'pipedream' ? new PipedreamSide(client, remote.orgId, `Pipedream${remote.orgId ? ` (workspace ${remote.orgId})` : ''}`) : new SpoutSide(client, `"${remote.name}" (${remote.url})`);
}

/** The plan's inputs for one direction. */
async function planInput(ctx: SyncContext, direction: Direction, options: SyncOptions, force: boolean): Promise<PlanInput> {
  if (direction === 'pull' && ctx.remote.kind === 'pipedream') {
    throw new Error(`pulling from Pipedream is not supported: profile "${ctx.remote.name}" is a push target (Pipedream's API cannot give back what a source was configured with in full); pull from a Spout instance`);
  }
  const local = new SpoutSide(ctx.local, `this instance (${ctx.local.url})`);
  const remote = remoteSide(ctx.remote);
  return {
    direction,
    src: direction === 'push' ? local : remote,
    dst: direction === 'push' ? remote : local,
    remote: { name: ctx.remote.name, kind: ctx.remote.kind, url: ctx.remote.url },
    localUrl: ctx.local.url,
    links: await ctx.links.read(remoteKey(ctx.remote)),
    options,
    force,
  };
}

/** Computes what a push or pull would do. */
export async function planSync(ctx: SyncContext, direction: Direction, options: SyncOptions, force = false): Promise<Planned & { input: PlanInput }> {
  const input = await planInput(ctx, direction, options, force);
  return { ...(await computePlan(input)), input };
}

/** Computes the plan afresh and applies it (see apply.ts for what is refused). */
export async function applySync(ctx: SyncContext, direction: Direction, options: SyncOptions, force: boolean, apply: ApplyOptions): Promise<ApplyResult> {
  const planned = await planSync(ctx, direction, options, force);
  return applyPlan(planned, planned.input, ctx.links, apply);
}

/** Where this instance and a remote stand: linked resources, what a push and a pull would do, sources waiting for secrets. */
export async function syncStatus(ctx: SyncContext, options: SyncOptions): Promise<SyncStatus> {
  const push = await planSync(ctx, 'push', options);
  const pull = ctx.remote.kind === 'pipedream' ? null : await planSync(ctx, 'pull', options);
  const links = push.input.links;
  return {
    remote: push.plan.remote,
    last_sync_at: links.last_sync_at,
    linked: links.links.length,
    push: push.plan.summary,
    pull: pull?.plan.summary ?? null,
    awaiting_secrets: links.links.filter((l) => l.kind === 'source' && l.awaiting?.length).map((l) => ({ label: labelOf('source', l.local_id), remote_id: l.remote_id, secrets: l.awaiting ?? [] })),
  };
}
