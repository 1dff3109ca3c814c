// The Network tab's data: a source's cassette.
import type { Cassette } from '../../../../runtime/contract/network-api';
import { api } from '../../api/v1';

export const readCassette = (sourceId: string) => api.getCassette(sourceId);
/** Replaces the cassette; answers it as saved. */
export const saveCassette = (sourceId: string, cassette: Cassette) => api.putCassette(sourceId, cassette);
