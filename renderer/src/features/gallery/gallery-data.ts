// The component gallery's data: the bundled and `--registry` components (searched on the service)
// and the saved ones, and turning a choice into a saved component to configure or copy.
import { useEffect, useState } from 'react';
import type { ComponentView, RegistryComponent } from '../../../../runtime/contract/component-api';
import { api } from '../../api/v1';
import { messageOf } from '../../api/client';

/** One entry of the gallery: a registry component (by key) or a saved one (by id). */
export interface GalleryItem {
  from: 'registry' | 'saved';
  /** The registry key, or the saved component's id. */
  ref: string;
  key: string | null;
  name: string;
  type: 'source' | 'action';
  app: string | null;
  description: string | null;
  version: string;
}

const fromRegistry = (c: RegistryComponent): GalleryItem => ({ from: 'registry', ref: c.key, key: c.key, name: c.name, type: c.type, app: c.app, description: c.description, version: c.version });
const fromSaved = (c: ComponentView): GalleryItem => ({ from: 'saved', ref: c.id, key: c.key, name: c.name, type: c.type, app: null, description: c.description, version: c.version });

/** Whether a saved component matches the search text (name, key, description). */
const matches = (c: ComponentView, q: string) => !q || [c.name, c.key ?? '', c.description ?? ''].some((t) => t.toLowerCase().includes(q.toLowerCase()));

/**
 * The gallery for a search: registry matches from the service (a page of the listing without
 * text), saved components filtered here, and how many the registry holds in all.
 */
export function useGallery(q: string, type: 'source' | 'action' | null) {
  const [state, setState] = useState<{ registry: GalleryItem[]; saved: GalleryItem[]; total: number | null; pending: number; loading: boolean; error: string | null }>({ registry: [], saved: [], total: null, pending: 0, loading: true, error: null });
  useEffect(() => {
    let cancelled = false;
    setState((s) => ({ ...s, loading: true }));
    const timer = setTimeout(() => {
      const text = q.trim();
      const kind = type ?? undefined;
      Promise.all([
        text ? api.searchRegistry(text, kind).then((data) => ({ data, total: null as number | null, pending: 0 })) : api.listRegistry({ type: kind }).then((p) => ({ data: p.data, total: p.page_info.total_count, pending: p.pending })),
        api.listComponents(),
      ]).then(
        ([registry, saved]) => {
          if (cancelled) return;
          // A saved copy of a registry component shows once, as the registry's.
          const keys = new Set(registry.data.map((c) => c.key));
          setState({
            registry: registry.data.map(fromRegistry),
            saved: saved.filter((c) => (!type || c.type === type) && matches(c, text) && !(c.key && keys.has(c.key))).map(fromSaved),
            total: registry.total,
            pending: registry.pending,
            loading: false,
            error: null,
          });
        },
        (err: unknown) => !cancelled && setState((s) => ({ ...s, loading: false, error: messageOf(err) })),
      );
    }, 200);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [q, type]);
  return state;
}

/** A chosen item as a saved component with its code: a registry file is saved (once per version) so its props can be configured. */
export async function chosenComponent(item: Pick<GalleryItem, 'from' | 'ref'>): Promise<ComponentView & { code: string; filename: string }> {
  if (item.from === 'saved') {
    const c = await api.getComponent(item.ref);
    return { ...c, code: c.code ?? '', filename: c.filename ?? 'component.mjs' };
  }
  const entry = await api.registryComponent(item.ref);
  const saved = await api.saveComponent(entry.code, entry.filename);
  return { ...saved, code: entry.code, filename: entry.filename };
}
