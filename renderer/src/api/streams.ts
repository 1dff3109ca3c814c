// Live streams of the service (`/sse/…`), read with fetch: EventSource can only listen to event
// types it names in advance and channels are open-ended. Each reconnects with `Last-Event-ID`, so
// nothing is missed.
import { ApiError, markReachable, UI_HEADER } from './client';

/**
 * Follows a stream of items with ids, skipping those in `seen` and handing new ones over in
 * batches (a run emitting thousands gives a few renders, not one per item).
 */
export function followBatched<T extends { id: string }>(path: string, seen: Set<string>, onBatch: (items: T[]) => void, onState: (live: boolean) => void, lastEventId: string | null): () => void {
  let pending: T[] = [];
  // biome-ignore lint/correctness/noUnusedVariables: ??= reads it (one flush pending at a time); Biome counts ??= as a write only.
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const batch = pending;
    pending = [];
    onBatch(batch);
  };
  return followStream<T>(
    path,
    (item) => {
      if (seen.has(item.id)) return;
      seen.add(item.id);
      pending.push(item);
      timer ??= setTimeout(flush, 30);
    },
    onState,
    lastEventId,
  );
}

/** Follows one SSE stream (`/sse/dc/{id}/emits`, `/observations`, …); returns the function that stops. */
export function followStream<T>(path: string, onItem: (item: T) => void, onState: (live: boolean) => void, lastEventId: string | null = null): () => void {
  const abort = new AbortController();
  let lastId = lastEventId;
  const connect = async (): Promise<void> => {
    const headers: Record<string, string> = { accept: 'text/event-stream', [UI_HEADER]: '1' };
    if (lastId) headers['last-event-id'] = lastId;
    let res: Response;
    try {
      res = await fetch(path, { credentials: 'same-origin', headers, signal: abort.signal });
    } catch (err) {
      if (!abort.signal.aborted) markReachable(false);
      throw err;
    }
    markReachable(true);
    if (!res.ok || !res.body) throw new ApiError(res.status, `stream answered ${res.status}`);
    onState(true);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) lastId = line.slice(4);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (data) onItem(JSON.parse(data) as T);
      }
    }
  };
  const loop = async () => {
    while (!abort.signal.aborted) {
      await connect().catch(() => undefined);
      if (abort.signal.aborted) return;
      onState(false);
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  void loop();
  return () => abort.abort();
}
