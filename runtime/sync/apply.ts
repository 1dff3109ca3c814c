// Applies a plan step by step: each write is followed by its link being saved, so a failure
// leaves the links true to what was done and the next plan holds only what is left.

import type { ApplyEvent, ApplyResult, PlanItem } from '../contract/sync-api';
import type { Link, LinkStore } from './links';
import type { PlanInput, Planned, Step } from './plan';
import { contentHash, hashOf, mapRefs, type Resource } from './portable';
import type { WriteInput } from './side';

/** What the caller confirmed. */
export interface ApplyOptions {
  /** Deletions listed in the plan may be made (`--yes`). */
  confirmDeletions: boolean;
  /** The plan the user saw: apply refuses when what it would do now differs. */
  planId?: string;
  onEvent?: (event: ApplyEvent) => void;
}

/** Why an apply may not start, or null. */
export function refusal(planned: Planned, input: Pick<PlanInput, 'force' | 'direction'>, options: ApplyOptions): string | null {
  const { plan } = planned;
  if (options.planId && options.planId !== plan.plan_id) return 'the plan changed since it was shown (something changed on either side); look at the new plan and apply that';
  const conflicts = plan.items.filter((i) => i.action === 'conflict');
  if (conflicts.length) return `${conflicts.length} conflict${conflicts.length > 1 ? 's' : ''} (${conflicts.map((c) => c.label).join(', ')}): nothing was applied; ${input.direction === 'push' ? 'pull first, or push --force to overwrite' : 'push first, or pull --force to overwrite'}`;
  const deletions = plan.items.filter((i) => i.action === 'delete');
  if (deletions.length && !options.confirmDeletions) return `the plan deletes ${deletions.map((d) => d.label).join(', ')} on ${input.direction === 'push' ? plan.remote.name : 'this instance'}: nothing was applied; confirm with --yes`;
  return null;
}

/** Runs the steps of a plan in order and stops at the first failure. */
export async function applyPlan(planned: Planned, input: PlanInput, store: LinkStore, options: ApplyOptions): Promise<ApplyResult> {
  const { plan } = planned;
  const refused = refusal(planned, input, options);
  const runnable = planned.steps.filter((s) => ['create', 'update', 'replace', 'delete'].includes(s.item.action));
  if (refused) return { ok: false, done: [], failed: null, not_done: runnable.map((s) => s.item), refused, plan };
  const remote = input.links.remote;
  if (planned.forget.length) await store.save({ remote, remove: planned.forget.map((l) => ({ kind: l.kind, local_id: l.local_id })) });
  const done: PlanItem[] = [];
  for (const [index, st] of runnable.entries()) {
    const event = (status: ApplyEvent['status'], extra: Partial<ApplyEvent> = {}) => options.onEvent?.({ index, total: runnable.length, item: st.item, status, ...extra });
    event('started');
    try {
      const link = await applyStep(st, planned, input);
      if (link) await store.save({ remote, upsert: [link] });
      else if (st.link) await store.save({ remote, remove: [{ kind: st.link.kind, local_id: st.link.local_id }] });
      done.push(st.item);
      event('done', { remote_id: link ? link.remote_id : null });
    } catch (err) {
      const message = (err as Error).message;
      event('failed', { error: message });
      return { ok: false, done, failed: { item: st.item, error: message }, not_done: runnable.slice(index + 1).map((s) => s.item), refused: null, plan };
    }
  }
  await store.save({ remote, last_sync_at: Math.floor(Date.now() / 1000) });
  return { ok: true, done, failed: null, not_done: [], refused: null, plan };
}

/** Writes one step; returns the link to keep (null when the resource is gone from both sides). */
async function applyStep(st: Step, planned: Planned, input: PlanInput): Promise<Link | null> {
  const { dst } = input;
  const { action } = st.item;
  if (action === 'delete') {
    await dst.remove(st.dst as Resource);
    return null;
  }
  const s = st.src as Resource;
  const write = writeInput(st, planned);
  let dstId: string;
  if (action === 'update' && st.dst) {
    await dst.update(st.dst, write);
    dstId = st.dst.id;
  } else {
    if (action === 'replace' && st.dst) await dst.remove(st.dst);
    dstId = await dst.create(write);
  }
  planned.ids.set(s.id, dstId);
  const written = await dst.read(s.kind, dstId, input.options);
  if (!written) throw new Error(`${st.item.label} was written but cannot be read back from ${dst.label}`);
  const awaiting = st.awaiting;
  const srcHash = contentHash(s);
  const dstHash = contentHash(written, input.direction === 'push' && awaiting.length > 0);
  const push = input.direction === 'push';
  return {
    kind: s.kind,
    local_id: push ? s.id : dstId,
    remote_id: push ? dstId : s.id,
    local_hash: push ? srcHash : dstHash,
    remote_hash: push ? dstHash : srcHash,
    secrets_hash: Object.keys(st.secretValues).length ? hashOf(st.secretValues) : (st.link?.secrets_hash ?? null),
    records_hash: s.records ? hashOf(s.records) : (st.link?.records_hash ?? null),
    ...(awaiting.length ? { awaiting } : {}),
  };
}

/** The content to write, with the receiving side's ids; a source waiting for values is written inactive. */
function writeInput(st: Step, planned: Planned): WriteInput {
  const s = st.src as Resource;
  const content = mapRefs(s.kind, s.content, (id) => planned.ids.get(id));
  if (s.kind === 'source' && st.awaiting.length) content.active = false;
  return { kind: s.kind, name: s.name, content, secrets: st.secretValues, keep: st.keep, ...(s.records ? { records: s.records } : {}) };
}
