// The Data stores screen's data: a store's records and every change to a store (each keeps the
// app's store list, with its record counts, in step).
import { useEffect, useState } from 'react';
import type { DataStoreRecordView } from '../../../../runtime/contract/component-api';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';
import { useApp } from '../../app/store';

/** A store's records by key: the first `pages` pages and how many there are in all; `more` loads the next page. */
export function useRecords(storeId: string) {
  const [pages, setPages] = useState(1);
  useEffect(() => setPages(1), [storeId]);
  const read = usePoll(`${storeId}:${pages}`, async () => {
    const records: DataStoreRecordView[] = [];
    let total = 0;
    let before: string | undefined;
    for (let i = 0; i < pages; i++) {
      const page = await api.listRecords(storeId, before);
      records.push(...page.data);
      total = page.page_info.total_count;
      before = page.page_info.end_cursor ?? undefined;
      if (!before) break;
    }
    return { records, total };
  });
  return { records: read.data?.records ?? [], total: read.data?.total ?? 0, loaded: read.data !== null, error: read.error, reload: read.reload, more: () => setPages((p) => p + 1) };
}

/** Runs a change, then loads the store list again (record counts, names). */
async function changing<T>(change: Promise<T>): Promise<T> {
  const result = await change;
  void useApp.getState().loadDataStores();
  return result;
}

export const createDataStore = (name: string) => changing(api.createDataStore(name));
export const renameDataStore = (id: string, name: string) => changing(api.renameDataStore(id, name));
export const deleteDataStore = (id: string) => changing(api.deleteDataStore(id));
export const putRecord = (id: string, key: string, value: unknown, ttl: number | null) => changing(api.putRecord(id, key, value, ttl));
export const deleteRecord = (id: string, key: string) => changing(api.deleteRecord(id, key));
export const clearRecords = (id: string) => changing(api.clearRecords(id));
