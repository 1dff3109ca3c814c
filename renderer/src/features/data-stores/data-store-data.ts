// The Data stores screen's data: a store's records and every change to a store (each keeps the
// app's store list, with its record counts, in step).
import { api } from '../../api/v1';
import { usePoll } from '../../api/use-poll';
import { useApp } from '../../app/store';

/** A store's records (the first page). */
export function useRecords(storeId: string) {
  const page = usePoll(storeId, async () => (await api.listRecords(storeId)).data);
  return { records: page.data ?? [], error: page.error, reload: page.reload };
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
