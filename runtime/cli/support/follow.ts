import type { EventSummary, LogLineView } from '../../contract/source-api';
import type { ApiClient } from '../../remote/api-client';
import { dim, eventLine, logLine, note, out, printJsonLine } from './output';

export interface FollowOptions {
  events: boolean;
  logs: boolean;
  /** One JSON object per line: `{"type":"event","event":…}` / `{"type":"log","log":…}`. */
  json: boolean;
  signal: AbortSignal;
  /** Resume points: only what came after these ids is printed (none: only what comes from now). */
  lastEventId?: string | null;
  lastLogId?: string | null;
  /** Prints an event instead of the default line. */
  printEvent?: (e: EventSummary) => void;
  /** Prints a log line instead of the default line. */
  printLog?: (l: LogLineView) => void;
}

/**
 * Streams a source's events and/or log lines to the terminal until `signal` aborts; reconnects
 * when the service drops. Rejects when the service refuses the stream (e.g. the source is gone).
 */
export async function follow(client: ApiClient, sourceId: string, options: FollowOptions): Promise<void> {
  const status = (what: string) => (s: 'connected' | 'reconnecting', detail?: string) => {
    if (!options.json) note(dim(s === 'reconnecting' ? `${what} stream interrupted (${detail ?? 'disconnected'}); reconnecting…` : `${what} stream back`, process.stderr));
  };
  const streams: Array<Promise<void>> = [];
  // A reconnect resumes after the last id seen; ids seen lately are still never printed twice.
  const seen = new Set<string>();
  const fresh = (id: string | null) => {
    if (!id) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    if (seen.size > 500) seen.delete(seen.values().next().value as string);
    return true;
  };
  if (options.events) {
    streams.push(
      client.stream(`/sse/dc/${encodeURIComponent(sourceId)}/emits`, {
        signal: options.signal,
        lastEventId: options.lastEventId,
        onStatus: status('event'),
        onMessage: (m) => {
          if (!fresh(m.id && `e${m.id}`)) return;
          const e = JSON.parse(m.data) as EventSummary;
          if (options.json) printJsonLine({ type: 'event', event: e });
          else if (options.printEvent) options.printEvent(e);
          else out(eventLine(e));
        },
      }),
    );
  }
  if (options.logs) {
    streams.push(
      client.stream(`/sse/dc/${encodeURIComponent(sourceId)}/observations`, {
        signal: options.signal,
        lastEventId: options.lastLogId,
        onStatus: status('log'),
        onMessage: (m) => {
          if (!fresh(m.id && `l${m.id}`)) return;
          const l = JSON.parse(m.data) as LogLineView;
          if (options.json) printJsonLine({ type: 'log', log: l });
          else if (options.printLog) options.printLog(l);
          else out(logLine(l));
        },
      }),
    );
  }
  await Promise.all(streams);
}

/** An AbortSignal fired by the first Ctrl-C (SIGINT) or SIGTERM; a second one exits at once. */
export function interruption(): { signal: AbortSignal; abort: () => void; dispose: () => void } {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    abort: () => controller.abort(),
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
