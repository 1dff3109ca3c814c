// /v1 shapes of "run now" on a source with an HTTP interface: the request it sends to the source's
// endpoint (`POST /v1/sources/{id}/run`), and the source's saved test payloads (`…/payloads`).

/** A request run now sends to a source's endpoint; what is left out takes the default request's value. */
export interface RunRequest {
  method: string;
  /** The sub-path after the endpoint id (`event.path`), `/` for the endpoint itself. */
  path: string;
  /** The query string, without `?`. */
  query: string;
  headers: Record<string, string | string[]>;
  /** The body as UTF-8 text. */
  body: string;
}

/** The request run now would send when given none (`GET /v1/sources/{id}/run/request`). */
export interface RunRequestView {
  request: RunRequest;
  /** `last_request`: the last request the source received (`invocation_id` its run); `sample`: none was, and the component ships a sample event (`sampleEmit`), sent as a JSON POST; `default`: neither. */
  from: 'last_request' | 'sample' | 'default';
  invocation_id: string | null;
  /** True when the last request's body was binary or cut at the record's limit: sent unedited it goes as recorded, and `request.body` is empty. */
  body_as_recorded: boolean;
  /** The component's sample event as the body run now sends with `sample: true` (pretty JSON), or null when it ships none. */
  sample: string | null;
}

/** A saved test payload of a source: a named request run now can send (`payload: NAME`). */
export interface SavedPayload extends RunRequest {
  name: string;
  /** Epoch seconds. */
  created_at: number;
  updated_at: number;
}

/** What `POST /v1/sources/{id}/run` takes on a source with an HTTP interface; every field optional. */
export interface RunNowInput extends Partial<RunRequest> {
  /** A saved payload's name: its request is sent (fields given beside it replace its own). */
  payload?: string;
  /** Send the component's sample event (`sampleEmit`) as a JSON POST (fields given beside it replace the request's own). */
  sample?: boolean;
  /** On a source with both a timer and an HTTP interface: which one runs (default `timer`, as before; any request field means `http`). */
  trigger?: 'http' | 'timer';
}

/** Saved payloads one source keeps. */
export const MAX_SAVED_PAYLOADS = 20;

/** The size of one saved payload as JSON, at most. */
export const MAX_SAVED_PAYLOAD_BYTES = 256 * 1024;
