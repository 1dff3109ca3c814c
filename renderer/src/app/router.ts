import { create } from 'zustand';

/** The current location: the app routes by path (`/sources/dc_…/logs`), as the service serves index.html for every GET. */
interface RouteState {
  path: string;
  query: URLSearchParams;
  /** The last navigation picked an item within the screen (a list's selection): focus stays where it is. */
  keepFocus: boolean;
  navigate(to: string, options?: { replace?: boolean; keepFocus?: boolean }): void;
}

const read = () => ({ path: window.location.pathname === '/' ? '/sources' : window.location.pathname, query: new URLSearchParams(window.location.search), keepFocus: false });

export const useRoute = create<RouteState>((set) => ({
  ...read(),
  navigate(to, options = {}) {
    if (to === window.location.pathname + window.location.search) return;
    if (options.replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    set({ ...read(), keepFocus: options.keepFocus ?? false });
  },
}));

window.addEventListener('popstate', () => useRoute.setState(read()));

/** The path's segments: `/sources/dc_1/logs` → ['sources', 'dc_1', 'logs']. */
export function segments(path: string): string[] {
  return path.split('/').filter(Boolean).map(decodeURIComponent);
}
