// One request to an HTTP endpoint (`/e/<id>`) as the HTTP edge hands it to the engine: the event
// the component receives, the request as its run's record keeps it, and the ways to answer.
import type { HttpResponsePayload } from './host-protocol';
import type { RecordedRequest, RecordedResponse } from './invocation-api';

/** The event a `$.interface.http` source, or an HTTP-triggered workflow, receives, with the fields Pipedream sends. */
export interface HttpEvent {
  method: string;
  /** The path after the endpoint id (`/` for the endpoint itself). */
  path: string;
  query: Record<string, unknown>;
  /** The caller's IP address. */
  client_ip: string;
  /** The full URL the caller requested, query string included. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  bodyRaw: string;
  body: unknown;
}

/** A request being answered: the engine runs it and says how it ended; the edge writes the answer. */
export interface EndpointExchange {
  event: HttpEvent;
  request: RecordedRequest;
  /** The invocation the request says it replays (a header); the engine keeps it only if it is one of the source's. */
  replayOf: string | null;
  /** Spout webhook deliveries in a row that led to the request (`x-spout-hops`), 0 without the header; what its run emits carries them on. */
  hops: number;
  /** Sends what the component gave `respond()`; only the first answer goes out. */
  respond(response: HttpResponsePayload): void;
  /**
   * Ends the exchange after the run: if nothing was answered yet, answers success (`failure`
   * null) or a 502 saying `failure`. Returns the answer that went out, as recorded.
   */
  finish(failure: string | null): RecordedResponse | null;
}
