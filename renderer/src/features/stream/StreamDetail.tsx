import type { StreamRow } from '../../../../runtime/contract/stream-api';
import { dateTime } from '../../ui/format';
import { Link } from '../../ui/Link';
import { InvocationDetail } from '../activity/InvocationDetail';
import { deliveryBadge, StatusBadge } from './StreamRowView';
import { bytes, emittingRunPath, rowPath, targetPath } from './stream-paths';

/** What the stream shows of the selected row: its fields, links to where it lives, and a source's or action's run record in full. */
export function StreamDetail({ row }: { row: StreamRow }) {
  const runPath = emittingRunPath(row);
  const record = row.kind === 'run' && row.target.type !== 'workflow';
  return (
    <div className="stream-detail" data-testid="stream-detail">
      <h2 className="row">
        <StatusBadge row={row} /> {row.kind === 'event' ? 'Event' : 'Run'} <code>{row.id}</code>
      </h2>
      <dl className="meta-grid">
        <dt>{row.target.type}</dt>
        <dd>
          <Link to={targetPath(row.target)}>{row.target.name}</Link>
        </dd>
        <dt>time</dt>
        <dd>{dateTime(row.ts)}</dd>
        {row.trigger && (
          <>
            <dt>trigger</dt>
            <dd>{row.trigger}</dd>
          </>
        )}
        {row.method && (
          <>
            <dt>request</dt>
            <dd className="mono">
              {row.method} {row.path}
            </dd>
          </>
        )}
        {row.response_status !== null && (
          <>
            <dt>answer</dt>
            <dd>{row.response_status}</dd>
          </>
        )}
        {row.size !== null && (
          <>
            <dt>size</dt>
            <dd>{bytes(row.size)}</dd>
          </>
        )}
        {row.emits !== null && (
          <>
            <dt>emitted</dt>
            <dd>{row.emits}</dd>
          </>
        )}
        {row.delivery && (
          <>
            <dt>delivery</dt>
            <dd>
              <span className={deliveryBadge(row.delivery.state)}>{row.delivery.state}</span> {row.delivery.attempts} attempt{row.delivery.attempts === 1 ? '' : 's'}
            </dd>
          </>
        )}
        {row.summary && (
          <>
            <dt>summary</dt>
            <dd>{row.summary}</dd>
          </>
        )}
      </dl>
      <p className="row wrap">
        <Link to={rowPath(row)} className="button small">
          {row.kind === 'event' ? 'Open in the event inspector' : row.target.type === 'source' ? 'Open in Activity' : `Open the ${row.target.type}`}
        </Link>
        {runPath && (
          <Link to={runPath} className="button small">
            Open the run that emitted it
          </Link>
        )}
      </p>
      {record && <InvocationDetail key={row.id} id={row.id} sourceId={row.target.type === 'source' ? row.target.id : null} headingLevel={3} />}
    </div>
  );
}
