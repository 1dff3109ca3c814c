// Run now on a source with an HTTP interface: the request it would send (the last one received,
// else the default), the source's saved test payloads, sending a request, and saving one.
import type { RunNowInput, RunRequest, RunRequestView, SavedPayload } from '../../../../runtime/contract/run-request-api';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';

/** The request Run now prefills and the source's saved payloads (newest first); `reload` reads both again (after a send, the last request is the one sent). */
export function useRunRequest(sourceId: string): { view: RunRequestView | null; payloads: SavedPayload[]; error: string | null; reload(): Promise<void> } {
  const prefill = usePoll(`run-request:${sourceId}`, () => api.runRequest(sourceId));
  const saved = usePoll(`payloads:${sourceId}`, () => api.listPayloads(sourceId));
  return { view: prefill.data, payloads: saved.data ?? [], error: prefill.error ?? saved.error, reload: async () => void (await Promise.all([prefill.reload(), saved.reload()])) };
}

/** Runs the source now with a request (or a saved payload); answers once its run is recorded. */
export const runWithRequest = (sourceId: string, input: RunNowInput) => api.runSource(sourceId, input);

/** Saves (or replaces) a test payload of the source. */
export const savePayload = (sourceId: string, name: string, request: RunRequest) => api.savePayload(sourceId, name, request);

/** Deletes a saved test payload. */
export const deletePayload = (sourceId: string, name: string) => api.deletePayload(sourceId, name);
