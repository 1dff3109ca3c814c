// A recorded run's data: the record (with the deliveries its events caused, followed until they
// settle), the run that emitted an event, an action's recorded runs, replays, and tests of runs.
import { useEffect, useState } from 'react';
import type { InvocationRecordView, InvocationView, ReplayEdits } from '../../../../runtime/contract/invocation-api';
import { ApiError, messageOf } from '../../api/client';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';

/** While a delivery of the run's events is still under way, the record is asked for again this often. */
const DELIVERY_REFRESH_MS = 3000;

/** What a run the service no longer keeps is shown as. */
export const PRUNED = 'This run is no longer kept: the service keeps the latest runs of each source (Settings shows how many), and their events longer. The events it emitted are still in the Events tab.';

/** One recorded run; read again every 3 s while a delivery it caused is pending or failing. */
export function useInvocationRecord(id: string): { record: InvocationRecordView | null; error: string | null } {
  const [state, setState] = useState<{ id: string; record: InvocationRecordView | null; error: string | null }>({ id, record: null, error: null });
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ id, record: null, error: null });
    const load = () =>
      api
        .getInvocation(id)
        .then((record) => {
          if (cancelled) return;
          setState({ id, record, error: null });
          if (record.deliveries.some((d) => d.status === 'pending' || d.status === 'failing')) timer = setTimeout(() => void load(), DELIVERY_REFRESH_MS);
        })
        .catch((err: unknown) => !cancelled && setState({ id, record: null, error: err instanceof ApiError && err.status === 404 ? PRUNED : messageOf(err) }));
    void load();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [id]);
  return state.id === id ? { record: state.record, error: state.error } : { record: null, error: null };
}

/**
 * The run that emitted an event, or `pruned` when the service no longer keeps it: runs are kept
 * per source up to a limit and events longer, so an old event's run may be gone. `reading` until
 * the service has said which.
 */
export function useEmittingRun(invocationId: string | null): { run: InvocationView | null; pruned: boolean; reading: boolean } {
  const read = usePoll(invocationId, async () => {
    try {
      return { run: await api.getInvocation(invocationId as string), pruned: false };
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return { run: null, pruned: true };
      throw err;
    }
  });
  return read.data ? { ...read.data, reading: false } : { run: null, pruned: false, reading: invocationId !== null && read.error === null };
}

/** The latest recorded runs of the action that made run `invocationId` (test runs and workflow steps). */
export function useActionRuns(invocationId: string, limit: number): InvocationView[] | null {
  const read = usePoll(invocationId, async () => (await api.listComponentInvocations((await api.getInvocation(invocationId)).owner_id, limit)).data);
  return read.error ? [] : read.data;
}

/** Runs a recorded run again against the current code, edited as given; answers the new record. */
export const replayInvocation = (id: string, edits?: ReplayEdits) => api.replayInvocation(id, edits);

/** A test of a source's run, written by the service: the files to put beside its component. */
export const testOfRun = (id: string) => api.runTest(id);
/** The run's owner's cassette with an entry to fill in for each call no recording answered. */
export const cassetteSkeletonOf = (id: string) => api.cassetteSkeleton(id);
