// What the palette asks the service: a run or event id typed whole (the stores hold neither), and
// its commands that run something.
import { api } from '../../api/v1';
import { activityPath, eventPath } from '../activity/invocations';
import type { PaletteItem } from './palette-items';

/** The palette item for run `id` (its source's Activity, or its action), or null when the service has none. */
export async function findRun(id: string): Promise<PaletteItem | null> {
  try {
    const run = await api.getInvocation(id);
    const to = run.owner_id.startsWith('dc_') ? activityPath(run.owner_id, run.id) : `/actions/${encodeURIComponent(run.owner_id)}`;
    return { id: `run:${run.id}`, kind: 'run', label: `Run ${run.id}`, detail: `${run.status}, ${run.trigger}`, to };
  } catch {
    return null;
  }
}

/** The palette item for event `id` in whichever of `sourceIds` stored it, or null when none did. */
export async function findEvent(id: string, sourceIds: readonly string[]): Promise<PaletteItem | null> {
  // Events are kept per source: ask each source the stores know (the first that has it wins).
  const found = await Promise.all(
    sourceIds.map((s) =>
      api.getEvent(s, id).then(
        () => s,
        () => null,
      ),
    ),
  );
  const sourceId = found.find((s) => s !== null);
  return sourceId ? { id: `event:${id}`, kind: 'event', label: `Event ${id}`, detail: `of ${sourceId}`, to: eventPath(sourceId, id) } : null;
}

/** Runs palette command `item` (run now, replay): what to say and where the run it made is shown. */
export async function runCommand(item: Extract<PaletteItem, { command: string }>): Promise<{ text: string; ok: boolean; to: string }> {
  if (item.command === 'run-now') {
    const ran = await api.runSource(item.target);
    const n = ran.emitted.length;
    return { text: ran.error ? `Run failed: ${ran.error.message}` : `Ran: ${n} event${n === 1 ? '' : 's'} emitted`, ok: !ran.error, to: activityPath(item.target, ran.invocation_id) };
  }
  const replayed = await api.replayInvocation(item.target);
  return { text: `Replayed as ${replayed.id}`, ok: true, to: activityPath(replayed.owner_id, replayed.id) };
}
