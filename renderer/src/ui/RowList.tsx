// The row list of a source's Activity and Events: live rows with keyboard selection (j/k too) beside the
// selected row's detail, what it says when empty, and the button that pages older rows in.
import type { ReactNode } from 'react';
import { ErrorText } from './ErrorText';
import { useListKeys } from './use-list-keys';
import { VirtualList } from './VirtualList';

/** The button under the rows that loads the next page (`label`), disabled while it loads. */
export interface MorePage {
  label: string;
  loading: boolean;
  onMore(): void;
}

/**
 * `error` (a failed read) over `items` as a windowed list (arrow keys, Home and End, and j/k anywhere on the page, move the selection; `onSelect` gets the
 * selected row's id), or `empty` when there are none, then `more` when there is an older page;
 * `detail` is the pane beside it; `above` goes over the rows (a live list's "N new"), `onScrolled` and `toTop` as VirtualList's.
 */
export function RowList<T extends { id: string }>(props: {
  label: string;
  items: T[];
  rowHeight: number;
  selectedId: string | null;
  onSelect(id: string | null): void;
  renderRow(item: T): ReactNode;
  error: string | null;
  empty: string;
  more: MorePage | null;
  detail: ReactNode;
  onScrolled?(atTop: boolean, nearEnd: boolean): void;
  toTop?: number;
  above?: ReactNode;
}) {
  const { items, more } = props;
  const selected = items.findIndex((item) => item.id === props.selectedId);
  useListKeys(items.length, selected, (index) => props.onSelect(items[index]?.id ?? null));
  return (
    <>
      <ErrorText text={props.error} />
      <div className="inspector-body">
        <div className="event-column">
          {props.above}
          {items.length === 0 ? (
            <p className="empty">{props.empty}</p>
          ) : (
            <VirtualList items={items} rowHeight={props.rowHeight} label={props.label} getKey={(item) => item.id} selectedIndex={selected} onSelect={(i) => props.onSelect(items[i]?.id ?? null)} renderRow={props.renderRow} onScrolled={props.onScrolled} toTop={props.toTop} />
          )}
          {more && (
            <button type="button" className="small" disabled={more.loading} onClick={more.onMore}>
              {more.loading ? 'Loading…' : more.label}
            </button>
          )}
        </div>
        <div className="event-detail">{props.detail}</div>
      </div>
    </>
  );
}
