// The split view: a source's editor beside its Activity, Logs or Events on wide screens, so the
// loop (change, Ctrl+S, replay, look) happens in one place; and following a stack frame to its line.
import { create } from 'zustand';
import { useRoute } from '../../app/router';
import { revealInEditor } from './editor-store';

const KEY = 'spout.split-view';
/** Screens at least this wide have room for the editor beside a list and its detail. */
export const WIDE = '(min-width: 1280px)';

const stored = () => {
  try {
    return window.localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
};

/** Whether the user asked for the editor beside the other tabs (kept across reloads). */
export const useSplitView = create<{ on: boolean; toggle(): void }>((set, get) => ({
  on: stored(),
  toggle() {
    const on = !get().on;
    try {
      window.localStorage.setItem(KEY, on ? 'on' : 'off');
    } catch {
      // storage disabled: the choice lasts until a reload
    }
    set({ on });
  },
}));

/** True while the split view is on and the screen wide enough to show it. */
export const splitShown = () => useSplitView.getState().on && window.matchMedia(WIDE).matches;

/** Opens `line` of a source's code: in the editor beside, or on the Configure tab. */
export function openLine(sourceId: string, line: number): void {
  revealInEditor(sourceId, line);
  if (!splitShown()) useRoute.getState().navigate(`/sources/${encodeURIComponent(sourceId)}`);
}
