import { type Request, type Response, Router } from 'express';
import type { InvocationView } from '../../contract/invocation-api';
import { isEventId } from '../../store/event-id';
import { isSystemChannel, type StoredEvent } from '../../store/event-store';
import type { LogLine } from '../../store/log-store';
import { notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { eventSummary } from './views';

/** Comment lines sent this often keep proxies and browsers from closing an idle stream. */
const KEEPALIVE_MS = 15_000;
/** A client this far behind is disconnected; it resumes from `Last-Event-ID` when it reconnects. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface StreamItem {
  id: string;
  /** SSE event type; absent sends a plain `message`. */
  type?: string;
  data: unknown;
}

/**
 * Streams `backlog` then what `subscribe` delivers as server-sent events, with keepalives; a
 * client too far behind is cut off (it resumes with `Last-Event-ID`).
 */
export function stream(res: Response, backlog: StreamItem[], subscribe: (send: (item: StreamItem) => void) => () => void): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(': connected\n\n');
  const send = (item: StreamItem) => {
    const type = item.type ? `event: ${item.type.replace(/[\r\n]/g, ' ')}\n` : '';
    res.write(`id: ${item.id}\n${type}data: ${JSON.stringify(item.data)}\n\n`);
    if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
  };
  for (const item of backlog) send(item);
  const unsubscribe = subscribe(send);
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  res.on('close', () => {
    clearInterval(keepalive);
    unsubscribe();
  });
}

/** SSE streams of a source: its emitted events (`/sse/dc/{id}/emits`), its log lines (`…/observations`) and its recorded runs (`…/invocations`). */
export function sseRoutes(ctx: ApiContext): Router {
  const router = Router();
  const find = (id: string) => {
    const source = ctx.sources.find(id);
    if (!source) throw notFound('source', id);
    return source;
  };
  const lastEventId = (req: Request) => (typeof req.headers['last-event-id'] === 'string' ? req.headers['last-event-id'] : null);

  router.get('/dc/:id/emits', (req, res) => {
    const source = find(req.params.id);
    // Named channels become SSE event types; the default channel is a plain `message`.
    const item = (e: StoredEvent): StreamItem => ({ id: e.id, type: e.meta.name ?? undefined, data: eventSummary(e, true) });
    const lastId = lastEventId(req);
    const backlog = lastId && isEventId(lastId) ? ctx.events.since(source.id, lastId).map(item) : [];
    // `$errors`/`$logs` are for their subscribers, not the source's event stream (as in event_summaries).
    stream(res, backlog, (send) => ctx.events.subscribe(source.id, (e) => isSystemChannel(e.meta.name) || send(item(e))));
  });

  router.get('/dc/:id/observations', (req, res) => {
    const source = find(req.params.id);
    const item = (line: LogLine): StreamItem => ({ id: line.id, data: line });
    const lastId = lastEventId(req);
    stream(res, lastId ? ctx.logs.since(source.id, lastId).map(item) : [], (send) => ctx.logs.subscribe(source.id, (line) => send(item(line))));
  });

  router.get('/dc/:id/invocations', (req, res) => {
    const source = find(req.params.id);
    const item = (r: InvocationView): StreamItem => ({ id: r.id, data: r });
    const lastId = lastEventId(req);
    // Resuming: the ones recorded after the last one the client saw, oldest first.
    const recorded = lastId ? ctx.invocations.list(source.id) : [];
    const seen = recorded.findIndex((r) => r.id === lastId);
    const backlog =
      seen > 0
        ? recorded
            .slice(0, seen)
            .reverse()
            .map((kept) => item(ctx.invocations.read(kept)))
        : [];
    stream(res, backlog, (send) => ctx.invocations.subscribe(source.id, (r) => send(item(r))));
  });

  return router;
}
