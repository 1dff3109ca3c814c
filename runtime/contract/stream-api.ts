import type { ListResponse, PageInfo } from './page';

/** One row of the stream: a recorded run or an emitted event, of any source, action or workflow. */
export interface StreamRow {
  kind: 'run' | 'event';
  id: string; // the invocation (run) id, workflow run id, or event id
  ts: number; // ms since epoch (run start, or event emit time)
  target: { type: 'source' | 'action' | 'workflow'; id: string; name: string };
  status: 'ok' | 'error' | 'timeout' | 'running' | null; // a run's; an event's is null
  trigger: string | null; // a run's trigger (http, timer, run_now, event, hook, action)
  method: string | null; // HTTP method of the request that started the run (or the event's run)
  path: string | null; // its path (with no query)
  response_status: number | null; // the HTTP answer code the endpoint gave
  size: number | null; // bytes: the request body for a run, the event body for an event
  emits: number | null; // how many events the run emitted (events: null)
  delivery: { state: 'none' | 'pending' | 'delivered' | 'failed' | 'paused'; attempts: number } | null; // events: across their webhook messages; runs: null
  summary: string | null; // the event's summary, or the run's error message / title
  run_id: string | null; // for an event: the run that emitted it
}
/** A page of the stream (`GET /v1/stream`): `total_partial` when counting every match would have read too many records: `total_count` is then those counted, at least, and `GET /v1/stream/count` gives them all. */
export interface StreamPage extends ListResponse<StreamRow> {
  page_info: PageInfo & { total_partial?: true };
}

/** `GET /v1/stream/count?filter=`: every row matching the filter. */
export interface StreamCount {
  total_count: number;
}

export interface SavedFilter {
  name: string;
  filter: string;
}
