// The toolbar over a row list (a source's Activity and Events): whether the rows are live, a
// labelled filter, then the screen's own search, count and buttons.
import type { ReactNode } from 'react';
import { LiveBadge } from './LiveBadge';

/** One choice of the filter: its value and what it reads. */
export interface FilterOption {
  value: string;
  label: string;
}

/**
 * The live badge (`liveTestId` for tests), the filter `select` (labelled for screen readers by
 * `label`), then `children`.
 */
export function RowFilters(props: { live: boolean; liveTestId: string; select: { id: string; label: string; value: string; options: FilterOption[]; onChange(value: string): void }; children: ReactNode }) {
  const { select } = props;
  return (
    <div className="toolbar">
      <LiveBadge live={props.live} testId={props.liveTestId} />
      <label className="sr-only" htmlFor={select.id}>
        {select.label}
      </label>
      <select id={select.id} value={select.value} onChange={(e) => select.onChange(e.target.value)}>
        {select.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {props.children}
    </div>
  );
}
