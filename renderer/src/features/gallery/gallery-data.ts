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

/** The most matches a search answers: the gallery says when there may be more. */
const SEARCH_LIMIT = 100;

interface GalleryState {
  registry: GalleryItem[];
  saved: GalleryItem[];
  /** How many the registry listing holds in all (null for a search). */
  total: number | null;
  /** Where the listing's next page starts (null: at its end, or a search). */
  next: string | null;
  /** A search answered as many as it gives: there may be more matches. */
  capped: boolean;
  pending: number;
  loading: boolean;
  error: string | null;
}

/**
 * The gallery for a search: registry matches from the service (the listing a page at a time
 * without text, `more` reading the next page), saved components filtered here, and how many the
 * registry holds in all.
 */
export function useGallery(q: string, type: 'source' | 'action' | null) {
  const [state, setState] = useState<GalleryState>({ registry: [], saved: [], total: null, next: null, capped: false, pending: 0, loading: true, error: null });
  useEffect(() => {
    let cancelled = false;
    setState((s) => ({ ...s, loading: true }));
    const timer = setTimeout(() => {
      const text = q.trim();
      const kind = type ?? undefined;
      Promise.all([
        text
          ? api.searchRegistry(text, kind, SEARCH_LIMIT).then((data) => ({ data, total: null as number | null, next: null as string | null, pending: 0 }))
          : api.listRegistry({ type: kind }).then((p) => ({ data: p.data, total: p.page_info.total_count, next: p.data.length < p.page_info.total_count ? p.page_info.end_cursor : null, pending: p.pending })),
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
            next: registry.next,
            capped: text !== '' && registry.data.length >= SEARCH_LIMIT,
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

  /** Appends the listing's next page. */
  const more = async () => {
    const { next } = state;
    if (!next || state.loading) return;
    setState((s) => ({ ...s, loading: true }));
    try {
      const page = await api.listRegistry({ type: type ?? undefined, before: next });
      setState((s) => {
        const registry = [...s.registry, ...page.data.map(fromRegistry)];
        const keys = new Set(registry.map((c) => c.key));
        return { ...s, registry, saved: s.saved.filter((c) => !(c.key && keys.has(c.key))), total: page.page_info.total_count, next: registry.length < page.page_info.total_count ? page.page_info.end_cursor : null, loading: false };
      });
    } catch (err) {
      setState((s) => ({ ...s, loading: false, error: messageOf(err) }));
    }
  };
  return { ...state, more };
}

/** A chosen item as a saved component with its code: a registry file is saved (once per version) so its props can be configured. */
export async function chosenComponent(item: Pick<GalleryItem, 'from' | 'ref'>): Promise<ComponentView & { code: string; filename: string }> {
  if (item.from === 'saved') {
    const c = await api.getComponent(item.ref);
    return { ...c, code: c.code ?? '', filename: c.filename ?? 'component.mjs' };
  }
  const entry = await api.registryComponent(item.ref);
  const saved = await api.saveComponent(entry.code, entry.filename);
  // Its original files are what is shown (the code is their bundle).
  return { ...saved, code: entry.code, filename: entry.filename, files: entry.files, entry_file: entry.entry_file };
}
