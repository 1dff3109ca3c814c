import { Router } from 'express';
import type { StoredEvent } from '../../events/event-store';
import { isEventId } from '../../events/event-id';
import type { ApiContext } from '../context';
import { notFound } from '../problem';
import { eventSummary } from '../views';

/** Comment lines sent this often keep proxies and browsers from closing an idle stream. */
const KEEPALIVE_MS = 15_000;
/** A client this far behind is disconnected; it resumes from `Last-Event-ID` when it reconnects. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** SSE streams of a source's emitted events (`/sse/dc/{id}/emits`). */
export function sseRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.get('/dc/:id/emits', (req, res) => {
    const source = ctx.sources.find(req.params.id);
    if (!source) throw notFound('source', req.params.id);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': connected\n\n');
    const send = (e: StoredEvent) => {
      // Named channels become SSE event types; the default channel is a plain `message`.
      const type = e.meta.name ? `event: ${e.meta.name.replace(/[\r\n]/g, ' ')}\n` : '';
      res.write(`id: ${e.id}\n${type}data: ${JSON.stringify(eventSummary(e, true))}\n\n`);
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    };
    const lastId = req.headers['last-event-id'];
    if (typeof lastId === 'string' && isEventId(lastId)) for (const e of ctx.events.since(source.id, lastId)) send(e);
    const unsubscribe = ctx.events.subscribe(source.id, send);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    res.on('close', () => {
      clearInterval(keepalive);
      unsubscribe();
    });
  });

  return router;
}
