import { type Request, Router } from 'express';
import type { InvocationView } from '../../contract/invocation-api';
import { isEventId } from '../../store/event-id';
import { isSystemChannel, type StoredEvent } from '../../store/event-store';
import type { LogLine } from '../../store/log-store';
import { notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { type StreamItem, stream } from './sse-stream';
import { streamSseRoutes } from './stream-routes';
import { eventSummary } from './views';

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
    // Resuming: the ones recorded (ended) after the last one the client saw, oldest first.
    const recorded = lastId ? [...ctx.invocations.keptOf(source.id)].reverse() : [];
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

  router.use(streamSseRoutes(ctx));
  return router;
}
