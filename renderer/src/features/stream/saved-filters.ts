import { useEffect, useState } from 'react';
import type { SavedFilter } from '../../../../runtime/contract/stream-api';
import { messageOf } from '../../api/client';
import { api } from '../../api/v1';

/** The stream's saved filters (`/v1/stream/filters`, null until read), the last problem, and `put` (replaces them all; answers whether it was saved). */
export function useSavedFilters(): { saved: SavedFilter[] | null; error: string | null; put(next: SavedFilter[]): Promise<boolean> } {
  const [saved, setSaved] = useState<SavedFilter[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.streamFilters().then(setSaved, (err) => setError(messageOf(err)));
  }, []);
  const put = async (next: SavedFilter[]) => {
    try {
      setSaved(await api.putStreamFilters(next));
      setError(null);
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    }
  };
  return { saved, error, put };
}
