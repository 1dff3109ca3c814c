// Dedupe strategies (`unique`, `greatest`, `last`; docs/runtime.md), applied to what a source
// emits before it is stored. Each source's cache is kept in a small JSON file so a restart does
// not re-emit what was already seen.
import path from 'node:path';
import type { EmitPayload } from '../../contract/host-protocol';
import type { ProblemSink } from '../../lib/file-problems';
import { KeyedWrites } from '../../lib/keyed-writes';
import { readStateFile, removeStateFile, writeStateFile } from '../../lib/state-file';

export type DedupeStrategy = 'unique' | 'greatest' | 'last';

/** Ids the `unique` strategy remembers. */
export const UNIQUE_CACHE_SIZE = 100;

interface DedupeState {
  strategy: DedupeStrategy;
  /** unique: the latest ids, oldest first; greatest: the largest; last: the last emitted. */
  ids: Array<string | number>;
}

/** What dedupe kept of a batch, and why it let through events it could not judge. */
export interface DedupeResult {
  kept: EmitPayload[];
  warnings: string[];
}

/** Emits dedupe has judged, in emit order, and those of them it kept (a subsequence). */
export interface Judged {
  judged: readonly EmitPayload[];
  kept: EmitPayload[];
}

/**
 * One emission's dedupe, batch by batch (a run's emits come in batches: sandbox/emit-intake.ts).
 * `next` judges a batch's emits, or holds them (`last`, until its cached id shows up); `end`
 * judges what it still holds and gives the emission's warnings. Emits come out in emit order.
 */
export interface DedupeSession {
  next(batch: readonly EmitPayload[]): Judged;
  end(): Judged & { warnings: string[] };
}

/** How a strategy judges one emission batch by batch, updating the cache's ids as it goes. */
interface Judge {
  next(batch: readonly EmitPayload[]): Judged;
  /** What it still holds; then the warnings. */
  end(): Judged;
  warnings(): string[];
}

const NOTHING: Judged = { judged: [], kept: [] };

/** Per-source dedupe caches, persisted under one folder. */
export class Deduper {
  private readonly states = new Map<string, DedupeState>();
  private readonly writes = new KeyedWrites();

  constructor(
    private readonly dir: string,
    /** Receives what was found damaged when a cache is read. */
    private readonly report?: ProblemSink,
  ) {}

  /**
   * Filters one emission (a run's emits, already in emit order) by the source's strategy and
   * updates its cache. Events without a usable id are kept, with a warning for the logs.
   */
  filter(sourceId: string, strategy: DedupeStrategy | null, emits: readonly EmitPayload[]): DedupeResult {
    if (!strategy || emits.length === 0) return { kept: [...emits], warnings: [] };
    const session = this.session(sourceId, strategy);
    const first = session.next(emits);
    const rest = session.end();
    return { kept: first.kept.concat(rest.kept), warnings: rest.warnings };
  }

  /** Starts dedupe of one emission given batch by batch (see DedupeSession); the cache is saved as each batch changes it. */
  session(sourceId: string, strategy: DedupeStrategy | null): DedupeSession {
    if (!strategy) return { next: (batch) => ({ judged: batch, kept: [...batch] }), end: () => ({ ...NOTHING, warnings: [] }) };
    const state = this.state(sourceId, strategy);
    const judge = STRATEGIES[strategy](state);
    const saving = (judging: () => Judged): Judged => {
      const before = JSON.stringify(state.ids);
      const judged = judging();
      if (JSON.stringify(state.ids) !== before) this.save(sourceId, state);
      return judged;
    };
    return { next: (batch) => saving(() => judge.next(batch)), end: () => ({ ...saving(() => judge.end()), warnings: judge.warnings() }) };
  }

  /** Forgets a removed source's cache. */
  async remove(sourceId: string): Promise<void> {
    this.states.delete(sourceId);
    await this.writes.settled(sourceId);
    const file = this.file(sourceId);
    await removeStateFile(file);
  }

  /** Waits for cache writes in progress. */
  async flush(): Promise<void> {
    await this.writes.all();
  }

  private file(sourceId: string): string {
    return path.join(this.dir, `${sourceId}.json`);
  }

  /** The cache for the strategy; a source whose code changed strategy starts afresh. */
  private state(sourceId: string, strategy: DedupeStrategy): DedupeState {
    let state = this.states.get(sourceId) ?? readStateFile(this.file(sourceId), parseDedupe, this.report).value ?? undefined;
    if (!state || state.strategy !== strategy) state = { strategy, ids: [] };
    this.states.set(sourceId, state);
    return state;
  }

  /** Writes the cache (temp file and rename), one write per source at a time, the newest last. */
  private save(sourceId: string, state: DedupeState): void {
    const text = JSON.stringify(state);
    // A failed write is never the run's failure; the next change writes the whole cache again.
    this.writes.queue(sourceId, () => writeStateFile(this.file(sourceId), text)).catch(() => undefined);
  }
}

/** A cache file's content; throws when it is not one. */
export function parseDedupe(text: string): DedupeState {
  const state = JSON.parse(text) as Partial<DedupeState> | null;
  if (typeof state !== 'object' || state === null || !['unique', 'greatest', 'last'].includes(state.strategy as string) || !Array.isArray(state.ids)) {
    throw new Error('not a dedupe cache (no strategy or ids)');
  }
  return state as DedupeState;
}

const hasId = (e: EmitPayload) => typeof e.meta.id === 'string' || typeof e.meta.id === 'number';
const missingId = (strategy: DedupeStrategy, count: number) => `dedupe "${strategy}": ${count} event(s) emitted without an id were kept; pass { id } as $emit's second argument`;

const STRATEGIES: Record<DedupeStrategy, (state: DedupeState) => Judge> = {
  unique(state) {
    // Every id of the emission, not only the cache's last 100: a repeat anywhere in it is dropped.
    const seen = new Set(state.ids.map(String));
    let unidentified = 0;
    return {
      next(batch) {
        const kept: EmitPayload[] = [];
        for (const e of batch) {
          if (!hasId(e)) {
            unidentified++;
            kept.push(e);
            continue;
          }
          const key = String(e.meta.id);
          if (seen.has(key)) continue;
          seen.add(key);
          state.ids.push(e.meta.id as string | number);
          kept.push(e);
        }
        if (state.ids.length > UNIQUE_CACHE_SIZE) state.ids.splice(0, state.ids.length - UNIQUE_CACHE_SIZE);
        return { judged: batch, kept };
      },
      end: () => NOTHING,
      warnings: () => (unidentified ? [missingId('unique', unidentified)] : []),
    };
  },

  greatest(state) {
    let unjudged = 0;
    return {
      next(batch) {
        const kept: EmitPayload[] = [];
        for (const e of batch) {
          const n = typeof e.meta.id === 'number' ? e.meta.id : typeof e.meta.id === 'string' && e.meta.id.trim() !== '' ? Number(e.meta.id) : NaN;
          if (!Number.isFinite(n)) {
            unjudged++;
            kept.push(e);
            continue;
          }
          const largest = state.ids[0];
          if (largest !== undefined && n <= Number(largest)) continue;
          state.ids = [n];
          kept.push(e);
        }
        return { judged: batch, kept };
      },
      end: () => NOTHING,
      warnings: () => (unjudged ? [`dedupe "greatest": ${unjudged} event(s) without a numeric id were kept; give each $emit a numeric { id }`] : []),
    };
  },

  last(state) {
    // Only what follows the last event emitted before; no match means all of it is new. Until the
    // cached id shows up, what came is held: a later match drops it.
    const cached = state.ids[0];
    let matched = cached === undefined;
    let held: EmitPayload[] = [];
    let unidentified = 0;
    const keep = (kept: EmitPayload[]): EmitPayload[] => {
      const newest = kept.findLast(hasId);
      if (newest) state.ids = [newest.meta.id as string | number];
      for (const e of kept) if (!hasId(e)) unidentified++;
      return kept;
    };
    return {
      next(batch) {
        if (matched) return { judged: batch, kept: keep([...batch]) };
        const match = batch.findIndex((e) => hasId(e) && String(e.meta.id) === String(cached));
        if (match < 0) {
          for (const e of batch) held.push(e);
          return NOTHING;
        }
        matched = true;
        const judged = held.concat(batch);
        held = [];
        return { judged, kept: keep(batch.slice(match + 1)) };
      },
      end() {
        if (matched) return NOTHING;
        matched = true;
        const judged = held;
        held = [];
        return { judged, kept: keep([...judged]) };
      },
      warnings: () => (unidentified ? [missingId('last', unidentified)] : []),
    };
  },
};
