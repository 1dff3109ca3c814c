// A deployed source's data: reading it, and every change to it (each keeps the app's source list
// in step).

import { useEffect, useRef } from 'react';
import type { SourceInput, SourceUpdate, SourceView } from '../../../../runtime/contract/source-api';
import { ApiError, messageOf, ServiceUnreachable, useConnection } from '../../api/client';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';
import { useApp } from '../../app/store';

/** How often an open source is read again: a version saved elsewhere shows within this. */
const SOURCE_POLL_MS = 2000;

/**
 * One source as the service has it, read every 2 s (a version saved elsewhere is noticed while
 * the editor holds changes); `missing` says why there is none. While the service does not
 * answer there is neither (the screen shows the source as the list has it; the banner says why),
 * and it is read again once the service answers.
 */
export function useSource(id: string) {
  const reachable = useConnection((c) => c.reachable);
  const last = useRef<SourceView | null>(null);
  const read = usePoll(
    id,
    async () => {
      try {
        const fresh = await api.getSource(id);
        // Unchanged, it keeps its object: what the screen passes it to sees a change only when there is one.
        last.current = last.current && JSON.stringify(last.current) === JSON.stringify(fresh) ? last.current : fresh;
        return { source: last.current, missing: null };
      } catch (err) {
        if (err instanceof ServiceUnreachable) throw err;
        return { source: null, missing: err instanceof ApiError && err.status === 404 ? `Source ${id} does not exist (any more).` : messageOf(err) };
      }
    },
    SOURCE_POLL_MS,
  );
  const { reload, data } = read;
  useEffect(() => {
    if (reachable && data === null) void reload();
  }, [reachable, data, reload]);
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
