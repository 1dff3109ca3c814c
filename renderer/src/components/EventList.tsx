import { useApp } from '../store';

/** The selected source's latest events, newest first, updated live. */
export function EventList() {
  const { events, live, selectedId } = useApp();
  if (!selectedId) return null;
  return (
    <section className="events" aria-label="Events">
      <header>
        <h2>Events</h2>
        <span className={live ? 'badge active' : 'badge'} data-testid="stream-state">{live ? 'live' : 'connecting…'}</span>
      </header>
      {events.length === 0 ? (
        <p className="empty">No events yet. Send a request to the endpoint or run the source.</p>
      ) : (
        <ol className="event-list">
          {events.map((e) => (
            <li key={e.id} className="event" data-event-id={e.id}>
              <div className="meta">
                <time dateTime={new Date(e.indexed_at_ms).toISOString()}>{new Date(e.indexed_at_ms).toLocaleTimeString()}</time>
                {e.metadata.name && <span className="channel">{e.metadata.name}</span>}
                <span className="summary">{e.metadata.summary ?? e.id}</span>
              </div>
              <pre>{typeof e.event === 'string' ? e.event : JSON.stringify(e.event, null, 2)}</pre>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
