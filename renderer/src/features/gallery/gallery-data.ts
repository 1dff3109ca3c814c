// The component gallery's data: the bundled and `--registry` components (searched on the service)
// and the saved ones, one entry per component with its versions; turning a choice into a
// component to configure or copy; deleting versions nothing uses.
import { useEffect, useState } from 'react';
import type { ComponentCheckView, ComponentView, RegistryComponent } from '../../../../runtime/contract/component-api';
import { messageOf } from '../../api/client';
import { api } from '../../api/v1';
import { type GalleryItem, savedEntries } from './gallery-entries';

export type { GalleryItem };

const fromRegistry = (c: RegistryComponent): GalleryItem => ({ from: 'registry', ref: c.key, key: c.key, name: c.name, type: c.type, app: c.app, description: c.description, version: c.version, versions: [] });

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
  /** Counts deletions: the lists are read again after each. */
  const [changes, setChanges] = useState(0);
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
            saved: savedEntries(saved.filter((c) => (!type || c.type === type) && matches(c, text) && !(c.key && keys.has(c.key)))),
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
  }, [q, type, changes]);

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
  /** Deletes saved versions (ids), or with a key every version of it nothing uses; the lists are read again. */
  const remove = async (what: { ids: string[] } | { unusedOf: string }) => {
    try {
      if ('ids' in what) for (const id of what.ids) await api.deleteComponent(id);
      else await api.deleteUnusedVersions(what.unusedOf);
    } finally {
      setChanges((n) => n + 1);
    }
  };
  return { ...state, more, remove };
}

/** A saved component (by id) with its code. */
async function savedWithCode(id: string): Promise<ComponentView & { code: string; filename: string }> {
  const c = await api.getComponent(id);
  return { ...c, code: c.code ?? '', filename: c.filename ?? 'component.mjs' };
}

/** A chosen item with its code, to configure or copy: a registry file is read, not saved (its props are configured by key). */
export async function chosenComponent(item: Pick<GalleryItem, 'from' | 'ref'>): Promise<ComponentCheckView & { code: string; filename: string }> {
  if (item.from === 'saved') return savedWithCode(item.ref);
  const { key, name, version, type, description, code_hash, configurable_props, warnings, code, filename, files, entry_file } = await api.registryComponent(item.ref);
  // Its original files are what is shown (the code is their bundle).
  return { id: null, created_at: null, key, name, version, type, description, code_hash, configurable_props, warnings, code, filename, files, entry_file };
}

/** A chosen item as a saved component (a workflow step runs a saved one): a registry file is saved, once per version. */
export async function savedComponent(item: Pick<GalleryItem, 'from' | 'ref'>): Promise<ComponentView & { code: string; filename: string }> {
  if (item.from === 'saved') return savedWithCode(item.ref);
  const entry = await api.registryComponent(item.ref);
  const saved = await api.saveComponent(entry.code, entry.filename);
  // Its original files are what is shown (the code is their bundle).
  return { ...saved, code: entry.code, filename: entry.filename, files: entry.files, entry_file: entry.entry_file };
}
