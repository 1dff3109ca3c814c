import { useEffect, useState } from 'react';
import type { InvocationStatus } from '../../../../runtime/contract/invocation-api';
import type { SourceView } from '../../../../runtime/contract/source-api';
import { useRoute } from '../../app/router';
import { clockTime } from '../../ui/format';
import { RowFilters } from '../../ui/RowFilters';
import { RowList } from '../../ui/RowList';
import { duration } from '../workflows/workflow';
import { InvocationDetail } from './InvocationDetail';
import { useInvocations } from './invocation-store';
import { activityPath, statusBadge, triggerLabel } from './invocations';

const STATUSES: InvocationStatus[] = ['ok', 'error', 'timeout', 'crashed'];
const STATUS_OPTIONS = [{ value: '', label: 'Any status' }, ...STATUSES.map((s) => ({ value: s, label: s }))];
/** The search asks the service once typing pauses this long. */
const SEARCH_DELAY_MS = 250;

/**
 * A source's Activity: every recorded run, live (trigger, method and path, status, the answer's
 * code, duration, emitted count, error), a status filter and a text search that both run on the
 * service; the selected run (in the URL, so links open it) in a detail pane.
 */
export function ActivityView({ source, selectedId }: { source: SourceView; selectedId: string | null }) {
  const navigate = useRoute((s) => s.navigate);
  const { items, total, loaded, live, filter, olderCursor, loadingOlder, error, open, close, setFilter, loadOlder } = useInvocations();
  const [text, setText] = useState(filter.q ?? '');

  useEffect(() => {
    void open(source.id);
    return () => close();
  }, [source.id, open, close]);

  // Typing searches on the service once it pauses.
  useEffect(() => {
    const q = text.trim() || undefined;
    if (q === useInvocations.getState().filter.q) return;
    const timer = setTimeout(() => void setFilter({ ...useInvocations.getState().filter, q }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, setFilter]);

  const select = (id: string | null) => navigate(activityPath(source.id, id), { replace: true, keepFocus: true });
  const filtered = Boolean(filter.status || filter.q);

  return (
    <section className="inspector activity" aria-label="Activity">
      <RowFilters live={live} liveTestId="activity-state" select={{ id: 'activity-status', label: 'Status', value: filter.status ?? '', options: STATUS_OPTIONS, onChange: (value) => void setFilter({ ...filter, status: (value || undefined) as InvocationStatus | undefined }) }}>
        <input type="search" aria-label="Search runs" placeholder="Search runs…" title="Text anywhere in a run: request, answer, logs, error, event" value={text} onChange={(e) => setText(e.target.value)} />
        <span className="muted" data-testid="activity-count">
          {loaded ? `${total} ${filtered ? 'matching ' : ''}run${total === 1 ? '' : 's'}` : ''}
        </span>
      </RowFilters>
      <RowList
        error={error}
        items={items}
        rowHeight={46}
        label="Runs"
        selectedId={selectedId}
        onSelect={select}
        empty={!loaded ? 'Loading…' : filtered ? 'No run matches.' : 'No runs yet. Send a request to the endpoint, run the source, or wait for its timer: every run shows here.'}
        more={olderCursor ? { label: 'Load older runs', loading: loadingOlder, onMore: () => void loadOlder() } : null}
        renderRow={(r) => (
          <div className="inv-row" data-invocation-id={r.id} data-status={r.status}>
            <div className="inv-line">
              <span className={statusBadge(r.status)}>{r.status}</span>
              <span className="what mono">{r.title}</span>
              {r.response_status !== null && <span className={r.response_status < 400 ? 'code-ok' : 'code-bad'}>{r.response_status}</span>}
            </div>
            <div className="inv-line inv-meta">
              <time dateTime={new Date(r.started_at).toISOString()}>{clockTime(r.started_at, true)}</time>
              <span>{triggerLabel(r)}</span>
              <span>{duration(r.duration_ms)}</span>
              <span>{r.emitted} emitted</span>
              {r.replay_of && <span>replay</span>}
              {r.error && <span className="row-error">{r.error}</span>}
            </div>
          </div>
        )}
        detail={
          selectedId ? (
            <InvocationDetail key={selectedId} id={selectedId} sourceId={source.id} headingLevel={2} onReplayed={(r) => navigate(activityPath(source.id, r.id))} />
          ) : (
            <p className="empty">Select a run to see its request, answer, logs, emits and deliveries (arrow keys move through the list).</p>
          )
        }
      />
    </section>
  );
}
