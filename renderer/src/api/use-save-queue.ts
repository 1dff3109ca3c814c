// A component's settings save queue (save-queue.ts): one for its life, reading its latest props.
import { useCallback, useRef } from 'react';
import { createSaveQueue, type SettingsChange } from './save-queue';

/** `createSaveQueue` held by a component: one queue for its life, reading the latest `send` and `current`. */
export function useSaveQueue<S extends object, P extends object>(send: (patch: P) => Promise<S>, current: () => S | null): (change: SettingsChange<S, P>) => Promise<void> {
  const latest = useRef({ send, current });
  latest.current = { send, current };
  const queue = useRef<((change: SettingsChange<S, P>) => Promise<void>) | null>(null);
  queue.current ??= createSaveQueue<S, P>(
    (patch) => latest.current.send(patch),
    () => latest.current.current(),
  );
  const save = queue.current;
  return useCallback((change: SettingsChange<S, P>) => save(change), [save]);
}
