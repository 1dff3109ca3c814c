import { useEffect, useMemo, useState } from 'react';
import type { EventSummary, SourceView } from '../../../../runtime/contract/source-api';
import { messageOf } from '../../api/client';
import { useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CopyButton } from '../../ui/CopyButton';
import { clockTime, when as dateOf } from '../../ui/format';
import { JsonTree } from '../../ui/JsonTree';
import { Link } from '../../ui/Link';
import { RowFilters } from '../../ui/RowFilters';
import { RowList } from '../../ui/RowList';
import { curlForEvent, curlForRequest } from '../activity/curl';
import { useEmittingRun } from '../activity/invocation-data';
import { activityPath, eventPath, invocationTitle } from '../activity/invocations';
import { endpointOf } from '../props/prop-values';
import { EventDiff } from './EventDiff';
import { useEvent, useEvents } from './event-store';
import { RedeliverForm } from './RedeliverForm';

const ALL = '\u0000all';
const DEFAULT = '\u0000default';
/** The search asks the service once typing pauses this long. */
const SEARCH_DELAY_MS = 250;

const when = (ms: number) => clockTime(ms, true);

/**
 * The event inspector: the latest events live (windowed list), tree/raw views, channel filter, a
 * search over every stored event (on the service), cURL, delete, diff, re-deliver, and the link to
 * the run that emitted the event. The selected event is in the URL (`/sources/{id}/events/{event}`).
 */
export function EventInspector({ source, selectedId }: { source: SourceView; selectedId: string | null }) {
  const { events, total, live, olderCursor, loadingOlder, error, search, open, close, loadOlder, setSearch, loadMoreResults, deleteOne, deleteAll } = useEvents();
  const toast = useApp((s) => s.toast);
  const navigate = useRoute((s) => s.navigate);
  const [channel, setChannel] = useState(ALL);
  const [query, setQuery] = useState('');
  const [marked, setMarked] = useState<string | null>(null);
  const [view, setView] = useState<'tree' | 'raw' | 'diff'>('tree');
  const [confirmAll, setConfirmAll] = useState(false);
  const endpoint = endpointOf(source);

  useEffect(() => {
    void open(source.id);
    return () => close();
  }, [source.id, open, close]);

  // Typing searches the service's stored events once it pauses.
  useEffect(() => {
    const timer = setTimeout(() => void setSearch(query), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, setSearch]);

  const listed = search ? search.results : events;
  const channels = useMemo(() => [...new Set(events.map((e) => e.metadata.name).filter((n): n is string => !!n))].sort(), [events]);
  const shown = useMemo(
    () =>
      listed.filter((e) => {
        if (channel === DEFAULT && e.metadata.name) return false;
        if (channel !== ALL && channel !== DEFAULT && e.metadata.name !== channel) return false;
        return true;
      }),
    [listed, channel],
  );
  const selectedIndex = shown.findIndex((e) => e.id === selectedId);
  const inView = selectedIndex >= 0 ? shown[selectedIndex] : (events.find((e) => e.id === selectedId) ?? search?.results.find((e) => e.id === selectedId));

  // An event not loaded here (a link from a run, an older one) is read by id.
  const { event: fetched, missing } = useEvent(source.id, selectedId && !inView ? selectedId : null);

  const selected = inView ?? (fetched?.id === selectedId ? fetched : undefined);
  const markedEvent = marked ? (events.find((e) => e.id === marked) ?? search?.results.find((e) => e.id === marked)) : undefined;
  const { run, pruned, reading } = useEmittingRun(selected?.invocation_id ?? null);
  const curl = (run?.request && curlForRequest(run.request)) || (selected ? curlForEvent(selected, endpoint, pruned) : '');
  const select = (id: string | null) => navigate(eventPath(source.id, id), { replace: true, keepFocus: true });

  const del = async (e: EventSummary) => {
    try {
      await deleteOne(e.id);
      select(null);
      toast('Event deleted');
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };
  const delAll = async () => {
    setConfirmAll(false);
    try {
      const deleted = await deleteAll();
      toast(`${deleted} events deleted`);
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  const count = search ? (search.loading && search.results.length === 0 ? 'Searching…' : `${shown.length === search.total ? search.total : `${shown.length} shown of ${search.total}`} matching on the service`) : `${shown.length} of ${events.length} loaded · ${Math.max(total, events.length)} stored`;

  return (
    <section className="inspector" aria-label="Events">
      <RowFilters live={live} liveTestId="stream-state" select={{ id: 'event-channel', label: 'Channel', value: channel, options: [{ value: ALL, label: 'All channels' }, { value: DEFAULT, label: 'Default channel' }, ...channels.map((c) => ({ value: c, label: c }))], onChange: setChannel }}>
        <input type="search" aria-label="Search events" placeholder="Search all stored events…" value={query} onChange={(e) => setQuery(e.target.value)} />
        <span className="muted" data-testid="event-count" aria-live="polite">
          {count}
        </span>
        <span className="grow" />
        <button type="button" className="danger-outline" disabled={events.length === 0} onClick={() => setConfirmAll(true)}>
          Delete all
        </button>
      </RowFilters>
      <RowList
        error={error}
        items={shown}
        rowHeight={34}
        label="Event list"
        selectedId={selectedId}
        onSelect={select}
        empty={search ? (search.loading ? 'Searching…' : 'No stored event matches.') : events.length ? 'No event matches.' : 'No events yet. Send a request to the endpoint or run the source.'}
        more={search ? (search.olderCursor ? { label: 'More matches', loading: search.loading, onMore: () => void loadMoreResults() } : null) : olderCursor ? { label: 'Load older events', loading: loadingOlder, onMore: () => void loadOlder() } : null}
        renderRow={(e) => (
          <div className="event-row" data-event-id={e.id}>
            <time dateTime={new Date(e.indexed_at_ms).toISOString()}>{when(e.indexed_at_ms)}</time>
            {e.metadata.name && <span className="channel">{e.metadata.name}</span>}
            <span className="summary">{e.metadata.summary ?? e.id}</span>
            {marked === e.id && <span className="badge">A</span>}
          </div>
        )}
        detail={
          !selected ? (
            missing ? (
              <p className="error" role="alert">
                {missing}
              </p>
            ) : (
              <p className="empty">{selectedId ? 'Loading the event…' : 'Select an event to inspect it (arrow keys move through the list).'}</p>
            )
          ) : (
            <>
              <div className="toolbar">
                <div role="tablist" aria-label="Event view" className="tabs small-tabs">
                  {(['tree', 'raw', ...(markedEvent && markedEvent.id !== selected.id ? ['diff'] : [])] as Array<'tree' | 'raw' | 'diff'>).map((v) => (
                    <button key={v} type="button" role="tab" aria-selected={view === v} onClick={() => setView(v)}>
                      {v === 'tree' ? 'Tree' : v === 'raw' ? 'Raw' : 'Diff with A'}
                    </button>
                  ))}
                </div>
                <span className="grow" />
                {/* Until the run is read, which request to copy is not known: its own, or this event's data. */}
                <CopyButton text={curl} label="Copy as cURL" disabled={reading} title={reading ? 'Reading the run that emitted this event…' : undefined} />
                <CopyButton text={JSON.stringify(selected.event, null, 2)} label="Copy JSON" />
                <button type="button" className="small" aria-pressed={marked === selected.id} onClick={() => setMarked(marked === selected.id ? null : selected.id)}>
                  {marked === selected.id ? 'Unmark A' : 'Mark as A for diff'}
                </button>
                <button type="button" className="small danger-outline" onClick={() => void del(selected)}>
                  Delete
                </button>
                <RedeliverForm key={selected.id} sourceId={source.id} eventId={selected.id} />
              </div>
              <dl className="meta-grid">
                <dt>id</dt>
                <dd>
                  <code>{selected.id}</code>
                </dd>
                <dt>channel</dt>
                <dd>{selected.metadata.name ?? 'default'}</dd>
                <dt>summary</dt>
                <dd>{selected.metadata.summary ?? '—'}</dd>
                {/* The component's dedupe id (`id` of $emit's metadata) is the event's id unless it gave one. */}
                {String(selected.metadata.id) !== selected.id && (
                  <>
                    <dt>dedupe id</dt>
                    <dd data-testid="dedupe-id">
                      <code>{String(selected.metadata.id)}</code>
                    </dd>
                  </>
                )}
                <dt>ts</dt>
                <dd>{dateOf(selected.metadata.ts)}</dd>
                <dt>emitted by</dt>
                <dd data-testid="emitted-by">
                  {selected.invocation_id && pruned ? (
                    <span data-testid="run-pruned">
                      a run no longer kept (<code>{selected.invocation_id}</code>, pruned: the service keeps the latest runs of a source, events longer); Copy as cURL posts this event&apos;s data, not the request that was sent
                    </span>
                  ) : selected.invocation_id ? (
                    <Link to={activityPath(source.id, selected.invocation_id)}>{run ? `${invocationTitle(run)} (${run.status})` : 'the run'}</Link>
                  ) : (
                    <span className="muted">a run recorded before runs were kept</span>
                  )}
                </dd>
              </dl>
              <div className="event-view" data-testid="event-view">
                {view === 'raw' || (view === 'diff' && !markedEvent) ? (
                  <pre className="raw">{JSON.stringify(selected.event, null, 2)}</pre>
                ) : view === 'diff' && markedEvent ? (
                  <EventDiff left={markedEvent.event} right={selected.event} leftLabel={`A ${markedEvent.id}`} rightLabel={selected.id} />
                ) : (
                  <JsonTree value={selected.event} />
                )}
              </div>
            </>
          )
        }
      />
      {confirmAll && <ConfirmDialog title="Delete every event?" body={`All events of ${source.name} are deleted from the service. This cannot be undone.`} confirmLabel="Delete all events" onConfirm={() => void delAll()} onCancel={() => setConfirmAll(false)} />}
    </section>
  );
}
