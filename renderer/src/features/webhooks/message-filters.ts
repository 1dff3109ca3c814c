// The filters of a webhook's messages view (status, source, event id, channel, time range), as the
// /v1 message list and bulk retry take them, and as one line people read ("status:failed source:orders since 1h").
import type { MessageView } from '../../../../runtime/contract/webhook-api';
import { dateTime } from '../../ui/format';

/** How far back the list goes: a span back from now, any time, or a custom range. */
export type Span = '' | '15m' | '1h' | '24h' | '7d' | 'custom';

/** The seconds of each span back from now. */
const SPAN_SECONDS: Record<Exclude<Span, '' | 'custom'>, number> = { '15m': 900, '1h': 3600, '24h': 86_400, '7d': 604_800 };

export const SPAN_OPTIONS: Array<{ value: Span; label: string }> = [
  { value: '', label: 'Any time' },
  { value: '15m', label: 'Last 15 minutes' },
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: 'custom', label: 'Custom range…' },
];

/** What the view filters on; `from` and `to` (local 24-hour text) count only for a custom span. */
export interface MessageFilters {
  status: MessageView['status'] | '';
  source: string;
  eventId: string;
  channel: string;
  span: Span;
  from: string;
  to: string;
}

/** No filter: every message. The custom range starts an hour back, as the old "recover since" did. */
export const noFilters = (): MessageFilters => ({ status: '', source: '', eventId: '', channel: '', span: '', from: dateTime(Date.now() - 3600_000).slice(0, 16), to: '' });

/** The message list's (and bulk retry's) parameters. */
export interface MessageQuery {
  status?: string;
  source?: string;
  event_id?: string;
  event_name?: string;
  since?: number;
  until?: number;
}

const TIME_FORMAT = 'write it as YYYY-MM-DD HH:MM (local time, 24-hour)';

/** Local `YYYY-MM-DD HH:MM` text as epoch seconds; undefined when empty, NaN when not a time. */
export function localSeconds(text: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (!/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(t)) return Number.NaN;
  return Math.floor(new Date(t.replace(' ', 'T')).getTime() / 1000);
}

/** Why the custom range cannot be read, or null. */
export function rangeProblem(f: MessageFilters): string | null {
  if (f.span !== 'custom') return null;
  const since = localSeconds(f.from);
  const until = localSeconds(f.to);
  if (Number.isNaN(since)) return `"${f.from}" is not a time: ${TIME_FORMAT}.`;
  if (Number.isNaN(until)) return `"${f.to}" is not a time: ${TIME_FORMAT}.`;
  if (since !== undefined && until !== undefined && until < since) return 'The range ends before it starts: give an end after the start.';
  return null;
}

/** The API's parameters for `f` at `nowS` (epoch s); a custom range that cannot be read is left out (the view says why). */
export function messageQuery(f: MessageFilters, nowS: number): MessageQuery {
  const q: MessageQuery = {};
  if (f.status) q.status = f.status;
  if (f.source) q.source = f.source;
  if (f.eventId.trim()) q.event_id = f.eventId.trim();
  if (f.channel.trim()) q.event_name = f.channel.trim();
  if (f.span === 'custom') {
    if (rangeProblem(f)) return q;
    const since = localSeconds(f.from);
    const until = localSeconds(f.to);
    if (since !== undefined) q.since = since;
    if (until !== undefined) q.until = until;
  } else if (f.span) q.since = nowS - SPAN_SECONDS[f.span];
  return q;
}

/**
 * The status a bulk retry takes with these filters: failing ones when the list shows failing,
 * else failed ones; null when the list shows a status that is never retried (delivered, …).
 */
export function retryStatus(f: MessageFilters): 'failed' | 'failing' | null {
  if (f.status === '' || f.status === 'failed') return 'failed';
  return f.status === 'failing' ? 'failing' : null;
}

/** The filters as one line, in the stream's filter words: `status:failed source:orders since 1h`. */
export function describeFilters(f: MessageFilters, sourceName: (id: string) => string, status: string = f.status): string {
  const parts: string[] = [];
  if (status) parts.push(`status:${status}`);
  if (f.source) parts.push(`source:${sourceName(f.source)}`);
  if (f.eventId.trim()) parts.push(`event:${f.eventId.trim()}`);
  if (f.channel.trim()) parts.push(`channel:${f.channel.trim()}`);
  if (f.span === 'custom') {
    if (f.from.trim()) parts.push(`since ${f.from.trim()}`);
    if (f.to.trim()) parts.push(`until ${f.to.trim()}`);
  } else if (f.span) parts.push(`since ${f.span}`);
  return parts.join(' ');
}
