// The gallery's entries as data (no service calls): one per registry component or saved component.
import type { ComponentView } from '../../../../runtime/contract/component-api';

/** One entry of the gallery: a registry component (by key) or a saved one (by id). */
export interface GalleryItem {
  from: 'registry' | 'saved';
  /** The registry key, or the saved component's id (its newest version's). */
  ref: string;
  key: string | null;
  name: string;
  type: 'source' | 'action';
  app: string | null;
  description: string | null;
  version: string;
  /** A saved component's versions, newest first (one per saved code): what each is and what uses it. */
  versions: ComponentView[];
}

/**
 * Saved components as the gallery shows them: one entry per component (its key; a component
 * without one by name and kind), its newest version first, the entries newest first.
 */
export function savedEntries(saved: ComponentView[]): GalleryItem[] {
  const groups = new Map<string, ComponentView[]>();
  const newestFirst = [...saved].sort((a, b) => b.created_at - a.created_at);
  for (const c of newestFirst) {
    const group = c.key !== null ? `key:${c.key}` : `name:${c.type}:${c.name}`;
    groups.set(group, [...(groups.get(group) ?? []), c]);
  }
  return [...groups.values()].map((versions) => {
    const c = versions[0] as ComponentView;
    return { from: 'saved', ref: c.id, key: c.key, name: c.name, type: c.type, app: null, description: c.description, version: c.version, versions };
  });
}
