// Computes what a sync would do: each resource of the sending side against its linked one on the
// receiving side and what both looked like when last synced (links.ts), Terraform-style.

import { type Action, type Direction, KINDS, type Kind, type PlanItem, type SyncOptions, type SyncPlan } from '../contract/sync-api';
import { unifiedDiff } from '../lib/unified-diff';
import type { Link, RemoteLinks } from './links';
import { contentHash, hashOf, kindOfId, mapRefs, type Resource, refsOf, renderContent } from './portable';
import type { Side } from './side';

/** A plan item with what applying it needs. */
export interface Step {
  item: PlanItem;
  /** The resource as the sending side has it (absent for deletions). */
  src: Resource | null;
  /** The linked resource on the receiving side (absent for creations). */
  dst: Resource | null;
  link: Link | null;
  /** Secret values to send, in clear (--with-secrets). */
  secretValues: Record<string, unknown>;
  /** Secret values the receiving side keeps as they are. */
  keep: string[];
  /** Secrets the receiving side will still wait for (the source stays inactive there). */
  awaiting: string[];
}

/** Everything a plan was computed from, kept for applying it. */
export interface Planned {
  plan: SyncPlan;
  steps: Step[];
  /** Links to drop: both resources are gone, or the receiving side cannot delete its copy. */
  forget: Link[];
  /** Sending-side id → receiving-side id, for every linked resource. */
  ids: Map<string, string>;
}

/** The two sides of a plan, oriented: `src` sends, `dst` receives. */
export interface PlanInput {
  direction: Direction;
  src: Side;
  dst: Side;
  remote: SyncPlan['remote'];
  localUrl: string;
  links: RemoteLinks;
  options: SyncOptions;
  /** Push over the receiving side's own changes (and re-create what it deleted). */
  force: boolean;
}

/** The link's ids and hashes as sending / receiving side. */
export function oriented(link: Link, direction: Direction) {
  return direction === 'push' ? { srcId: link.local_id, dstId: link.remote_id, srcHash: link.local_hash, dstHash: link.remote_hash } : { srcId: link.remote_id, dstId: link.local_id, srcHash: link.remote_hash, dstHash: link.local_hash };
}

const KIND_LABEL: Record<Kind, string> = {
  data_store: 'data store',
  account: 'account',
  component: 'component',
  source: 'source',
  webhook: 'webhook',
  workflow: 'workflow',
  subscription: 'subscription',
  auto_subscription: 'auto-subscription',
};

/** `source "Echo"`. */
export function labelOf(kind: Kind, name: string): string {
  return `${KIND_LABEL[kind]} "${name}"`;
}

/** Computes the plan: reads both sides, compares with the links, and orders the steps. */
export async function computePlan(input: PlanInput): Promise<Planned> {
  const { direction, src, dst, links, options, force } = input;
  const push = direction === 'push';
  const byKind = (kind: Kind) => links.links.filter((l) => l.kind === kind);
  const known = (side: 'src' | 'dst') => new Map(KINDS.map((k) => [k, byKind(k).map((l) => (side === 'src' ? oriented(l, direction).srcId : oriented(l, direction).dstId))]));
  const [srcAll, dstAll] = await Promise.all([src.snapshot(options, known('src')), dst.snapshot(options, known('dst'))]);
  // Subscriptions read better with the names of what they link.
  const names = new Map(srcAll.map((r) => [r.id, r.name]));
  for (const r of srcAll) {
    if (r.kind === 'subscription') r.name = `${names.get(r.content.emitter_id as string) ?? String(r.content.emitter_id)} → ${names.get(r.content.listener_id as string) ?? String(r.content.listener_id)}${r.content.event_name ? ` [${String(r.content.event_name)}]` : ''}`;
    if (r.kind === 'auto_subscription') r.name = `${String(r.content.event_name)} → ${names.get(r.content.listener_id as string) ?? String(r.content.listener_id)}`;
  }
  const srcById = new Map(srcAll.map((r) => [`${r.kind}:${r.id}`, r]));
  const dstById = new Map(dstAll.map((r) => [`${r.kind}:${r.id}`, r]));
  const ids = new Map<string, string>();
  const back = new Map<string, string>();
  for (const l of links.links) {
    const o = oriented(l, direction);
    ids.set(o.srcId, o.dstId);
    back.set(o.dstId, o.srcId);
  }
  const [srcName, dstName] = push ? ['this instance', input.remote.name] : [input.remote.name, 'this instance'];

  const steps: Step[] = [];
  const forget: Link[] = [];
  /** Sending-side ids that will exist on the receiving side once applied (linked, or created by this plan). */
  const willExist = new Set(ids.keys());
  let unchanged = 0;

  const item = (kind: Kind, action: Action, name: string, localId: string | null, remoteId: string | null, reason: string, extra: Partial<PlanItem> = {}): PlanItem => ({
    kind,
    action,
    label: labelOf(kind, name),
    local_id: localId,
    remote_id: remoteId,
    reason,
    diff: null,
    secrets: [],
    notes: [],
    ...extra,
  });
  const idsOf = (srcId: string | null, dstId: string | null): [string | null, string | null] => (push ? [srcId, dstId] : [dstId, srcId]);
  /**
   * The receiving side's copy with its ids turned into the sending side's, so a diff shows only
   * real changes; props the sender keeps secret are left out (a side that shows them in clear,
   * such as Pipedream, must not put them in a plan).
   */
  const inSrcTerms = (r: Resource, secret: readonly string[]): Resource => {
    const content = mapRefs(r.kind, r.content, (id) => back.get(id) ?? id);
    if (r.kind === 'source' && secret.length) content.configured_props = Object.fromEntries(Object.entries(content.configured_props as Record<string, unknown>).filter(([name]) => !secret.includes(name)));
    return { ...r, content };
  };
  /** Before: the receiving side's copy; after: the sending side's as the receiving side will keep it. */
  const diffOf = (before: Resource | null, after: Resource | null, withRecords: boolean) =>
    unifiedDiff(renderContent(before && inSrcTerms(before, after?.secrets ?? []), withRecords ? before?.records : undefined), renderContent(after && { ...after, content: dst.shape(after.kind, after.content) }, withRecords ? after?.records : undefined), [
      `${dstName} (now)`,
      `${dstName} (after ${direction})`,
    ]);

  for (const kind of KINDS) {
    const refused = dst.refuses(kind);
    const srcOfKind = srcAll.filter((r) => r.kind === kind);
    const linked = new Set<string>();
    for (const link of byKind(kind)) {
      const o = oriented(link, direction);
      linked.add(o.srcId);
      const s = srcById.get(`${kind}:${o.srcId}`) ?? null;
      const d = dstById.get(`${kind}:${o.dstId}`) ?? null;
      const awaitingThere = push && (link.awaiting?.length ?? 0) > 0;
      const dstChanged = d !== null && contentHash(d, awaitingThere) !== o.dstHash;
      const [localId, remoteId] = idsOf(o.srcId, o.dstId);
      if (!s && !d) {
        forget.push(link);
        continue;
      }
      if (!s) {
        willExist.delete(o.srcId);
        const d2 = d as Resource;
        const why = dst.cannotDelete(kind);
        if (dstChanged && !force)
          steps.push(
            step(item(kind, 'conflict', d2.name, localId, remoteId, `deleted on ${srcName}, but changed on ${dstName} since the last sync; ${push ? 'pull it back, or push --force to delete it' : 'push it again, or pull --force to delete it'}`, { diff: diffOf(d2, null, false) }), null, d2, link),
          );
        else if (why) {
          // Shown once: applying the plan forgets the link, the resource stays there.
          steps.push(step(item(kind, 'unsupported', d2.name, localId, remoteId, `deleted on ${srcName}, but ${why}`), null, d2, link));
          forget.push(link);
        } else steps.push(step(item(kind, 'delete', d2.name, localId, remoteId, `deleted on ${srcName}`, { diff: diffOf(d2, null, false) }), null, d2, link));
        continue;
      }
      if (!d) {
        if (force) steps.push(step(item(kind, 'create', s.name, localId, null, `deleted on ${dstName} since the last sync; made again (--force)`, { diff: diffOf(null, s, options.with_data) }), s, null, link));
        else steps.push(step(item(kind, 'conflict', s.name, localId, remoteId, `deleted on ${dstName} since the last sync; ${push ? 'push --force to make it again there, or pull to delete it here' : 'pull --force to make it again here, or push to delete it there'}`), s, null, link));
        continue;
      }
      const secretsHash = options.with_secrets && s.secrets.length ? hashOf(await src.secrets(s)) : null;
      const reasons: string[] = [];
      if (contentHash(s) !== o.srcHash) reasons.push(`changed on ${srcName}`);
      if (secretsHash && secretsHash !== (link.secrets_hash ?? null)) reasons.push('secret values to send (--with-secrets)');
      if (options.with_data && s.records && hashOf(s.records) !== (link.records_hash ?? null)) reasons.push('records differ (--with-data)');
      if (push && link.awaiting?.length && options.with_secrets) reasons.push(`${dstName} waits for secrets, sent now`);
      if (dstChanged && !force) {
        steps.push(step(item(kind, 'conflict', s.name, localId, remoteId, `changed on ${dstName} since the last sync; ${push ? 'pull it first, or push --force to overwrite it' : 'push it first, or pull --force to overwrite it'}`, { diff: diffOf(d, s, options.with_data) }), s, d, link));
        continue;
      }
      if (dstChanged) reasons.push(`overwrites the change made on ${dstName} (--force)`);
      if (reasons.length === 0) {
        unchanged++;
        continue;
      }
      const mode = dst.changeMode(
        kind,
        d,
        mapRefs(kind, s.content, (id) => ids.get(id) ?? id),
        secretsHash !== null && secretsHash !== (link.secrets_hash ?? null),
      );
      if (mode.mode === 'unsupported') steps.push(step(item(kind, 'unsupported', s.name, localId, remoteId, `${reasons.join('; ')}, but ${mode.why}`), s, d, link));
      else steps.push(step(item(kind, mode.mode, s.name, localId, remoteId, mode.mode === 'replace' ? `${reasons.join('; ')}; ${mode.why}` : reasons.join('; '), { diff: diffOf(d, s, options.with_data) }), s, d, link));
    }
    for (const s of srcOfKind) {
      if (linked.has(s.id)) continue;
      const [localId] = idsOf(s.id, null);
      if (refused) {
        steps.push(step(item(kind, 'unsupported', s.name, localId, null, refused), s, null, null));
        continue;
      }
      if (kind === 'account' && !options.with_secrets) {
        steps.push(step(item(kind, 'skip', s.name, localId, null, `its credentials are secrets: ${direction} with --with-secrets, or connect an account for app "${String(s.content.app)}" on ${dstName}`), s, null, null));
        continue;
      }
      willExist.add(s.id);
      steps.push(step(item(kind, 'create', s.name, localId, null, `new on ${srcName}`, { diff: diffOf(null, s, options.with_data) }), s, null, null));
    }
  }

  // What each step needs of the others: references to resources that will not be there, secrets.
  const replaced = new Set(steps.filter((s) => s.item.action === 'replace' && s.src).map((s) => (s.src as Resource).id));
  for (const st of steps) {
    const { item: it, src: s } = st;
    if (!s || !['create', 'update', 'replace'].includes(it.action)) continue;
    const missingRefs = refsOf(s.kind, s.content).filter((id) => !willExist.has(id));
    if ((s.kind === 'subscription' || s.kind === 'auto_subscription' || s.kind === 'workflow') && missingRefs.length) {
      const id = missingRefs[0] as string;
      st.item = { ...it, action: 'unsupported', reason: `it names ${kindOfId(id)?.replace('_', ' ')} ${id}, which is not on ${dstName}${dst.refuses(kindOfId(id) as Kind) ? ` (${dst.refuses(kindOfId(id) as Kind)})` : ''}`, diff: null };
      willExist.delete(s.id);
      continue;
    }
    if (s.kind === 'source' || s.kind === 'workflow') {
      // Props naming an account or store that will not be there wait for the user, as secrets do.
      mapRefs(s.kind, s.content, (id, where) => {
        if (!willExist.has(id)) st.awaiting.push(`${where} (${kindOfId(id)?.replace('_', ' ')} ${id})`);
        return id;
      });
      if (options.with_secrets) st.secretValues = await src.secrets(s);
      else {
        const there = new Set(st.dst?.secrets ?? []);
        st.keep = s.secrets.filter((n) => there.has(n));
        st.awaiting.push(...s.secrets.filter((n) => !there.has(n)));
      }
      if (st.awaiting.length) {
        it.secrets = st.awaiting;
        it.notes.push(s.kind === 'source' ? `stays inactive on ${dstName} until these are set there` : `its steps miss these on ${dstName} until they are set there`);
      }
    }
    if (s.kind === 'account' && options.with_secrets) st.secretValues = await src.secrets(s);
    it.notes.push(...s.notes, ...dst.drops(s));
  }
  // A subscription of a resource the receiving side replaces (a new id there) is made again too.
  for (const st of steps) {
    if (st.item.action !== 'replace' || !st.src) continue;
    for (const link of links.links.filter((l) => l.kind === 'subscription' || l.kind === 'auto_subscription')) {
      const o = oriented(link, direction);
      const sub = srcById.get(`${link.kind}:${o.srcId}`);
      if (!sub || !refsOf(sub.kind, sub.content).some((id) => replaced.has(id)) || steps.some((x) => x.link === link)) continue;
      const [localId, remoteId] = idsOf(o.srcId, o.dstId);
      steps.push(step(item(link.kind, 'replace', sub.name, localId, remoteId, `${st.item.label} gets a new id on ${dstName}`), sub, dstById.get(`${link.kind}:${o.dstId}`) ?? null, link));
      unchanged--;
    }
  }
  // Creations and updates in dependency order, then deletions in reverse.
  const rank = (s: Step) => (s.item.action === 'delete' ? 100 + (KINDS.length - KINDS.indexOf(s.item.kind)) : KINDS.indexOf(s.item.kind));
  steps.sort((a, b) => rank(a) - rank(b));

  const summary = { create: 0, update: 0, replace: 0, delete: 0, conflict: 0, skip: 0, unsupported: 0, unchanged };
  for (const s of steps) summary[s.item.action]++;
  const items = steps.map((s) => s.item);
  const plan: SyncPlan = {
    direction,
    remote: input.remote,
    local: { url: input.localUrl },
    items,
    summary,
    last_sync_at: links.last_sync_at,
    plan_id: hashOf(items.map((i) => [i.kind, i.action, i.local_id, i.remote_id, i.diff, i.secrets])),
    options,
  };
  return { plan, steps, forget, ids };
}

function step(item: PlanItem, src: Resource | null, dst: Resource | null, link: Link | null): Step {
  return { item, src, dst, link, secretValues: {}, keep: [], awaiting: [] };
}
