// Words and links for recorded runs, shared by the Activity list, its detail pane, the event
// inspector and the places action runs are shown.
import type { InvocationView } from '../../../../runtime/contract/invocation-api';

const TRIGGER_LABEL: Record<InvocationView['trigger'], string> = {
  http: 'HTTP',
  timer: 'timer',
  run_now: 'run now',
  event: 'event',
  hook: 'hook',
  action: 'action run',
};

/** The trigger in words: `HTTP`, `timer`, `deploy hook`… */
export function triggerLabel(r: Pick<InvocationView, 'trigger' | 'hook'>): string {
  return r.trigger === 'hook' && r.hook ? `${r.hook} hook` : TRIGGER_LABEL[r.trigger];
}

/** What ran: `POST /orders/42?x=1` for a request, `tool call via MCP` for an agent's, else the trigger (and the emitter for a listened-to event). */
export function invocationTitle(r: InvocationView): string {
  if (r.request) return `${r.request.method} ${r.request.path}${r.request.query ? `?${r.request.query}` : ''}`;
  if (r.via?.kind === 'mcp') return `${r.via.tool} via MCP`;
  if (r.listened_to) return `event ${r.listened_to.event_id} from ${r.listened_to.emitter_id}`;
  return triggerLabel(r);
}

/** The badge class of a run's status. */
export const statusBadge = (status: InvocationView['status']) => (status === 'ok' ? 'badge active' : status === 'timeout' ? 'badge status-failing' : 'badge failed');

/** Where a source's run is shown: its Activity tab with the run selected. */
export const activityPath = (sourceId: string, invocationId?: string | null) => `/sources/${encodeURIComponent(sourceId)}/activity${invocationId ? `/${encodeURIComponent(invocationId)}` : ''}`;

/** Where a source's event is shown: its Events tab with the event selected. */
export const eventPath = (sourceId: string, eventId?: string | null) => `/sources/${encodeURIComponent(sourceId)}/events${eventId ? `/${encodeURIComponent(eventId)}` : ''}`;

/** Where a source's network mode and cassette are shown, with entry `entry` (1-based) open. */
export const networkPath = (sourceId: string, entry?: number | null) => `/sources/${encodeURIComponent(sourceId)}/network${entry ? `/${entry}` : ''}`;
