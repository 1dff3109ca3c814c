import { create } from 'zustand';
import type { LogLineView } from '../../../../runtime/contract/source-api';
import { messageOf } from '../../api/client';
import { followBatched } from '../../api/streams';
import { api } from '../../api/v1';

/** Lines kept in view per source. */
const KEPT = 5000;

interface LogState {
  sourceId: string | null;
  lines: LogLineView[];
  live: boolean;
  /** Paused: new lines wait in `held` and the view stays still. */
  paused: boolean;
  held: LogLineView[];
  error: string | null;
  open(sourceId: string): Promise<void>;
  close(): void;
  setPaused(paused: boolean): void;
  clear(): void;
}

let stop: (() => void) | null = null;

/** A source's log lines: the latest kept by the service, then live from `/sse/dc/{id}/observations`. */
export const useLogs = create<LogState>((set, get) => ({
  sourceId: null,
  lines: [],
  live: false,
  paused: false,
  held: [],
  error: null,

  async open(sourceId) {
    stop?.();
    set({ sourceId, lines: [], held: [], live: false, paused: false, error: null });
    try {
      const page = await api.listLogs(sourceId, 100);
      if (get().sourceId !== sourceId) return;
      const lines = [...page.data].reverse();
      set({ lines });
      const newest = page.data[0]?.id ?? null;
      const seen = new Set(lines.map((l) => l.id));
      stop = followBatched<LogLineView>(
        `/sse/dc/${encodeURIComponent(sourceId)}/observations`,
        seen,
        (batch) => {
          const s = get();
          if (s.sourceId !== sourceId) return;
          if (s.paused) set({ held: [...s.held, ...batch] });
          else set({ lines: [...s.lines, ...batch].slice(-KEPT) });
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
    set({ sourceId: null, lines: [], held: [], live: false });
  },

  setPaused(paused) {
    const s = get();
    if (!paused) set({ paused, lines: [...s.lines, ...s.held].slice(-KEPT), held: [] });
    else set({ paused });
  },

  clear() {
    set({ lines: [], held: [] });
  },
}));
