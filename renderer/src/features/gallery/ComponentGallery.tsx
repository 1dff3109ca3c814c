import { useId, useState } from 'react';
import { ErrorText } from '../../ui/ErrorText';
import { useGallery, type GalleryItem } from './gallery-data';

/**
 * The component gallery: the bundled and `--registry` components and the saved ones, searched by
 * name, app, description or key; each says what it is, and choosing one hands it over.
 */
export function ComponentGallery({ type, onChoose, choosing }: { type: 'source' | 'action' | null; onChoose(item: GalleryItem): void; choosing: string | null }) {
  const [q, setQ] = useState('');
  const [kind, setKind] = useState<'source' | 'action' | null>(type);
  const { registry, saved, total, next, capped, pending, loading, error, more } = useGallery(q, kind);
  const id = useId();
  const shown = [...registry, ...saved];
  const count =
    loading && shown.length === 0
      ? 'Loading…'
      : q.trim()
        ? `${shown.length} matching${capped ? ` (the first ${registry.length} of the registry's: a longer search finds the rest)` : ''}`
        : `${registry.length}${total !== null && total > registry.length ? ` of ${total}` : ''} in the registry, ${saved.length} saved${pending ? ` (${pending} files still being read)` : ''}`;
  return (
    <section className="gallery" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Start from a component</h2>
      <div className="toolbar">
        <label className="sr-only" htmlFor={`${id}-q`}>
          Search components
        </label>
        <input id={`${id}-q`} type="search" placeholder="Search by name, app, description or key" value={q} onChange={(e) => setQ(e.target.value)} />
        {type === null && (
          <>
            <label className="sr-only" htmlFor={`${id}-type`}>
              Kind
            </label>
            <select id={`${id}-type`} value={kind ?? ''} onChange={(e) => setKind((e.target.value || null) as 'source' | 'action' | null)}>
              <option value="">Sources and actions</option>
              <option value="source">Sources</option>
              <option value="action">Actions</option>
            </select>
          </>
        )}
        <span className="muted" role="status" data-testid="gallery-count">
          {count}
        </span>
      </div>
      <ErrorText text={error} />
      {!loading && shown.length === 0 ? (
        <p className="empty">{q.trim() ? 'No component matches.' : 'No components yet: give the service a registry folder with --registry, or save one from the editor.'}</p>
      ) : (
        <ul className="gallery-list" aria-label="Components">
          {shown.map((item) => (
            <li key={`${item.from}:${item.ref}`} className="gallery-item">
              <div className="gallery-text">
                <strong>{item.name}</strong> <span className={item.type === 'action' ? 'badge' : 'badge active'}>{item.type}</span>
                {item.from === 'saved' && <span className="badge">saved</span>}
                <span className="muted"> {item.app ? `${item.app} · ` : ''}<code>{item.key ?? item.ref}</code> {item.version}</span>
                {item.description && <p className="prop-desc">{item.description}</p>}
              </div>
              <button type="button" className="small" disabled={choosing !== null} onClick={() => onChoose(item)} aria-label={`Use ${item.name} (${item.key ?? item.ref})`}>
                {choosing === item.ref ? 'Opening…' : 'Use'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {next && total !== null && (
        <button type="button" className="small" disabled={loading} onClick={() => void more()}>
          {loading ? 'Loading…' : `Load ${Math.min(100, total - registry.length)} more (${total - registry.length} not shown)`}
        </button>
      )}
    </section>
  );
}
