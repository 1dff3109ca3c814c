// The list of a list screen (sources, webhooks, workflows, data stores): what it says while
// loading and when empty, and each item as a link to its page; j/k move between them.
import type { ReactNode } from 'react';
import { useRoute } from '../app/router';
import { ItemLink } from './Link';
import { useListKeys } from './use-list-keys';

/**
 * Items as links to `href(item)`, the open one marked; "Loading…" (or `notLoaded`, when the
 * service is not answering) until `loaded`, then `empty` when there are none. `children`
 * renders what a link shows of an item.
 */
export function ItemList<T extends { id: string }>(props: { label: string; items: readonly T[]; loaded: boolean; notLoaded?: string; empty: string; href: (item: T) => string; selectedId: string | null; children: (item: T) => ReactNode }) {
  useListKeys(
    props.items.length,
    props.items.findIndex((item) => item.id === props.selectedId),
    (index) => {
      const item = props.items[index];
      if (item) useRoute.getState().navigate(props.href(item), { keepFocus: true });
    },
  );
  if (!props.loaded) return <p className="empty">{props.notLoaded ?? 'Loading…'}</p>;
  if (props.items.length === 0) return <p className="empty">{props.empty}</p>;
  return (
    <ul className="sources" aria-label={props.label}>
      {props.items.map((item) => (
        <li key={item.id}>
          <ItemLink to={props.href(item)} selected={item.id === props.selectedId}>
            {props.children(item)}
          </ItemLink>
        </li>
      ))}
    </ul>
  );
}
