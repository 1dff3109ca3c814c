// One invocation's emits stored as they come (a run's come in batches: sandbox/emit-intake.ts):
// deduped as one emission by the component's strategy, stored and handed to delivery
// EMIT_SLICE at a time, each slice durable before the next is built; its record lists the first
// emits and counts the rest (RecordedEmits), dropped ones marked. What it holds at once besides
// the batch in hand is its dedupe session (`unique`: the emission's ids; `last`: the emits before
// its cached id shows up) and the record's list, never the run's events.
import type { EmitPayload } from '../../contract/host-protocol';
import { BurstCollection } from '../../lib/burst-collection';
import { inEmitOrder } from '../../lib/emit-order';
import type { LogStore } from '../../store/log-store';
import type { Deduper, DedupeSession, DedupeStrategy, Judged } from '../events/dedupe';
import type { Emission } from '../events/emission';
import { RecordedEmits } from '../invocations/recorded-emits';

/** Events stored and delivered at a time. */
const EMIT_SLICE = 1000;

/** Events stored between two major garbage collections of the service's heap during a run (lib/burst-collection.ts). */
const COLLECT_EVERY = 25_000;
const collection = new BurstCollection(COLLECT_EVERY);

/** What storing a stream of emits needs. */
export interface EmitStreamDeps {
  emission: Emission;
  dedupe: Deduper;
  logs: LogStore;
}

/** The emits of one invocation (or one batch of stray emits) of a source, stored in order as they come. */
export class EmitStream {
  readonly recorded = new RecordedEmits();
  private session: DedupeSession | null = null;
  /** The batches so far, stored one after another. */
  private tail: Promise<void> = Promise.resolve();
  private failure: Error | null = null;
  /** Batches taken before the last: the host ordered the emission then; a lone batch is ordered here. */
  private batches = 0;

  constructor(
    private readonly deps: EmitStreamDeps,
    private readonly sourceId: string,
    private readonly strategy: DedupeStrategy | null,
    private readonly depth = 0,
    private readonly hops = 0,
  ) {}

  /** Stores a batch (in emit order) after those before it; resolves once it is durable. A failure is kept for `end`. */
  add(batch: EmitPayload[], invocationId: string | null): Promise<void> {
    this.batches++;
    return this.queue(() => this.store(this.dedupe().next(batch), invocationId));
  }

  /**
   * Stores the last batch (all of them when none came before: put in emit order here) and what
   * dedupe still held, and logs dedupe's warnings; resolves with the record's emits, rejects if
   * storing failed.
   */
  async end(last: readonly EmitPayload[], invocationId: string | null): Promise<RecordedEmits> {
    const ordered = this.batches === 0 ? inEmitOrder(last) : last;
    await this.queue(async () => {
      if (ordered.length > 0) await this.store(this.dedupe().next(ordered), invocationId);
      if (!this.session) return;
      const { warnings, ...rest } = this.session.end();
      for (const message of warnings) this.deps.logs.add(this.sourceId, { level: 'warn', message, invocation_id: invocationId });
      await this.store(rest, invocationId);
    });
    void collection.settle();
    if (this.failure) throw this.failure;
    return this.recorded;
  }

  private queue(work: () => Promise<void>): Promise<void> {
    this.tail = this.tail.then(() => (this.failure ? undefined : work())).catch((err: Error) => void (this.failure ??= err));
    return this.tail;
  }

  private dedupe(): DedupeSession {
    this.session ??= this.deps.dedupe.session(this.sourceId, this.strategy);
    return this.session;
  }

  /** Stores the kept emits of what dedupe judged, EMIT_SLICE at a time, and records the judged ones in order. */
  private async store({ judged, kept }: Judged, invocationId: string | null): Promise<void> {
    // Dedupe keeps a subsequence of the judged emits: one walk over both finds the dropped ones.
    let next = 0;
    for (let from = 0; from < kept.length || next < judged.length; from += EMIT_SLICE) {
      const slice = kept.slice(from, from + EMIT_SLICE);
      const routed = await this.deps.emission.accept(this.sourceId, slice, this.depth, invocationId, this.hops);
      collection.note(slice.length);
      // The emits up to this slice's last kept one (all that remain after the last slice).
      const until = from + EMIT_SLICE >= kept.length ? judged.length : judged.indexOf(slice[slice.length - 1] as EmitPayload, next) + 1;
      for (let k = 0; next < until; next++) {
        const payload = judged[next] as EmitPayload;
        const route = payload === slice[k] ? routed[k++] : undefined;
        if (!this.recorded.listing) this.recorded.count(!route);
        else this.recorded.add({ event_id: route?.event.id ?? null, dropped: !route, name: payload.meta.name ?? null, summary: payload.meta.summary ?? null, webhooks: route ? [...route.webhooks] : [] });
      }
    }
  }
}
