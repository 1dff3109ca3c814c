import { create } from 'zustand';
import type { EventSummary, SourceView } from '../../runtime/api/types';
import { followEvents, listEvents, listSources } from './api';

/** Events shown per source (spec 6.2: the latest 100). */
const SHOWN = 100;

interface AppState {
  sources: SourceView[];
  selectedId: string | null;
  events: EventSummary[];
  live: boolean;
  error: string | null;
  loadSources(): Promise<void>;
  select(id: string): Promise<void>;
}

let stopFollowing: (() => void) | null = null;

/** The UI's state: sources, the selected one, and its events as they arrive. */
export const useApp = create<AppState>((set, get) => ({
  sources: [],
  selectedId: null,
  events: [],
  live: false,
  error: null,

  async loadSources() {
    try {
      const page = await listSources();
      set({ sources: page.data, error: null });
      const first = page.data[0];
      if (!get().selectedId && first) await get().select(first.id);
    } catch (err) {
      set({ error: (err as Error).message });
    }
  },

  async select(id) {
    stopFollowing?.();
    set({ selectedId: id, events: [], live: false });
    try {
      const page = await listEvents(id);
      if (get().selectedId !== id) return;
      set({ events: page.data });
      stopFollowing = followEvents(
        id,
        (e) => {
          if (get().selectedId !== id || get().events.some((x) => x.id === e.id)) return;
          set({ events: [e, ...get().events].slice(0, SHOWN) });
        },
        (live) => set({ live }),
      );
    } catch (err) {
      set({ error: (err as Error).message });
    }
  },
}));
