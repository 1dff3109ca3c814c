// A run's emits as the host sends them: in emit order (lib/emit-order.ts), one batch after another,
// each stored by the service before it acks it, so the service holds a batch or two of a run's
// events at a time, never the whole run's (docs/performance.md, "Memory bounded by work"). A run
// with one batch's worth sends it in its `done`, as before.
import type { EmitPayload, HostReply } from '../../contract/host-protocol';
import { EMIT_BATCH_CHARS, EMIT_BATCH_COUNT, EMIT_BATCHES_UNACKED } from '../../contract/limits';
import { inEmitOrder } from '../../lib/emit-order';

/** The run whose batches are on their way, and how many the service has not acked. */
let flow: { invocationId: string; unacked: number; wake: (() => void) | null } | null = null;

/** Emits in batches of at most EMIT_BATCH_COUNT and EMIT_BATCH_CHARS of JSON (an event larger than that alone); at least one batch. */
export function emitBatches(emits: readonly EmitPayload[]): EmitPayload[][] {
  const batches: EmitPayload[][] = [];
  let batch: EmitPayload[] = [];
  let chars = 0;
  for (const e of emits) {
    if (batch.length > 0 && (batch.length >= EMIT_BATCH_COUNT || chars + e.json.length > EMIT_BATCH_CHARS)) {
      batches.push(batch);
      batch = [];
      chars = 0;
    }
    batch.push(e);
    chars += e.json.length;
  }
  batches.push(batch);
  return batches;
}

/**
 * Orders a finished run's emits and sends every batch but the last as `run-emits`, at most
 * EMIT_BATCHES_UNACKED ahead of the service's acks; resolves with the last batch (for `done`) once
 * all the others are acked.
 */
export async function sendEmits(invocationId: string, emits: readonly EmitPayload[], post: (reply: HostReply) => void): Promise<EmitPayload[]> {
  const batches = emitBatches(inEmitOrder(emits));
  const last = batches.pop() as EmitPayload[];
  if (batches.length === 0) return last;
  const run = { invocationId, unacked: 0, wake: null as (() => void) | null };
  flow = run;
  const acked = () => new Promise<void>((resolve) => (run.wake = resolve));
  for (const [i, batch] of batches.entries()) {
    while (run.unacked >= EMIT_BATCHES_UNACKED) await acked();
    run.unacked++;
    post({ type: 'run-emits', invocationId, emits: batch });
    // Sent as JSON now: the batch need not stay.
    batches[i] = [];
  }
  while (run.unacked > 0) await acked();
  flow = null;
  return last;
}

/** The service stored (or refused) a batch of `invocationId`'s emits. */
export function emitsAcked(invocationId: string): void {
  if (flow?.invocationId !== invocationId) return;
  flow.unacked--;
  const wake = flow.wake;
  flow.wake = null;
  wake?.();
}
