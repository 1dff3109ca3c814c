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
    const state = this.state(sourceId, strategy);
    const before = JSON.stringify(state.ids);
    const result = STRATEGIES[strategy](state, emits);
    if (JSON.stringify(state.ids) !== before) this.save(sourceId, state);
    return result;
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

const STRATEGIES: Record<DedupeStrategy, (state: DedupeState, emits: readonly EmitPayload[]) => DedupeResult> = {
  unique(state, emits) {
    const seen = new Set(state.ids.map(String));
    const kept: EmitPayload[] = [];
    let unidentified = 0;
    for (const e of emits) {
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
    return { kept, warnings: unidentified ? [missingId('unique', unidentified)] : [] };
  },

  greatest(state, emits) {
    const kept: EmitPayload[] = [];
    let unjudged = 0;
    for (const e of emits) {
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
    const warning = `dedupe "greatest": ${unjudged} event(s) without a numeric id were kept; give each $emit a numeric { id }`;
    return { kept, warnings: unjudged ? [warning] : [] };
  },

  last(state, emits) {
    const cached = state.ids[0];
    const match = cached === undefined ? -1 : emits.findIndex((e) => hasId(e) && String(e.meta.id) === String(cached));
    // Only what follows the last event emitted before; no match means all of it is new.
    const kept = emits.slice(match + 1);
    const newest = kept.findLast(hasId);
    if (newest) state.ids = [newest.meta.id as string | number];
    const unidentified = kept.filter((e) => !hasId(e)).length;
    return { kept, warnings: unidentified ? [missingId('last', unidentified)] : [] };
  },
};
