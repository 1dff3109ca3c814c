import { useEffect, useState } from 'react';
import { useRoute } from '../../app/router';
import { LiveBadge } from '../../ui/LiveBadge';
import { RowList } from '../../ui/RowList';
import { FilterBar } from './FilterBar';
import { SavedFilters } from './SavedFilters';
import { StreamDetail } from './StreamDetail';
import { StreamRowView } from './StreamRowView';
import { useStream } from './stream-store';

/** Typing filters once it pauses this long. */
const TYPING_DELAY_MS = 250;

/** `/stream` with `filter` in its query, so a filtered stream can be linked. */
const streamUrl = (filter: string) => (filter ? `/stream?filter=${encodeURIComponent(filter)}` : '/stream');

/**
 * The stream (`/stream?filter=…`): runs and events of every source, action and workflow, newest
 * first and live, filtered on the service by the filter language; saved filters; the selected
 * row's detail beside the list. Only the rows in view are rendered, and rows arriving while the
 * list is scrolled wait behind "N new" so it does not jump.
 */
export function StreamScreen() {
  const navigate = useRoute((s) => s.navigate);
  const filter = useRoute((s) => s.query.get('filter') ?? '');
  const { items, held, total, counting, loaded, live, olderCursor, loadingOlder, filterError, error, open, close, loadOlder, setAtTop, release } = useStream();
  const [text, setText] = useState(filter);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [toTop, setToTop] = useState(0);

  useEffect(() => {
    void open(filter);
  }, [filter, open]);
  useEffect(() => () => close(), [close]);

  // The URL changed from elsewhere (a chip, a saved filter, back): the box shows it.
  useEffect(() => setText((t) => (t.trim() === filter ? t : filter)), [filter]);

  // Typing filters once it pauses.
  useEffect(() => {
    const next = text.trim();
    if (next === filter) return;
    const timer = setTimeout(() => navigate(streamUrl(next), { replace: true, keepFocus: true }), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, filter, navigate]);

  const apply = (next: string) => {
    setText(next);
    navigate(streamUrl(next.trim()), { replace: true, keepFocus: true });
  };
  const selected = items.find((r) => r.id === selectedId) ?? null;

  return (
    <section className="stream" aria-labelledby="stream-h">
      <header className="page-head">
        <h1 id="stream-h" tabIndex={-1}>
          Stream
        </h1>
        <span className="grow" />
        <LiveBadge live={live} testId="stream-state" />
        <span className="muted" data-testid="stream-count">
          {loaded && !filterError ? `${total}${counting ? '+' : ''} ${filter ? 'matching ' : ''}row${total === 1 && !counting ? '' : 's'}${counting ? ' (counting…)' : ''}` : ''}
        </span>
      </header>
      <FilterBar text={text} onType={setText} filter={filter} apply={apply} problem={filterError} />
      <SavedFilters filter={filter} apply={apply} />
      <RowList
        error={error}
        items={items}
        rowHeight={46}
        label="Runs and events"
        selectedId={selectedId}
        onSelect={setSelectedId}
        empty={!loaded ? 'Loading…' : filterError ? 'Fix the filter to see rows.' : filter ? 'Nothing matches.' : 'No runs or events yet. Send a request to a source, run an action or a workflow: every run and event shows here.'}
        more={olderCursor ? { label: 'Load older', loading: loadingOlder, onMore: () => void loadOlder() } : null}
        onScrolled={(atTop, nearEnd) => {
          setAtTop(atTop);
          if (nearEnd) void loadOlder();
        }}
        toTop={toTop}
        above={
          held.length > 0 && (
            <button
              type="button"
              className="small primary"
              data-testid="stream-new"
              onClick={() => {
                release();
                setToTop((n) => n + 1);
              }}
            >
              {held.length} new — show
            </button>
          )
        }
        renderRow={(r) => <StreamRowView row={r} />}
        detail={selected ? <StreamDetail key={selected.id} row={selected} /> : <p className="empty">Select a row to see it in full (arrow keys move through the list).</p>}
      />
    </section>
  );
}
