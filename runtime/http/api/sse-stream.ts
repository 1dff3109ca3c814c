// Server-sent events: a backlog, then live items, with keepalives and a cut-off for clients too far behind.
import type { Response } from 'express';

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
