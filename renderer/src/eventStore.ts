import { create } from 'zustand';
import type { EventSummary } from '../../runtime/api/types';
import { api, followBatched, messageOf } from './api';

/** The latest events shown live (spec 6.2); older ones load on request. */
export const LATEST = 100;
/** At most this many events are held in the view (the list is windowed). */
const KEPT = 20_000;

interface EventState {
  sourceId: string | null;
  /** Newest first. */
  events: EventSummary[];
  live: boolean;
  olderCursor: string | null;
  loadingOlder: boolean;
  error: string | null;
  open(sourceId: string): Promise<void>;
  close(): void;
  loadOlder(): Promise<void>;
  remove(ids: string[]): void;
  clearAll(): void;
}

let stop: (() => void) | null = null;
/** Ids of the events held, to drop duplicates in O(1). */
let known = new Set<string>();

/** A source's events: the latest 100 from `event_summaries`, then live from `/sse/dc/{id}/emits`. */
export const useEvents = create<EventState>((set, get) => ({
  sourceId: null,
  events: [],
  live: false,
  olderCursor: null,
  loadingOlder: false,
  error: null,

  async open(sourceId) {
    stop?.();
    set({ sourceId, events: [], live: false, olderCursor: null, error: null });
    try {
      const page = await api.listEvents(sourceId, { limit: LATEST });
      if (get().sourceId !== sourceId) return;
      set({ events: page.data, olderCursor: page.data.length === LATEST ? (page.page_info.end_cursor ?? page.data[page.data.length - 1]?.id ?? null) : null });
      const newest = page.data[0]?.id ?? null;
      known = new Set(page.data.map((e) => e.id));
      stop = followBatched<EventSummary>(
        `/sse/dc/${encodeURIComponent(sourceId)}/emits`,
        known,
        (batch) => get().sourceId === sourceId && set({ events: [...batch.reverse(), ...get().events].slice(0, KEPT) }),
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
    set({ sourceId: null, events: [], live: false, olderCursor: null });
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

  remove(ids) {
    const gone = new Set(ids);
    set({ events: get().events.filter((e) => !gone.has(e.id)) });
  },

  clearAll() {
    set({ events: [], olderCursor: null });
  },
}));
