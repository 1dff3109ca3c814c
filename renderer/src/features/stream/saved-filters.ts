import { useEffect, useState } from 'react';
import type { SavedFilter } from '../../../../runtime/contract/stream-api';
import { messageOf } from '../../api/client';
import { api } from '../../api/v1';

/**
 * The stream's saved filters (`/v1/stream/filters`, null until read), the last problem, and one
 * filter's save and delete (each answers whether it was done). One at a time, so that another
 * window's changes are kept: the list shown is the service's after each change.
 */
export function useSavedFilters(): { saved: SavedFilter[] | null; error: string | null; save(f: SavedFilter): Promise<boolean>; remove(name: string): Promise<boolean> } {
  const [saved, setSaved] = useState<SavedFilter[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.streamFilters().then(setSaved, (err) => setError(messageOf(err)));
  }, []);
  const change = async (call: () => Promise<SavedFilter[]>) => {
    try {
      setSaved(await call());
      setError(null);
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    }
  };
  return { saved, error, save: (f) => change(() => api.saveStreamFilter(f)), remove: (name) => change(() => api.deleteStreamFilter(name)) };
}
