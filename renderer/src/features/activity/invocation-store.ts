import { create } from 'zustand';
import type { InvocationFilter, InvocationView } from '../../../../runtime/contract/invocation-api';
import { messageOf } from '../../api/client';
import { followBatched } from '../../api/streams';
import { api } from '../../api/v1';
import { invocationTitle } from './invocations';

/** Invocations per page of the list. */
const PAGE = 100;
/** At most this many invocations are held in the view (the list is windowed). */
const KEPT = 5000;

/** What a row of the list shows of a run: records hold bodies up to 256 KB, rows keep none of that. */
export interface RunRow {
  id: string;
  status: InvocationView['status'];
  trigger: InvocationView['trigger'];
  hook: InvocationView['hook'];
  started_at: number;
  duration_ms: number;
  /** `POST /path?query`, or the trigger. */
  title: string;
  /** The answer's status code, for HTTP runs. */
  response_status: number | null;
  /** Events stored (dedupe drops not counted). */
  emitted: number;
  replay_of: string | null;
  /** The error's message. */
  error: string | null;
}

/** A record as a row. */
function toRow(r: InvocationView): RunRow {
  return {
    id: r.id,
    status: r.status,
    trigger: r.trigger,
    hook: r.hook,
    started_at: r.started_at,
    duration_ms: r.duration_ms,
    title: invocationTitle(r),
    response_status: r.response?.status ?? null,
    emitted: r.emits.filter((e) => !e.dropped).length,
    replay_of: r.replay_of,
    error: r.error?.message ?? null,
  };
}

/** Rows newest started first (a sort that keeps the order of rows that started at the same time). */
function byStartDesc(rows: RunRow[]): RunRow[] {
  return rows.sort((a, b) => b.started_at - a.started_at);
}

interface InvocationState {
  sourceId: string | null;
  filter: InvocationFilter;
  /** Newest first; only those that pass the filter (the service applies it). */
  items: RunRow[];
  /** How many match on the service. */
  total: number;
  loaded: boolean;
  live: boolean;
  olderCursor: string | null;
  loadingOlder: boolean;
  error: string | null;
  open(sourceId: string): Promise<void>;
  close(): void;
  setFilter(filter: InvocationFilter): Promise<void>;
  loadOlder(): Promise<void>;
}

let stop: (() => void) | null = null;
/** Ids of the invocations held, to drop those the stream sends again. */
let known = new Set<string>();
/** Bumped by every load, so an answer that arrives after a newer request is dropped. */
let generation = 0;
let refetch: ReturnType<typeof setTimeout> | null = null;

/**
 * A source's recorded runs: a page from `GET /v1/sources/{id}/invocations` with the filter (status,
 * text search: both on the service), then new ones live from `/sse/dc/{id}/invocations`. A new run
 * joins the list when it passes the status filter; with a text search the page is asked for again,
 * since only the service knows what a record's text matches.
 */
export const useInvocations = create<InvocationState>((set, get) => {
  const load = async (sourceId: string, filter: InvocationFilter) => {
    const mine = ++generation;
    try {
      const page = await api.listInvocations(sourceId, { ...filter, limit: PAGE });
      if (mine !== generation) return;
      for (const r of page.data) known.add(r.id);
      set({
        items: page.data.map(toRow),
        total: page.page_info.total_count,
        loaded: true,
        error: null,
        olderCursor: page.data.length === PAGE ? (page.page_info.end_cursor ?? null) : null,
      });
    } catch (err) {
      if (mine === generation) set({ error: messageOf(err), loaded: true });
    }
  };

  const arrived = (sourceId: string, batch: InvocationView[]) => {
    const s = get();
    if (s.sourceId !== sourceId) return;
    if (s.filter.q) {
      refetch ??= setTimeout(() => {
        refetch = null;
        const now = get();
        if (now.sourceId === sourceId) void load(sourceId, now.filter);
      }, 300);
      return;
    }
    const fresh = batch
      .filter((r) => !s.filter.status || r.status === s.filter.status)
      .reverse()
      .map(toRow);
    // Runs arrive as they end; the list is newest started first, as the service lists them.
    if (fresh.length) set({ items: byStartDesc([...fresh, ...s.items]).slice(0, KEPT), total: s.total + fresh.length });
  };

  return {
    sourceId: null,
    filter: {},
    items: [],
    total: 0,
    loaded: false,
    live: false,
    olderCursor: null,
    loadingOlder: false,
    error: null,

    async open(sourceId) {
      stop?.();
      known = new Set();
      const filter = get().sourceId === sourceId ? get().filter : {};
      set({ sourceId, filter, items: [], total: 0, loaded: false, live: false, olderCursor: null, error: null });
      await load(sourceId, filter);
      if (get().sourceId !== sourceId) return;
      // Resumed after the newest shown: what a status filter hid after it does not pass the filter
      // either, and a text search asks the service again anyway.
      stop = followBatched<InvocationView>(
        `/sse/dc/${encodeURIComponent(sourceId)}/invocations`,
        known,
        (batch) => arrived(sourceId, batch),
        (live) => get().sourceId === sourceId && set({ live }),
        get().items[0]?.id ?? null,
      );
    },

    close() {
      stop?.();
      stop = null;
      generation++;
      if (refetch) clearTimeout(refetch);
      refetch = null;
      set({ sourceId: null, items: [], total: 0, loaded: false, live: false, olderCursor: null });
    },

    async setFilter(filter) {
      const { sourceId } = get();
      set({ filter });
      if (sourceId) await load(sourceId, filter);
    },

    async loadOlder() {
      const { sourceId, olderCursor, filter } = get();
      if (!sourceId || !olderCursor) return;
      set({ loadingOlder: true });
      const mine = generation;
      try {
        const page = await api.listInvocations(sourceId, { ...filter, limit: PAGE, before: olderCursor });
        if (mine !== generation || get().sourceId !== sourceId) return;
        const ids = new Set(get().items.map((r) => r.id));
        set({
          items: [...get().items, ...page.data.filter((r) => !ids.has(r.id)).map(toRow)].slice(0, KEPT),
          olderCursor: page.data.length === PAGE ? (page.page_info.end_cursor ?? null) : null,
        });
      } catch (err) {
        set({ error: messageOf(err) });
      } finally {
        set({ loadingOlder: false });
      }
    },
  };
});
