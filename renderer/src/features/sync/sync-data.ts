// The Sync screen's and the remote profiles' data: profiles, plans, and apply jobs followed to
// their end.
import type { RemoteInput, SyncApplyRequest, SyncJobView, SyncRequest } from '../../../../runtime/contract/sync-api';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';

/** The saved remote profiles (`GET /v1/remotes`); `reload` after adding or removing one. */
export function useRemotes() {
  const remotes = usePoll('remotes', () => api.listRemotes());
  return { remotes: remotes.data, error: remotes.error, reload: remotes.reload };
}

export const addRemote = (body: RemoteInput) => api.addRemote(body);
export const testRemote = (name: string) => api.testRemote(name);
export const removeRemote = (name: string) => api.removeRemote(name);
export const planSync = (request: SyncRequest) => api.syncPlan(request);

/**
 * Starts applying a plan and reports the job as it goes (every 300 ms until it ends); answers the
 * function that stops following.
 */
export async function applySync(request: SyncApplyRequest, onJob: (job: SyncJobView) => void, onError: (err: unknown) => void): Promise<() => void> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const follow = (id: string) => {
    api.syncJob(id).then((job) => {
      if (stopped) return;
      onJob(job);
      if (job.status === 'running') timer = setTimeout(() => follow(id), 300);
    }, onError);
  };
  const started = await api.syncApply(request);
  onJob(started);
  follow(started.id);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
