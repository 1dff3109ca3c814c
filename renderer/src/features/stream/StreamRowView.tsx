import type { StreamRow } from '../../../../runtime/contract/stream-api';
import { dateTime } from '../../ui/format';
import { statusBadge } from '../activity/invocations';
import { bytes } from './stream-paths';

/** The badge class of an event's delivery state. */
export const deliveryBadge = (state: NonNullable<StreamRow['delivery']>['state']) => `badge status-${state === 'delivered' ? 'delivered' : state === 'failed' ? 'failed' : state === 'none' ? 'none' : 'pending'}`;

/** A run's status badge ("running" as pending), or the kind "event". */
export function StatusBadge({ row }: { row: StreamRow }) {
  if (row.kind === 'event') return <span className="badge">event</span>;
  if (!row.status) return <span className="badge">run</span>;
  return <span className={row.status === 'running' ? 'badge status-pending' : statusBadge(row.status)}>{row.status}</span>;
}

/** One row of the stream: status, kind, target, method and path, answer code, size, emits, delivery; then time and summary. */
export function StreamRowView({ row }: { row: StreamRow }) {
  return (
    <div className="inv-row stream-row" data-row-id={row.id} data-kind={row.kind} data-status={row.status ?? ''} data-ts={row.ts}>
      <div className="inv-line">
        <StatusBadge row={row} />
        <span className="stream-target">
          <span className="muted">{row.target.type}</span> {row.target.name}
        </span>
        <span className="what mono">{row.method ? `${row.method} ${row.path ?? ''}` : row.kind === 'run' ? (row.trigger ?? '') : ''}</span>
        {row.response_status !== null && <span className={row.response_status < 400 ? 'code-ok' : 'code-bad'}>{row.response_status}</span>}
        {row.size !== null && <span className="muted">{bytes(row.size)}</span>}
        {row.emits !== null && <span className="muted">{row.emits} emitted</span>}
        {row.delivery && row.delivery.state !== 'none' && <span className={deliveryBadge(row.delivery.state)}>{row.delivery.state}</span>}
      </div>
      <div className="inv-line inv-meta">
        <time dateTime={new Date(row.ts).toISOString()}>{dateTime(row.ts)}</time>
        <span className="what">{row.summary ?? ''}</span>
      </div>
    </div>
  );
}
