// Where a stream row's target, run and event are shown in the rest of the app.
import type { StreamRow } from '../../../../runtime/contract/stream-api';
import { activityPath, eventPath } from '../activity/invocations';

const enc = encodeURIComponent;
const SECTION = { source: 'sources', action: 'actions', workflow: 'workflows' } as const;

/** The page of a row's source, action or workflow. */
export const targetPath = (t: StreamRow['target']) => `/${SECTION[t.type]}/${enc(t.id)}`;

/** Where the row itself is shown in full: a source's run in its Activity, an event in its Events inspector, else the target's page. */
export function rowPath(row: StreamRow): string {
  if (row.target.type !== 'source') return targetPath(row.target);
  return row.kind === 'event' ? eventPath(row.target.id, row.id) : activityPath(row.target.id, row.id);
}

/** Where the run that emitted an event is shown, or null. */
export const emittingRunPath = (row: StreamRow) => (row.kind === 'event' && row.run_id && row.target.type === 'source' ? activityPath(row.target.id, row.run_id) : null);

/** A byte count in the largest fitting unit: `512 B`, `2.1 KB`, `3.4 MB`. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
