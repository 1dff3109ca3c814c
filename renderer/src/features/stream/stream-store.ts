import { create } from 'zustand';
import type { StreamRow } from '../../../../runtime/contract/stream-api';
import { ApiError, messageOf } from '../../api/client';
import { followBatched } from '../../api/streams';
import { api } from '../../api/v1';

/** Rows per page (the most the API gives). */
const PAGE = 100;
/** At most this many rows are held in the view (the list is windowed; older ones page in again on scroll). */
const KEPT = 5000;

interface StreamState {
  /** The filter the rows were read with. */
  filter: string;
  /** Newest first, all matching the filter (the service applies it). */
  items: StreamRow[];
  /** Rows that arrived while the list was scrolled away from the top: shown on `release`, so the list doesn't jump. */
  held: StreamRow[];
  /** Whether the top row is in view (new rows then join at once). */
  atTop: boolean;
  total: number;
  /** Whether `total` is a lower bound still being counted (the page's count was cut short: GET /v1/stream/count counts the rest). */
  counting: boolean;
  loaded: boolean;
  live: boolean;
  olderCursor: string | null;
  loadingOlder: boolean;
  /** The service's message for a filter that does not parse (a 400). */
  filterError: string | null;
  /** Any other failed read. */
  error: string | null;
  open(filter: string): Promise<void>;
  close(): void;
  loadOlder(): Promise<void>;
  setAtTop(atTop: boolean): void;
  release(): void;
}

let stop: (() => void) | null = null;
/** Ids of the rows held, to drop those the live stream sends again. */
let known = new Set<string>();
/** Bumped by every open, so an answer that arrives after a newer request is dropped. */
let generation = 0;

/** Rows the live stream added since the full count was asked for (they are not in it). */
let liveSinceCount = 0;

/** Counts every matching row when a page's count was cut short, then shows it (with the rows live added since). */
function countAll(filter: string, mine: number): void {
  liveSinceCount = 0;
  api.streamCount(filter || undefined).then(
    (total) => mine === generation && useStream.setState({ total: total + liveSinceCount, counting: false }),
    () => mine === generation && useStream.setState({ counting: false }),
  );
}

/**
 * The stream: a page of `GET /v1/stream?filter=` (runs and events of every source, action and
 * workflow, newest first), new matching rows live from `/sse/stream?filter=` (the service filters
 * both), older pages by cursor.
 */
export const useStream = create<StreamState>((set, get) => ({
  filter: '',
  items: [],
  held: [],
  atTop: true,
  total: 0,
  counting: false,
  loaded: false,
  live: false,
  olderCursor: null,
  loadingOlder: false,
  filterError: null,
  error: null,

  async open(filter) {
    stop?.();
    stop = null;
    const mine = ++generation;
    known = new Set();
    set({ filter, held: [], counting: false, loaded: false, live: false, olderCursor: null, loadingOlder: false, filterError: null, error: null });
    try {
      const page = await api.stream({ filter: filter || undefined, limit: PAGE });
      if (mine !== generation) return;
      for (const r of page.data) known.add(r.id);
      set({ items: page.data, total: page.page_info.total_count, counting: page.page_info.total_partial === true, loaded: true, olderCursor: page.data.length === PAGE ? (page.page_info.end_cursor ?? null) : null });
      if (page.page_info.total_partial) countAll(filter, mine);
    } catch (err) {
      if (mine !== generation) return;
      const bad = err instanceof ApiError && err.status === 400;
      set({ items: [], total: 0, loaded: true, filterError: bad ? messageOf(err) : null, error: bad ? null : messageOf(err) });
      return;
    }
    stop = followBatched<StreamRow>(
      `/sse/stream${filter ? `?filter=${encodeURIComponent(filter)}` : ''}`,
      known,
      (batch) => {
        if (mine !== generation) return;
        const fresh = [...batch].reverse();
        const s = get();
        liveSinceCount += fresh.length;
        if (s.atTop && s.held.length === 0) set({ items: [...fresh, ...s.items].slice(0, KEPT), total: s.total + fresh.length });
        else set({ held: [...fresh, ...s.held].slice(0, KEPT), total: s.total + fresh.length });
      },
      (live) => mine === generation && set({ live }),
      null,
    );
  },

  close() {
    stop?.();
    stop = null;
    generation++;
    set({ items: [], held: [], total: 0, counting: false, loaded: false, live: false, olderCursor: null });
  },

  async loadOlder() {
    const { olderCursor, filter, loadingOlder } = get();
    if (!olderCursor || loadingOlder) return;
    set({ loadingOlder: true });
    const mine = generation;
    try {
      const page = await api.stream({ filter: filter || undefined, limit: PAGE, before: olderCursor });
      if (mine !== generation) return;
      const older = page.data.filter((r) => !known.has(r.id));
      for (const r of older) known.add(r.id);
      set({ items: [...get().items, ...older].slice(0, KEPT), olderCursor: page.data.length === PAGE && get().items.length < KEPT ? (page.page_info.end_cursor ?? null) : null });
    } catch (err) {
      if (mine === generation) set({ error: messageOf(err) });
    } finally {
      if (mine === generation) set({ loadingOlder: false });
    }
  },

  setAtTop(atTop) {
    if (atTop !== get().atTop) set({ atTop });
  },

  release() {
    const { held, items } = get();
    set({ items: [...held, ...items].slice(0, KEPT), held: [], atTop: true });
  },
}));
