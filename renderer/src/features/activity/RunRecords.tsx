import { useState } from 'react';
import { clockTime } from '../../ui/format';
import { duration } from '../workflows/workflow';
import { InvocationDetail } from './InvocationDetail';
import { useActionRuns } from './invocation-data';
import { statusBadge } from './invocations';

/** Records listed for an action. */
const SHOWN = 10;

/**
 * An action's recorded runs, newest first (`GET /v1/components/{id}/invocations`: test runs and
 * workflow steps), found from the record of the run just made; each opens to its record (status,
 * duration, logs, the stack mapped to the file with the runtime's frames a toggle away).
 */
export function RunRecords({ invocationId }: { invocationId: string }) {
  const records = useActionRuns(invocationId, SHOWN);
  const [open, setOpen] = useState<string | null>(null);

  if (!records || records.length === 0) return null;
  return (
    <section className="output-part run-records" aria-labelledby="run-records-h">
      <h4 id="run-records-h">Recorded runs of this action</h4>
      <ol className="runs" data-testid="run-records">
        {records.map((r) => (
          <li key={r.id} className="run" data-invocation-id={r.id}>
            <div className="row wrap">
              <span className={statusBadge(r.status)}>{r.status}</span>
              <time dateTime={new Date(r.started_at).toISOString()}>{clockTime(r.started_at, true)}</time>
              <span className="muted">{duration(r.duration_ms)}</span>
              {r.id === invocationId && <span className="badge">this run</span>}
              {r.error && <span className="row-error">{r.error.message}</span>}
              <span className="grow" />
              <button type="button" className="small" aria-expanded={open === r.id} aria-controls={`record-${r.id}`} onClick={() => setOpen(open === r.id ? null : r.id)}>
                {open === r.id ? 'Hide record' : 'Record'}
              </button>
            </div>
            {open === r.id && (
              <div id={`record-${r.id}`}>
                <InvocationDetail id={r.id} sourceId={null} headingLevel={4} />
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
