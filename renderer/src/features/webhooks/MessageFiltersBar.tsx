import type { ReactNode } from 'react';
import type { MessageView } from '../../../../runtime/contract/webhook-api';
import { useApp } from '../../app/store';
import { RowFilters } from '../../ui/RowFilters';
import { type MessageFilters, rangeProblem, SPAN_OPTIONS, type Span } from './message-filters';

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  { value: 'pending', label: 'pending' },
  { value: 'delivered', label: 'delivered' },
  { value: 'failing', label: 'failing' },
  { value: 'failed', label: 'failed' },
  { value: 'paused', label: 'paused (held)' },
];

/**
 * The messages view's filters over the shared row toolbar: status, source, event id, channel and a
 * time range (a span back from now, or a custom range typed as local 24-hour text); `children`
 * (the count, the bulk retry) follow.
 */
export function MessageFiltersBar({ filters, live, onChange, children }: { filters: MessageFilters; live: boolean; onChange(next: MessageFilters): void; children: ReactNode }) {
  const sources = useApp((s) => s.sources);
  const set = (part: Partial<MessageFilters>) => onChange({ ...filters, ...part });
  const problem = rangeProblem(filters);
  return (
    <>
      <RowFilters live={live} liveTestId="deliveries-live" select={{ id: 'msg-status', label: 'Status', value: filters.status, options: STATUS_OPTIONS, onChange: (value) => set({ status: value as MessageView['status'] | '' }) }}>
        <label htmlFor="msg-source" className="sr-only">
          Deliveries from
        </label>
        <select id="msg-source" value={filters.source} onChange={(e) => set({ source: e.target.value })}>
          <option value="">All sources</option>
          {sources.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <label htmlFor="msg-event" className="sr-only">
          Event id filter
        </label>
        <input id="msg-event" type="search" className="mono" size={14} placeholder="Event id" value={filters.eventId} onChange={(e) => set({ eventId: e.target.value })} />
        <label htmlFor="msg-channel" className="sr-only">
          Channel filter
        </label>
        <input id="msg-channel" type="search" className="mono" size={10} placeholder="Channel" title="The event's channel ($default for the default one)" value={filters.channel} onChange={(e) => set({ channel: e.target.value })} />
        <label htmlFor="msg-span" className="sr-only">
          Created
        </label>
        <select id="msg-span" value={filters.span} onChange={(e) => set({ span: e.target.value as Span })}>
          {SPAN_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {children}
      </RowFilters>
      {filters.span === 'custom' && (
        <fieldset className="row wrap time-range">
          <legend className="sr-only">Created between</legend>
          {/* Text, not datetime-local: that one follows the browser's locale (12-hour in en-US), every other time here is 24-hour. */}
          <label htmlFor="msg-from">Since</label>
          <input id="msg-from" className="mono" size={17} placeholder="YYYY-MM-DD HH:MM" aria-describedby="msg-range-hint" aria-invalid={problem?.includes(`"${filters.from}"`) ? true : undefined} value={filters.from} onChange={(e) => set({ from: e.target.value })} />
          <label htmlFor="msg-to">Until</label>
          <input id="msg-to" className="mono" size={17} placeholder="now" aria-describedby="msg-range-hint" aria-invalid={filters.to && problem?.includes(`"${filters.to}"`) ? true : undefined} value={filters.to} onChange={(e) => set({ to: e.target.value })} />
          <span id="msg-range-hint" className="muted small-note">
            local time, 24-hour
          </span>
        </fieldset>
      )}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
