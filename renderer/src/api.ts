import type { EventSummary, ListResponse, SourceView } from '../../runtime/api/types';

/** An error answered by /v1, with its `detail`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// The UI is signed in by its session cookie (same origin), never by an API key in the page.
async function get<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!res.ok) {
    const problem = (await res.json().catch(() => null)) as { detail?: string } | null;
    throw new ApiError(res.status, problem?.detail ?? `${res.status} ${res.statusText}`);
  }
  return (await res.json()) as T;
}

/** Deployed sources, newest first. */
export function listSources(): Promise<ListResponse<SourceView>> {
  return get('/v1/users/me/sources?limit=100');
}

/** The latest events of a source (the UI shows 100). */
export function listEvents(sourceId: string): Promise<ListResponse<EventSummary>> {
  return get(`/v1/sources/${encodeURIComponent(sourceId)}/event_summaries?limit=100&expand=event`);
}

/**
 * Follows a source's emitted events on every channel; returns the function that stops following.
 * EventSource can only listen to SSE event types it names in advance, and channels are open-ended,
 * so the stream is read with fetch; it reconnects with `Last-Event-ID` so nothing is missed.
 */
export function followEvents(sourceId: string, onEvent: (e: EventSummary) => void, onState: (live: boolean) => void): () => void {
  const abort = new AbortController();
  let lastId: string | null = null;
  const connect = async (): Promise<void> => {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (lastId) headers['last-event-id'] = lastId;
    const res = await fetch(`/sse/dc/${encodeURIComponent(sourceId)}/emits`, { credentials: 'same-origin', headers, signal: abort.signal });
    if (!res.ok || !res.body) throw new ApiError(res.status, `event stream answered ${res.status}`);
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
        if (data) onEvent(JSON.parse(data) as EventSummary);
      }
    }
  };
  const loop = async () => {
    while (!abort.signal.aborted) {
      await connect().catch(() => undefined);
      onState(false);
      if (!abort.signal.aborted) await new Promise((r) => setTimeout(r, 1000));
    }
  };
  void loop();
  return () => abort.abort();
}
