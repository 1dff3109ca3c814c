import { useEffect, useMemo, useState } from 'react';
import type { EventSummary, SourceView } from '../../../runtime/api/types';
import { api, endpointOf, messageOf } from '../api';
import { useEvents } from '../eventStore';
import { useApp } from '../store';
import { ConfirmDialog } from './ConfirmDialog';
import { CopyButton } from './CopyButton';
import { EventDiff } from './EventDiff';
import { JsonTree } from './JsonTree';
import { RedeliverForm } from './RedeliverForm';
import { VirtualList } from './VirtualList';
import { clockTime, when as dateOf } from '../format';

const ALL = '\u0000all';
const DEFAULT = '\u0000default';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command that sends the event's body (an HTTP event's `body`, else the event) to the endpoint again. */
export function curlFor(e: EventSummary, endpoint: string | null): string {
  const data = e.event as { body?: unknown; method?: string; path?: string } | null;
  const isHttp = data !== null && typeof data === 'object' && 'body' in data;
  const body = isHttp ? data.body : e.event;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const url = (endpoint ?? 'http://127.0.0.1:7620/e/ENDPOINT').replace(/\/$/, '') + (isHttp && typeof data.path === 'string' && data.path !== '/' ? data.path : '');
  const method = isHttp && typeof data.method === 'string' && data.method !== 'GET' ? data.method : 'POST';
  return `curl -X ${method} ${shellQuote(url)} -H 'content-type: application/json' --data-raw ${shellQuote(text ?? '')}`;
}

const when = (ms: number) => clockTime(ms, true);

/** The event inspector: the latest events live (windowed list), tree/raw views, filter, search, cURL, delete, diff, re-deliver. */
export function EventInspector({ source }: { source: SourceView }) {
  const { events, live, olderCursor, loadingOlder, error, open, close, loadOlder, remove, clearAll } = useEvents();
  const toast = useApp((s) => s.toast);
  const [channel, setChannel] = useState(ALL);
  const [query, setQuery] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [marked, setMarked] = useState<string | null>(null);
  const [view, setView] = useState<'tree' | 'raw' | 'diff'>('tree');
  const [confirmAll, setConfirmAll] = useState(false);
  const endpoint = endpointOf(source);

  useEffect(() => {
    void open(source.id);
    return () => close();
  }, [source.id, open, close]);

  const channels = useMemo(() => [...new Set(events.map((e) => e.metadata.name).filter((n): n is string => !!n))].sort(), [events]);
  const shown = useMemo(() => {
    const q = query.toLowerCase();
    return events.filter((e) => {
      if (channel === DEFAULT && e.metadata.name) return false;
      if (channel !== ALL && channel !== DEFAULT && e.metadata.name !== channel) return false;
      if (!q) return true;
      return (e.metadata.summary ?? '').toLowerCase().includes(q) || e.id.includes(q) || JSON.stringify(e.event).toLowerCase().includes(q);
    });
  }, [events, channel, query]);
  const selectedIndex = shown.findIndex((e) => e.id === selectedId);
  const selected = selectedIndex >= 0 ? shown[selectedIndex] : undefined;
  const markedEvent = marked ? events.find((e) => e.id === marked) : undefined;

  const del = async (e: EventSummary) => {
    try {
      await api.deleteEvents(source.id, { start_id: e.id, end_id: e.id });
      remove([e.id]);
      setSelectedId(null);
      toast('Event deleted');
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };
  const delAll = async () => {
    setConfirmAll(false);
    try {
      const r = await api.deleteEvents(source.id, {});
      clearAll();
      toast(`${r.deleted} events deleted`);
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  return (
    <section className="inspector" aria-label="Events">
      <div className="toolbar">
        <span className={live ? 'badge active' : 'badge'} data-testid="stream-state">
          {live ? 'live' : 'connecting…'}
        </span>
        <label className="sr-only" htmlFor="event-channel">
          Channel
        </label>
        <select id="event-channel" value={channel} onChange={(e) => setChannel(e.target.value)}>
          <option value={ALL}>All channels</option>
          <option value={DEFAULT}>Default channel</option>
          {channels.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <input type="search" aria-label="Search events" placeholder="Search events…" value={query} onChange={(e) => setQuery(e.target.value)} />
        <span className="muted" data-testid="event-count">
          {shown.length} of {events.length}
        </span>
        <span className="grow" />
        <button type="button" className="danger-outline" disabled={events.length === 0} onClick={() => setConfirmAll(true)}>
          Delete all
        </button>
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="inspector-body">
        <div className="event-column">
          {shown.length === 0 ? (
            <p className="empty">{events.length ? 'No event matches.' : 'No events yet. Send a request to the endpoint or run the source.'}</p>
          ) : (
            <VirtualList
              items={shown}
              rowHeight={34}
              label="Event list"
              getKey={(e) => e.id}
              selectedIndex={selectedIndex}
              onSelect={(i) => setSelectedId(shown[i]?.id ?? null)}
              renderRow={(e) => (
                <div className="event-row" data-event-id={e.id}>
                  <time dateTime={new Date(e.indexed_at_ms).toISOString()}>{when(e.indexed_at_ms)}</time>
                  {e.metadata.name && <span className="channel">{e.metadata.name}</span>}
                  <span className="summary">{e.metadata.summary ?? e.id}</span>
                  {marked === e.id && <span className="badge">A</span>}
                </div>
              )}
            />
          )}
          {olderCursor && (
            <button type="button" className="small" disabled={loadingOlder} onClick={() => void loadOlder()}>
              {loadingOlder ? 'Loading…' : 'Load older events'}
            </button>
          )}
        </div>
        <div className="event-detail">
          {!selected ? (
            <p className="empty">Select an event to inspect it (arrow keys move through the list).</p>
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
                <CopyButton text={curlFor(selected, endpoint)} label="Copy as cURL" />
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
                <dd><code>{selected.id}</code></dd>
                <dt>channel</dt>
                <dd>{selected.metadata.name ?? 'default'}</dd>
                <dt>summary</dt>
                <dd>{selected.metadata.summary ?? '—'}</dd>
                <dt>emit id</dt>
                <dd><code>{String(selected.metadata.id)}</code></dd>
                <dt>ts</dt>
                <dd>{dateOf(selected.metadata.ts)}</dd>
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
          )}
        </div>
      </div>
      {confirmAll && (
        <ConfirmDialog title="Delete every event?" body={`All events of ${source.name} are deleted from the service. This cannot be undone.`} confirmLabel="Delete all events" onConfirm={() => void delAll()} onCancel={() => setConfirmAll(false)} />
      )}
    </section>
  );
}
