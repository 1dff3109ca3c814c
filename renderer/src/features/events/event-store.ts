import { create } from 'zustand';
import type { EventSummary } from '../../../../runtime/contract/source-api';
import { messageOf } from '../../api/client';
import { followBatched } from '../../api/streams';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';

/** The latest events shown live; older ones load on request. */
export const LATEST = 100;
/** At most this many events are held in the view (the list is windowed). */
const KEPT = 20_000;

/** A text search over every stored event of the source, run by the service (`event_summaries?q=`). */
export interface EventSearch {
  q: string;
  /** Newest first. */
  results: EventSummary[];
  /** How many events match on the service. */
  total: number;
  loading: boolean;
  olderCursor: string | null;
}

interface EventState {
  sourceId: string | null;
  /** Newest first. */
  events: EventSummary[];
  /** How many the service stores for the source (all of them, not only those loaded here). */
  total: number;
  live: boolean;
  olderCursor: string | null;
  loadingOlder: boolean;
  error: string | null;
  /** The search in force, or null when the view shows the latest events. */
  search: EventSearch | null;
  open(sourceId: string): Promise<void>;
  /** Searches the source's stored events on the service; empty text ends the search. */
  setSearch(q: string): Promise<void>;
  loadMoreResults(): Promise<void>;
  /** Deletes one event on the service and from the view. */
  deleteOne(id: string): Promise<void>;
  /** Deletes every event of the source on the service; answers how many. */
  deleteAll(): Promise<number>;
  loadOlder(): Promise<void>;
  close(): void;
}

let stop: (() => void) | null = null;
/** Ids of the events held, to drop duplicates in O(1). */
let known = new Set<string>();
/** Bumped by every search, so an answer that arrives after a newer one is dropped. */
let searchGeneration = 0;
// biome-ignore lint/correctness/noUnusedVariables: ??= reads it (one search pending at a time); Biome counts ??= as a write only.
let searchAgain: ReturnType<typeof setTimeout> | null = null;

/** A source's events: the latest 100 from `event_summaries`, then live from `/sse/dc/{id}/emits`; or a search over all of them on the service. */
export const useEvents = create<EventState>((set, get) => ({
  sourceId: null,
  events: [],
  total: 0,
  live: false,
  olderCursor: null,
  loadingOlder: false,
  error: null,
  search: null,

  async open(sourceId) {
    stop?.();
    searchGeneration++;
    set({ sourceId, events: [], total: 0, live: false, olderCursor: null, error: null, search: null });
    try {
      const page = await api.listEvents(sourceId, { limit: LATEST });
      if (get().sourceId !== sourceId) return;
      set({ events: page.data, total: page.page_info.total_count, olderCursor: page.data.length === LATEST ? (page.page_info.end_cursor ?? page.data[page.data.length - 1]?.id ?? null) : null });
      const newest = page.data[0]?.id ?? null;
      known = new Set(page.data.map((e) => e.id));
      stop = followBatched<EventSummary>(
        `/sse/dc/${encodeURIComponent(sourceId)}/emits`,
        known,
        (batch) => {
          if (get().sourceId !== sourceId) return;
          set({ events: [...batch.reverse(), ...get().events].slice(0, KEPT), total: get().total + batch.length });
          // New events may match the search in force: ask the service again once they settle.
          searchAgain ??= setTimeout(() => {
            searchAgain = null;
            const search = get().search;
            if (search && get().sourceId === sourceId) void get().setSearch(search.q);
          }, 300);
        },
        (live) => get().sourceId === sourceId && set({ live }),
        newest,
      );
    } catch (err) {
      set({ error: messageOf(err) });
    }
  },

  close() {
    stop?.();
    stop = null;
    searchGeneration++;
    set({ sourceId: null, events: [], total: 0, live: false, olderCursor: null, search: null });
  },

  async setSearch(text) {
    const { sourceId } = get();
    const q = text.trim();
    const mine = ++searchGeneration;
    if (!sourceId || !q) return set({ search: null });
    const before = get().search;
    set({ search: { q, results: before?.q === q ? before.results : [], total: before?.q === q ? before.total : 0, loading: true, olderCursor: null } });
    try {
      const page = await api.listEvents(sourceId, { limit: LATEST, q });
      if (mine !== searchGeneration) return;
      set({ search: { q, results: page.data, total: page.page_info.total_count, loading: false, olderCursor: page.data.length === LATEST ? (page.page_info.end_cursor ?? null) : null } });
    } catch (err) {
      if (mine === searchGeneration) set({ error: messageOf(err), search: { q, results: [], total: 0, loading: false, olderCursor: null } });
    }
  },

  async loadMoreResults() {
    const { sourceId, search } = get();
    if (!sourceId || !search?.olderCursor) return;
    const mine = searchGeneration;
    set({ search: { ...search, loading: true } });
    try {
      const page = await api.listEvents(sourceId, { limit: LATEST, q: search.q, before: search.olderCursor });
      if (mine !== searchGeneration) return;
      const now = get().search ?? search;
      set({ search: { ...now, results: [...now.results, ...page.data], loading: false, olderCursor: page.data.length === LATEST ? (page.page_info.end_cursor ?? null) : null } });
    } catch (err) {
      if (mine === searchGeneration) set({ error: messageOf(err), search: { ...search, loading: false } });
    }
  },

  async loadOlder() {
    const { sourceId, olderCursor } = get();
    if (!sourceId || !olderCursor) return;
    set({ loadingOlder: true });
    try {
      const page = await api.listEvents(sourceId, { limit: LATEST, before: olderCursor });
      if (get().sourceId !== sourceId) return;
      const older = page.data.filter((e) => !known.has(e.id));
      for (const e of older) known.add(e.id);
      set({
        events: [...get().events, ...older].slice(0, KEPT),
        olderCursor: page.data.length === LATEST ? (page.data[page.data.length - 1]?.id ?? null) : null,
      });
    } catch (err) {
      set({ error: messageOf(err) });
    } finally {
      set({ loadingOlder: false });
    }
  },

  async deleteOne(id) {
    const { sourceId } = get();
    if (!sourceId) return;
    await api.deleteEvents(sourceId, { start_id: id, end_id: id });
    const gone = new Set([id]);
    const search = get().search;
    set({ events: get().events.filter((e) => !gone.has(e.id)), total: Math.max(0, get().total - 1), search: search && { ...search, results: search.results.filter((e) => !gone.has(e.id)), total: search.total - search.results.filter((e) => gone.has(e.id)).length } });
  },

  async deleteAll() {
    const { sourceId } = get();
    if (!sourceId) return 0;
    const { deleted } = await api.deleteEvents(sourceId, {});
    const search = get().search;
    set({ events: [], total: 0, olderCursor: null, search: search && { ...search, results: [], total: 0, olderCursor: null } });
    return deleted;
  },
}));

/** One event by id, its data in full (a link to an event not in the list); `missing` says why there is none. */
export function useEvent(sourceId: string, eventId: string | null) {
  const read = usePoll(eventId && `${sourceId}:${eventId}`, () => api.getEvent(sourceId, eventId as string));
  return { event: read.data, missing: read.error };
}

/** Sends a stored event to a webhook again, as a new delivery message. */
export const redeliverEvent = (sourceId: string, eventId: string, webhookId: string) => api.redeliverEvent(sourceId, eventId, webhookId);
