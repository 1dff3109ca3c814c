// Sources for agents (docs/mcp.md): each deployed source's latest events as one MCP resource,
// `spout://sources/{id}/events`, and one event as `spout://sources/{id}/events/{event_id}`; a
// subscription to a source's resource hears each event it emits.
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { isSystemChannel } from '../../store/event-store';
import type { ApiContext } from '../api/api-context';
import { eventSummary } from '../api/views';

/** Events a source's resource holds, newest first. */
export const LATEST_EVENTS = 20;

/** The MCP error code of a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

const URI = /^spout:\/\/sources\/([^/]+)\/events(?:\/([^/]+))?$/;

type Context = Pick<ApiContext, 'sources' | 'events'>;

/** The resource of a source's latest events. */
export function eventsUri(sourceId: string): string {
  return `spout://sources/${encodeURIComponent(sourceId)}/events`;
}

/** The resource of every deployed source. */
export function sourceResources(ctx: Context): Resource[] {
  return ctx.sources.list().map((s) => ({
    uri: eventsUri(s.id),
    name: `${s.name_slug}-events`,
    title: `${s.name}: latest events`,
    description: `The latest ${LATEST_EVENTS} events source ${s.name} (${s.id}) emitted, newest first (data over 1 KB cut to a preview; spout://sources/${s.id}/events/{event_id} has one whole); subscribe to hear when it emits.`,
    mimeType: 'application/json',
  }));
}

/** The template of one event's resource. */
export const EVENT_TEMPLATE: ResourceTemplate = {
  uriTemplate: 'spout://sources/{source_id}/events/{event_id}',
  name: 'source-event',
  title: 'One event of a source',
  description: "One event a source emitted, in full; event ids are in the source's events resource.",
  mimeType: 'application/json',
};

function sourceOf(ctx: Context, uri: string): { id: string; name: string; eventId: string | null } {
  const m = URI.exec(uri);
  const source = m ? ctx.sources.find(decodeURIComponent(m[1] as string)) : undefined;
  if (!m || !source) throw new McpError(RESOURCE_NOT_FOUND, `no resource ${uri}: resources/list names each source's events resource`, { uri });
  return { id: source.id, name: source.name, eventId: m[2] ? decodeURIComponent(m[2]) : null };
}

/** A source's latest events (or one of them) as JSON. */
export function readEvents(ctx: Context, uri: string): ReadResourceResult {
  const source = sourceOf(ctx, uri);
  let body: unknown;
  if (source.eventId !== null) {
    const event = ctx.events.find(source.id, source.eventId);
    if (!event) throw new McpError(RESOURCE_NOT_FOUND, `source ${source.id} has no event ${source.eventId} (it may have been trimmed or deleted)`, { uri });
    body = eventSummary(event, true);
  } else {
    // Previews keep an agent's context small: data over 1 KB is cut (`truncated`); one event's resource has it whole.
    body = { source: { id: source.id, name: source.name }, events: ctx.events.latest(source.id, LATEST_EVENTS).map((e) => eventSummary(e, false)) };
  }
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
}

/** Calls `onEmit` after each event (not `$errors`/`$logs`) the resource's source stores; returns the unsubscribe function. */
export function watchEvents(ctx: Context, uri: string, onEmit: () => void): () => void {
  const source = sourceOf(ctx, uri);
  return ctx.events.subscribe(source.id, (e) => {
    if (!isSystemChannel(e.meta.name)) onEmit();
  });
}
