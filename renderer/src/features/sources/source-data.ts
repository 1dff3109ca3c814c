// A deployed source's data: reading it, and every change to it (each keeps the app's source list
// in step).
import type { SourceInput, SourceUpdate, SourceView } from '../../../../runtime/contract/source-api';
import { ApiError, messageOf } from '../../api/client';
import { api } from '../../api/v1';
import { usePoll } from '../../api/use-poll';
import { useApp } from '../../app/store';

/** One source as the service has it; `missing` says why there is none. */
export function useSource(id: string) {
  const read = usePoll(id, async () => {
    try {
      return { source: await api.getSource(id), missing: null };
    } catch (err) {
      return { source: null, missing: err instanceof ApiError && err.status === 404 ? `Source ${id} does not exist (any more).` : messageOf(err) };
    }
  });
  return { source: read.data?.source ?? null, missing: read.data?.missing ?? null, set: (source: SourceView) => read.set({ source, missing: null }) };
}

/** Deploys a source. */
export async function deploySource(body: SourceInput): Promise<SourceView> {
  const saved = await api.deploySource(body);
  useApp.getState().upsertSource(saved);
  return saved;
}

/** Changes a source (code, props, name, active, network mode); answers it as it is now. */
export async function updateSource(id: string, body: SourceUpdate): Promise<SourceView> {
  const saved = await api.updateSource(id, body);
  useApp.getState().upsertSource(saved);
  return saved;
}

export async function deleteSource(id: string): Promise<void> {
  await api.deleteSource(id);
  useApp.getState().removeSource(id);
}

/** Runs the source once now (`POST /v1/sources/{id}/run`). */
export const runSource = (id: string) => api.runSource(id);

/** A registry component with its code (`GET /v1/components/registry/{key}`). */
export const readRegistryComponent = (key: string) => api.registryComponent(key);
