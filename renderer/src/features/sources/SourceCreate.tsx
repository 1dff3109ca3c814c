import { useCallback, useEffect, useState } from 'react';
import { ApiError, messageOf } from '../../api/client';
import { useRoute } from '../../app/router';
import { ComponentGallery } from '../gallery/ComponentGallery';
import { chosenComponent, type GalleryItem } from '../gallery/gallery-data';
import { type Origin, SourceEditor } from './SourceEditor';
import { NEW_SOURCE_CODE } from './template';

const BLANK: Origin = { kind: 'code', code: NEW_SOURCE_CODE, filename: 'component.mjs' };

/** Where a chosen component is opened: an action on its own page (`/actions/{key or sc_…}`), a source at `/sources/new?key=…` (registry) or `?component=…` (saved). */
export const chosenPath = (item: Pick<GalleryItem, 'from' | 'ref' | 'type'>) => (item.type === 'action' ? `/actions/${encodeURIComponent(item.ref)}` : `/sources/new?${item.from === 'registry' ? 'key' : 'component'}=${encodeURIComponent(item.ref)}`);

/**
 * The create form: from the editor, from a component of the gallery (a registry key or a saved
 * component: its props form, its code read-only or as a copy), or from a URL (deep links:
 * `/sources?action=create&key=…`, `&url=…`). `type=action` opens the gallery on actions.
 */
export function SourceCreate({ registryKey, componentId, url, type }: { registryKey: string | null; componentId: string | null; url: string | null; type: 'source' | 'action' | null }) {
  const navigate = useRoute((s) => s.navigate);
  const chosen = registryKey ? ({ from: 'registry', ref: registryKey } as const) : componentId ? ({ from: 'saved', ref: componentId } as const) : null;
  const [origin, setOrigin] = useState<Origin | null>(chosen ? null : url ? { kind: 'url', url } : BLANK);
  const [notice, setNotice] = useState<string | null>(null);
  const [isAction, setIsAction] = useState(type === 'action');
  const [browsing, setBrowsing] = useState(type !== null);
  const onTypeChange = useCallback((t: string | null) => setIsAction(t === 'action' || (t === null && type === 'action')), [type]);

  useEffect(() => {
    if (!chosen) return;
    let cancelled = false;
    setOrigin(null);
    chosenComponent(chosen)
      .then((c) => !cancelled && setOrigin({ kind: 'key', key: chosen.from === 'registry' ? chosen.ref : (c.key ?? chosen.ref), from: chosen.from, component: c, code: c.code, filename: c.filename, files: c.files, entry_file: c.entry_file }))
      .catch((err: unknown) => {
        if (cancelled) return;
        const what = chosen.from === 'registry' ? `key "${chosen.ref}" in the registry` : `saved component ${chosen.ref}`;
        setNotice(err instanceof ApiError && err.status === 404 ? `No component with ${what}. Start from the editor instead.` : `Could not read the ${what}: ${messageOf(err)}`);
        setOrigin(BLANK);
      });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chosen?.from, chosen?.ref]);

  return (
    <div className="source-create">
      <header className="page-head">
        <h1 tabIndex={-1}>{isAction ? 'Test-run an action' : 'New source'}</h1>
        <button type="button" aria-expanded={browsing} aria-controls="component-gallery" onClick={() => setBrowsing(!browsing)}>
          {browsing ? 'Hide the gallery' : 'Start from a component…'}
        </button>
      </header>
      {browsing && (
        <div id="component-gallery">
          <ComponentGallery type={type} choosing={null} onChoose={(item) => (setBrowsing(false), navigate(chosenPath(item)))} />
        </div>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {origin ? <SourceEditor key={`${origin.kind}:${registryKey ?? componentId ?? url ?? ''}`} source={null} origin={origin} onTypeChange={onTypeChange} /> : <p className="empty">Loading {registryKey ?? componentId}…</p>}
    </div>
  );
}
