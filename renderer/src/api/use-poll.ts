// A data hook's loop: load now, again every `everyMs` (0: once), and on `reload()`; an answer that
// arrives after its screen moved on is dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf, ServiceUnreachable } from './client';

/** What a polled load gives a screen: the data (null until the first answer), the last error, and a way to load again. */
export interface Polled<T> {
  data: T | null;
  error: string | null;
  reload(): Promise<void>;
  /** Replaces the data held (an answer to a write carries the new state). */
  set(data: T): void;
}

/**
 * Loads with `load` whenever `key` changes, then every `everyMs`. While the service is unreachable
 * the data loaded before stays (the app's banner says why) and no error is set.
 */
export function usePoll<T>(key: string | null, load: () => Promise<T>, everyMs = 0): Polled<T> {
  const [state, setState] = useState<{ key: string | null; data: T | null; error: string | null }>({ key, data: null, error: null });
  const loader = useRef(load);
  loader.current = load;
  const current = useRef(key);
  current.current = key;

  const reload = useCallback(async () => {
    const mine = current.current;
    if (mine === null) return;
    try {
      const data = await loader.current();
      if (current.current === mine) setState({ key: mine, data, error: null });
    } catch (err) {
      if (current.current === mine && !(err instanceof ServiceUnreachable)) setState((s) => ({ ...s, key: mine, error: messageOf(err) }));
    }
  }, []);

  useEffect(() => {
    if (key === null) return;
    setState((s) => (s.key === key ? s : { key, data: null, error: null }));
    void reload();
    if (!everyMs) return;
    const timer = setInterval(() => void reload(), everyMs);
    return () => clearInterval(timer);
  }, [key, everyMs, reload]);

  const set = useCallback((data: T) => setState((s) => ({ ...s, data })), []);
  const fresh = state.key === key;
  return { data: fresh ? state.data : null, error: fresh ? state.error : null, reload, set };
}
