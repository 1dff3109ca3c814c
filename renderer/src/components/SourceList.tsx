import type { SourceView } from '../../../runtime/api/types';
import { useApp } from '../store';

function endpointOf(source: SourceView): string | null {
  for (const value of Object.values(source.configured_props)) {
    if (value && typeof value === 'object' && 'endpoint_url' in value) return String((value as { endpoint_url: unknown }).endpoint_url);
  }
  return null;
}

/** The deployed sources, with their status and endpoint. */
export function SourceList() {
  const { sources, selectedId, select } = useApp();
  if (sources.length === 0) {
    return <p className="empty">No sources yet. Deploy one with <code>POST /v1/sources</code>.</p>;
  }
  return (
    <ul className="sources" aria-label="Sources">
      {sources.map((s) => {
        const endpoint = endpointOf(s);
        return (
          <li key={s.id}>
            <button type="button" className={s.id === selectedId ? 'source selected' : 'source'} aria-current={s.id === selectedId} onClick={() => void select(s.id)}>
              <span className="name">{s.name}</span>
              <span className={s.active ? 'badge active' : 'badge'}>{s.active ? 'active' : 'inactive'}</span>
              <span className="id">{s.id}</span>
              {endpoint && <span className="endpoint">{endpoint}</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
